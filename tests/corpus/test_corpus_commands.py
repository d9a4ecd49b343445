"""The corpus commands end to end: ``python -m scrapy <command>`` over a synthetic SQLite corpus."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from corpus_fixtures import TEXT1, corpus_records, run_command

from sacorpus.corpus.lineformat import read_lineformat
from sacorpus.corpus.wordlist import is_word


def _jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_export_jsonl_with_filters(run, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    res = run("export", "-o", str(out))
    assert res.returncode == 0, res.stderr
    docs = _jsonl(out.read_text(encoding="utf-8"))
    assert {d["url"] for d in docs} == {r["url"] for r in corpus_records()}
    assert all("body" not in d and "html" not in d for d in docs)
    assert docs[0]["tokens"] == corpus_records()[0]["tokens"]
    assert "5 articles exported of 5 read" in res.stderr
    assert not (tmp_path / "all.jsonl.part").exists()

    res = run("export", "--exclude-duplicates", "--since", "2024-02", "--until", "2024-03")
    assert res.returncode == 0, res.stderr
    assert [d["url"] for d in _jsonl(res.stdout)] == [
        "https://mg.example/water",
        "https://news24.example/water-af",
    ]
    # the store applies the filter in its query: only the two passing articles are read
    assert "2 articles exported of 2 read" in res.stderr

    res = run("export", "--publication", "mg", "--language", "en", "--fields", "title,language", "--html")
    assert res.returncode == 0, res.stderr
    docs = _jsonl(res.stdout)
    assert [sorted(d) for d in docs] == [["html", "language", "title", "url"]] * 2
    assert {d["url"] for d in docs} == {"https://mg.example/water", "https://mg.example/undated"}


def test_export_blocks_gzip_round_trip(run, tmp_path: Path) -> None:
    out = tmp_path / "corpus.txt.gz"
    res = run("export", "-o", str(out), "--format", "blocks", "--html")
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:2] == b"\x1f\x8b"  # gzip magic
    back = {r["url"]: r for r in read_lineformat(out)}
    for orig in corpus_records():
        got = back[orig["url"]]
        assert got["text"] == orig["text"] and got["title"] == orig["title"] and got["html"] == orig["html"]
        assert got["published_at"] == orig["published_at"]
        assert got["title_tokens"] == orig["title_tokens"]
        assert [q["text"] for q in got["quotes"]] == [q["text"] for q in orig["quotes"]]
        assert [(lk["url"], lk["text"]) for lk in got["links"]] == [
            (lk["url"], lk["text"]) for lk in orig["links"]
        ]
        assert got["problems"] == []


def test_search(run) -> None:
    res = run("search", "land reform")
    assert res.returncode == 0, res.stderr
    rows = [line.split("\t") for line in res.stdout.splitlines()[1:]]
    assert [r[0] for r in rows] == ["https://iol.example/land-reform-1", "https://iol.example/land-reform-2"]
    assert rows[0][1] == "2024-01-15T08:30:00Z" and rows[0][3] == "3" and "[land reform]" in rows[0][4]
    assert all(len(r) == 5 for r in rows)  # tabs inside titles/snippets never break the columns

    res = run("search", r"water\b", "--regex", "--limit", "1", "--exclude-duplicates")
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.splitlines()) == 2  # header + one hit

    res = run("search", "(unclosed", "--regex")
    assert res.returncode == 2 and "bad regular expression" in res.stderr


def test_kwic_lines_align(run) -> None:
    res = run("kwic", "land", "reform", "--width", "30")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 3  # two in the first article, one in the second
    assert len({line.index(" [ ") for line in lines}) == 1  # the keyword column is fixed
    assert lines[0].index(" [ ") == 30
    assert all(re.search(r"\[ (land|Land) reform \]", line) for line in lines)
    assert lines[0].rstrip().endswith("https://iol.example/land-reform-1")

    res = run("kwic", "Land reform", "--case-sensitive", "--sort", "left", "--limit", "5")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 2
    # sorted by the word before: nothing (start of text) sorts before "." (after Parliament)
    assert lines[0].rstrip().endswith("land-reform-2") and "Parliament." in lines[1]

    res = run("kwic", "don't")
    assert res.returncode == 0 and "[ don't ]" in res.stdout  # the query is split like the corpus

    res = run("kwic", "reform", "--limit", "1", "--publication", "iol")
    assert len(res.stdout.splitlines()) == 1


def test_wordlist(run, tmp_path: Path) -> None:
    out = tmp_path / "words.tsv"
    res = run("wordlist", "--lower", "-o", str(out))
    assert res.returncode == 0, res.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "rank\tword\tcount\tper_million"
    got = {w: (int(c), float(pm)) for _r, w, c, pm in (line.split("\t") for line in lines[1:])}
    # expected, counted here from the stored tokens
    expected = Counter(t.casefold() for r in corpus_records() for t in r["tokens"] if is_word(t))
    total = sum(expected.values())
    assert {w: c for w, (c, _pm) in got.items()} == dict(expected)
    assert got["reform"][1] == round(expected["reform"] / total * 1e6, 2)
    assert "." not in got and "," not in got

    res = run("wordlist", "--top", "3", "--min-count", "2")
    assert res.returncode == 0, res.stderr
    rows = [line.split("\t") for line in res.stdout.splitlines()[1:]]
    assert len(rows) == 3 and all(int(r[2]) >= 2 for r in rows)


def test_collocations(run) -> None:
    res = run("collocations", "land", "--window", "2", "--min-count", "1", "--top", "0")
    assert res.returncode == 0, res.stderr
    header, *lines = res.stdout.splitlines()
    assert header.split("\t")[:4] == ["rank", "collocate", "cooc", "freq"]
    rows = {r[1]: r for r in (line.split("\t") for line in lines)}
    # "land reform" 3 times; "Reform of the land" is 3 words away (outside the window); reform: 4 in all
    assert rows["reform"][2:4] == ["3", "4"]
    assert rows["the"][2:4] == ["2", "4"]  # "The land", "of the land"; 4 x the/The in the corpus
    assert lines[0].split("\t")[1] in {"reform", "the"}  # the strongest by log-likelihood
    ll = [float(line.split("\t")[5]) for line in lines]
    assert ll == sorted(ll, reverse=True)

    res = run("collocations", "land", "--measure", "t", "--min-count", "5")
    assert res.returncode == 0 and len(res.stdout.splitlines()) == 1  # header only: nothing that frequent


def test_stats_and_plot(run, tmp_path: Path) -> None:
    png = tmp_path / "months.png"
    res = run("stats", "--plot", str(png))
    assert res.returncode == 0, res.stderr
    table = dict(line.split("\t", 1) for line in res.stdout.splitlines())
    records = corpus_records()
    iol = [r for r in records if r["publication"] == "iol"]
    assert table["iol"] == f"2\t{sum(r['token_count'] for r in iol)}\t{sum(r['word_count'] for r in iol)}"
    assert table["TOTAL"].startswith("5\t")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert "1 articles have no published date" in res.stderr

    res = run("stats", "--by", "dedup_label")
    assert res.returncode == 0
    assert dict(line.split("\t", 1) for line in res.stdout.splitlines())["duplicate"].startswith("1\t")

    res = run("stats", "--by", "month", "--language", "en")
    months = [line.split("\t")[0] for line in res.stdout.splitlines()[1:-1]]
    assert months == ["2024-01", "2024-02", "(none)"]


def test_errors_are_messages(run, tmp_path: Path) -> None:
    missing = tmp_path / "nope.sqlite"
    res = run_command("stats", "--no-progress", store=missing)
    assert res.returncode == 1 and "no corpus at" in res.stderr and "Traceback" not in res.stderr
    assert not missing.exists()  # reading never creates an empty store

    res = run("export", "--since", "last week")
    assert res.returncode == 2 and "is not YYYY" in res.stderr

    res = run("export", "--format", "lines", "--fields", "title")
    assert res.returncode == 2

    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    res = run("export", "-o", str(blocker / "out.jsonl"))
    assert res.returncode == 1 and "cannot write" in res.stderr and "Traceback" not in res.stderr


def test_text_fixture_has_a_paragraph_break() -> None:
    assert "\n" in TEXT1  # the line-format tests above depend on it
