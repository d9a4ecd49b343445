"""The seed's line format, VRT, CoNLL-U and Parquet: written by ``scrapy export``, read back, equal fields."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import corpus_records, make_article, run_command

from sacorpus.corpus.seedlines import GOOD_RATIO, read_seed_line, seed_line, useful_ratio
from sacorpus.storage.sqlite import SQLiteStore

ZU_TEXT = "Abafundi babuyela ezikoleni ngoMsombuluko."


@pytest.fixture(scope="module")
def tagged_store(tmp_path_factory: pytest.TempPathFactory, corpus_path: Path) -> Path:
    """The synthetic corpus plus an isiZulu article, tagged by ``scrapy annotate``."""
    path = tmp_path_factory.mktemp("tagged") / "corpus.sqlite"
    shutil.copy(corpus_path, path)
    with SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl")) as store:
        store.upsert_articles(
            [make_article("https://zu.example/a", "isolezwe", ZU_TEXT, title="Izikole", language="zu")]
        )
    res = run_command("annotate", "--no-progress", store=path)
    assert res.returncode == 0, res.stderr
    assert "tagged 5" in res.stderr and "no model for its language 1" in res.stderr
    return path


def _records() -> dict[str, dict[str, Any]]:
    return {r["url"]: r for r in corpus_records()}


def test_annotate_is_resumable(tagged_store: Path) -> None:
    again = run_command("annotate", "--no-progress", store=tagged_store)
    assert again.returncode == 0 and "already tagged 6" in again.stderr, again.stderr
    forced = run_command("annotate", "--force", "--publication", "mg", "--no-progress", store=tagged_store)
    assert forced.returncode == 0 and "tagged 2" in forced.stderr, forced.stderr
    with SQLiteStore(str(tagged_store), spill_path=str(tagged_store.parent / "spill.jsonl")) as store:
        rec = store.get("https://mg.example/water")
    assert rec is not None and len(rec["upos"].split(" ")) == len(rec["tokens"])


def test_seed_lines_round_trip() -> None:
    originals = _records()
    for orig in originals.values():
        line = seed_line(orig)
        assert line.endswith("\n") and line.count("\n") == 1
        back = read_seed_line(line)
        assert back["url"] == orig["url"] and back["problems"] == []
        assert back["published_at"] == orig["published_at"]
        assert back["title"] == " ".join(orig["title"].split("\t"))  # tabs removed, nothing else
        assert back["title_tokens"] == orig["title_tokens"]
        assert back["tokens"] == orig["tokens"]
        assert back["html"] == orig["html"].replace("\t", " ").replace("\n", " ")
        assert back["languages"][0] == (orig["language"], 0.0)
        assert back["useful_flag"] is (back["useful_ratio"] >= GOOD_RATIO)
        c = back["text_tokenized"]
        for link, orig_link in zip(back["links"], orig["links"], strict=True):
            assert link["url"] == orig_link["url"]
            assert c[link["start"] : link["start"] + link["length"]] == orig_link["text"]
        for quote, orig_quote in zip(back["quotes"], orig["quotes"], strict=True):
            # offsets into C cover the quotation's tokens
            assert c[quote["start"] : quote["start"] + quote["length"]] == "Land reform is urgent"
            assert quote["text"] == orig_quote["text"]


def test_seed_line_columns_in_order() -> None:
    orig = _records()["https://iol.example/land-reform-1"]
    cols = seed_line(orig).rstrip("\n").split("\t")
    assert [c.split(":", 1)[0] for c in cols] == ["U", "D", "T", "F", "C", "H", "L", "Q", "en", "G"]
    assert cols[1] == "D:2024-01-15 08:30:00"
    assert cols[4].startswith("C:The land reform debate continued in Parliament . Land reform")
    assert cols[-1].startswith("G:1:1")


def test_title_links_and_unplaced_spans_have_empty_offsets() -> None:
    orig = dict(_records()["https://iol.example/land-reform-1"])
    orig["links"] = [{"url": "https://x.example/t", "start": None, "length": None, "text": "title"}]
    back = read_seed_line(seed_line(orig))
    assert back["links"] == [{"start": None, "length": None, "url": "https://x.example/t"}]


def test_tokens_with_spaces_and_every_line_break_stay_on_one_line() -> None:
    """A token holding white space loses it, an empty one is ``_``; every break character is a space."""
    breaks = "\t\n\r\v\f\x85\u2028\u2029"
    orig = dict(_records()["https://iol.example/land-reform-1"])
    orig.update(
        tokens=["New", "York", "a b", "", " ", "c\u00a0d", "end"],
        token_offsets=[[0, 3], [4, 8], [9, 12], [13, 13], [13, 14], [15, 18], [19, 22]],
        title="".join(f"t{ch}" for ch in breaks),
        html="<p>" + breaks + "</p>",
        links=[{"url": "https://x.example/c", "start": 15, "length": 7, "text": "c d end"}],
        quotes=[],
    )
    line = seed_line(orig)
    assert line.count("\n") == 1 and line.endswith("\n")
    back = read_seed_line(line)
    assert back["text_tokenized"] == "New York ab _ _ cd end"
    assert back["title"] == "t " * len(breaks)
    assert back["html"] == "<p>" + " " * len(breaks) + "</p>"
    c = back["text_tokenized"]
    (link,) = back["links"]
    assert c[link["start"] : link["start"] + link["length"]] == "cd end"


def test_useful_ratio() -> None:
    assert useful_ratio("Plain words, and numbers 12.") == 1.0
    assert useful_ratio("■■■■ ▲▲▲ abc") < GOOD_RATIO
    assert useful_ratio("") == 0.0


def test_export_lines_is_the_seed_format(run, tmp_path: Path) -> None:
    out = tmp_path / "corpus.txt.gz"
    res = run("export", "-o", str(out), "--format", "lines")
    assert res.returncode == 0, res.stderr
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert len(lines) == 5 and all(line.startswith("U:") for line in lines)
    originals = _records()
    for line in lines:
        back = read_seed_line(line)
        assert back["tokens"] == originals[back["url"]]["tokens"]


def test_export_vrt(tagged_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpus.vrt.gz"
    res = run_command("export", "-o", str(out), "--format", "vrt", "--no-progress", store=tagged_store)
    assert res.returncode == 0, res.stderr
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        vrt = fh.read()
    assert vrt.count("<text ") == 6 == vrt.count("</text>")
    assert vrt.count("<p>") == vrt.count("</p>") and vrt.count("<s>") == vrt.count("</s>")
    head = next(line for line in vrt.splitlines() if "mg.example/water" in line)
    assert 'publication="mg"' in head and 'date="2024-02-20"' in head and 'language="en"' in head
    assert 'dedup="unique"' in head and 'id="' in head
    rows = [line.split("\t") for line in vrt.splitlines() if "\t" in line]
    assert all(len(r) == 3 for r in rows)
    assert ["Residents", "NOUN", "resident"] in rows and ["n't", "PART", "not"] in rows
    assert ["Abafundi", "_", "_"] in rows  # isiZulu: no tags rather than wrong ones
    # the water article has two paragraphs
    block = vrt[vrt.index("mg.example/water") :]
    block = block[: block.index("</text>")]
    assert block.count("<p>") == 2


def test_vrt_escapes_markup() -> None:
    from sacorpus.corpus.vrt import vrt_text

    rec = make_article('https://x.example/?a=1&b="2"', "x", "Fish & <chips> are cheap.", title="T")
    text = vrt_text(rec, tag=True)
    assert 'url="https://x.example/?a=1&amp;b=&quot;2&quot;"' in text
    assert "\n&amp;\t" in text and "&lt;" in text and "<chips>" not in text


def test_export_conllu(tagged_store: Path) -> None:
    res = run_command(
        "export", "--format", "conllu", "--publication", "mg", "--no-progress", store=tagged_store
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert sum(line.startswith("# newdoc id = ") for line in lines) == 2
    sent_ids = [line.split(" = ")[1] for line in lines if line.startswith("# sent_id = ")]
    assert len(sent_ids) == len(set(sent_ids)) >= 3
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    assert all(len(r) == 10 for r in rows)
    have = next(r for r in rows if r[1] == "have")
    assert have[2] == "have" and have[3] in ("VERB", "AUX")
    assert next(r for r in rows if r[1] == "do")[9] == "SpaceAfter=No"  # "don't" -> do n't
    text_lines = [line for line in lines if line.startswith("# text = ")]
    assert "# text = Residents don't have water at all." in text_lines
    assert res.stdout.endswith("\n\n")


def test_export_parquet_reads_in_pandas_and_duckdb(tagged_store: Path, tmp_path: Path) -> None:
    import duckdb
    import pandas as pd
    import pyarrow.parquet as pq

    out = tmp_path / "corpus.parquet"
    res = run_command("export", "-o", str(out), "--format", "parquet", "--no-progress", store=tagged_store)
    assert res.returncode == 0, res.stderr
    frame = pd.read_parquet(out)
    assert len(frame) == 6 and frame["url"].is_unique
    water = frame.set_index("url").loc["https://mg.example/water"]
    assert list(water["tokens"]) == _records()["https://mg.example/water"]["tokens"]
    assert len(water["upos"]) == len(water["tokens"]) == len(water["lemmas"])
    assert "NOUN" in list(water["upos"])
    zu = frame.set_index("url").loc["https://zu.example/a"]
    assert all(tag is None for tag in zu["upos"])
    rows = duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}') WHERE language = 'en'").fetchall()
    assert rows == [(4,)]
    assert pq.ParquetFile(out).schema_arrow.field("tokens").type.value_type == "string"


def test_parquet_streams_in_row_groups(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from sacorpus.corpus.parquet import ParquetExport

    out = tmp_path / "small.parquet"
    with ParquetExport(out, row_group=2) as parquet:
        for rec in corpus_records():
            parquet.write(rec)
    assert pq.ParquetFile(out).num_row_groups == 3 and pq.read_table(out).num_rows == 5


def test_format_usage_errors(run) -> None:
    assert run("export", "--format", "parquet").returncode == 2  # needs a file
    assert run("export", "--format", "vrt", "--fields", "title").returncode == 2
    assert run("export", "--format", "jsonl", "--tag").returncode == 2


def test_annotate_reports_a_bad_record_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "corpus.sqlite"
    bad = make_article("https://bad.example/a", "x", "Some words here.", title="T")
    bad["tokens"] = [None] * len(bad["tokens"])  # a damaged record: tokens that are not strings
    good = make_article("https://good.example/a", "x", "The schools reopen.", title="T")
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles([bad, good])
    res = run_command("annotate", "--no-progress", store=path)
    assert res.returncode == 1 and "cannot tag https://bad.example/a" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr and "tagged 1" in res.stderr
