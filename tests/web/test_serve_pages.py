"""Every page of `scrapy serve` over HTTP, on SQLite and on MongoDB: content, filters, pages, downloads, errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from urllib.parse import quote, unquote

import lxml.html
import pytest
from scrapy.settings import Settings
from servekit import PAGE_SIZE, Served, sqlite_args, start_server

from sacorpus.storage.base import store_from_settings
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import browser_corpus
from sacorpus.testing.servers import stop_process

RECORDS = {r["url"]: r for r in browser_corpus()}


def hit_urls(body: str) -> list[str]:
    """The article URLs of the search hits, in page order."""
    doc = lxml.html.fromstring(body)
    return [unquote(a.get("href").split("url=", 1)[1]) for a in doc.cssselect("ol.hits a.title")]


def all_hits(served: Served, query: str) -> list[str]:
    """Every hit of a search, page after page (following the pages' own next links)."""
    urls, path = [], f"/search?{query}"
    while path:
        answer = served.get(path)
        assert answer.status == 200, answer.body
        urls += hit_urls(answer.body)
        nxt = lxml.html.fromstring(answer.body).cssselect("a[rel=next]")
        path = "/search" + nxt[0].get("href") if nxt else ""
    return urls


def test_search_finds_phrases_across_pages(served: Served) -> None:
    first = served.get("/search?q=reform")
    assert first.status == 200
    assert len(hit_urls(first.body)) == PAGE_SIZE and 'rel="next"' in first.body
    found = all_hits(served, "q=reform")
    expected = {u for u, r in RECORDS.items() if "reform" in (r["text"] + r["title"]).lower()}
    assert sorted(found) == sorted(expected) and len(found) == len(set(found)) == 3


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "q=Parliament+reform&mode=words",
            {"https://iol.example/land-reform-1", "https://iol.example/land-reform-2"},
        ),
        ("q=reform+Parliament&mode=phrase", set()),
        ("q=wat%28er%7Cch%29+in&mode=regex", {"https://news24.example/water-af"}),
        ("q=land+reform&case=1", {"https://iol.example/land-reform-1", "https://iol.example/land-reform-2"}),
        ("q=Land+reform&case=1", {"https://iol.example/land-reform-1", "https://iol.example/land-reform-2"}),
        ("q=reform&publication=mg", {"https://mg.example/undated"}),
        ("q=water&language=af", {"https://news24.example/water-af"}),
        ("q=land&label=duplicate", {"https://iol.example/land-reform-2"}),
        ("q=reform&since=2024-01-16&until=2024-01", {"https://iol.example/land-reform-2"}),
    ],
)
def test_search_modes_and_filters(served: Served, query: str, expected: set[str]) -> None:
    assert set(all_hits(served, query)) == expected


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("q=x&publication=nope", "unknown publication nope; known: "),
        ("q=x&language=xx", "unknown language xx; known: "),
        ("q=x&label=dupe", "unknown dedup label dupe"),
        ("q=x&since=last+week", "is not YYYY"),
        ("q=%28&mode=regex", "bad regular expression"),
        ("q=x&page=two", "page must be a whole number"),
        ("q=x&mode=fuzzy", "mode must be one of phrase, words, regex"),
    ],
)
def test_bad_input_is_a_clear_400(served: Served, query: str, message: str) -> None:
    answer = served.get(f"/search?{query}")
    assert answer.status == 400
    alert = lxml.html.fromstring(answer.body).cssselect("p.error")[0].text_content()
    assert message in alert
    if "publication" in message:
        assert "iol" in alert and "news24" in alert  # the known values are listed


def test_kwic_sorts_pages_and_downloads(served: Served) -> None:
    answer = served.get("/kwic?q=land+reform&sort=right&width=30")
    assert answer.status == 200 and "4 concordance lines" in answer.body
    rows = lxml.html.fromstring(answer.body).cssselect("table.kwic tbody tr")
    assert len(rows) == PAGE_SIZE
    download = served.get("/kwic?q=land+reform&sort=right&width=30&format=csv")
    assert download.headers["Content-Type"].startswith("text/csv")
    assert 'filename="kwic.csv"' in download.headers["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(download.body)))
    assert lines[0] == ["left", "keyword", "right", "url"] and len(lines) == 5
    rights = [line[2] for line in lines[1:]]
    assert rights == sorted(rights, key=str.casefold) and all(
        k.lower() == "land reform" for _, k, _, _ in lines[1:]
    )
    shown = [r.cssselect("td.right")[0].text_content() for r in rows]
    assert shown == rights[:PAGE_SIZE]  # the page shows what the download holds, in the same order
    tsv = served.get("/kwic?q=land+reform&sort=left&format=tsv&publication=iol")
    assert tsv.headers["Content-Type"].startswith("text/tab-separated-values")
    assert tsv.body.splitlines()[0] == "left\tkeyword\tright\turl" and len(tsv.body.splitlines()) == 5


def test_kwic_in_corpus_order_pages_through_every_line(served: Served) -> None:
    download = served.get("/kwic?q=land+reform&format=tsv").body.splitlines()[1:]
    shown, path = [], "/kwic?q=land+reform"
    while path:
        doc = lxml.html.fromstring(served.get(path).body)
        for row in doc.cssselect("table.kwic tbody tr"):
            shown.append("\t".join(td.text_content() for td in row.cssselect("td")))
        nxt = doc.cssselect("a[rel=next]")
        path = "/kwic" + nxt[0].get("href") if nxt else ""
    assert shown == download and len(shown) == 4


def test_article_view_marks_links_quotes_languages_and_duplicates(served: Served) -> None:
    answer = served.get("/article?url=" + quote("https://iol.example/land-reform-2", safe=""))
    assert answer.status == 200
    doc = lxml.html.fromstring(answer.body)
    assert doc.cssselect("td.label-duplicate")[0].text_content() == "duplicate"
    match = doc.cssselect("ul.matches a")[0]
    assert match.get("href") == "/article?url=" + quote("https://iol.example/land-reform-1")
    link = doc.cssselect("a.link")[0]
    assert link.get("href") == "https://parliament.example/debate" and link.text_content() == "Parliament"
    assert doc.cssselect("q.quote")[0].text_content() == "“Land reform is urgent,”"
    assert len(doc.cssselect("section.sentence")) == 3
    tokens = [t.text_content() for t in doc.cssselect("section.sentence")[0].cssselect("span.tok")]
    assert tokens == RECORDS["https://iol.example/land-reform-2"]["tokens"][: len(tokens)] and tokens
    mixed = lxml.html.fromstring(served.get("/article?url=" + quote("https://iol.example/choir")).body)
    assert [s.text_content() for s in mixed.cssselect("p.para span.lang")] == ["en", "zu"]


def test_article_text_and_title_are_escaped(served: Served) -> None:
    answer = served.get("/article?url=" + quote("https://mg.example/escape"))
    assert answer.status == 200
    assert "<script>" not in answer.body and "<img src=x" not in answer.body
    doc = lxml.html.fromstring(answer.body)
    assert doc.cssselect("h1")[0].text_content() == "<script>document.title='pwned'</script>Budget vote"
    assert "javascript:" not in answer.body  # a stored javascript: link is never an href
    assert "script-src" not in answer.headers["Content-Security-Policy"]  # default-src 'none': no script


def test_raw_html_is_sandboxed_plain_text(served: Served) -> None:
    url = "https://mg.example/escape"
    answer = served.get("/article/raw?url=" + quote(url))
    assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/plain")
    assert answer.headers["Content-Security-Policy"].startswith("sandbox")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.body == RECORDS[url]["html"]


def test_unknown_article_is_404(served: Served) -> None:
    answer = served.get("/article?url=" + quote("https://nowhere.example/x"))
    assert answer.status == 404 and "no article with the URL https://nowhere.example/x" in answer.body
    assert served.get("/article").status == 400


def test_wordlist_pages_and_downloads(served: Served) -> None:
    tsv = served.get("/wordlist?lower=1&format=tsv&publication=news24").body.splitlines()
    assert tsv[0] == "rank\tword\tcount\tper_million"
    words = {line.split("\t")[1]: int(line.split("\t")[2]) for line in tsv[1:]}
    expected = [t.casefold() for t in RECORDS["https://news24.example/water-af"]["tokens"] if t.isalpha()]
    assert words == {w: expected.count(w) for w in expected} and words["die"] == 4
    page = served.get("/wordlist?lower=1&publication=news24&page=2")
    rows = lxml.html.fromstring(page.body).cssselect("table.numbers tbody tr")
    assert [r.cssselect("td")[0].text_content() for r in rows] == ["3", "4"]


def test_collocations_rank_and_download(served: Served) -> None:
    answer = served.get("/collocations?node=land&min=1&window=2")
    assert answer.status == 200
    download = served.get("/collocations?node=land&min=1&window=2&format=csv")
    lines = list(csv.reader(io.StringIO(download.body)))
    assert lines[0][:2] == ["rank", "collocate"] and "reform" in [line[1] for line in lines[1:]]
    assert served.get("/collocations?node=land&measure=zz").status == 400


def test_stats_draw_days_languages_and_labels(served: Served) -> None:
    answer = served.get("/stats")
    assert answer.status == 200
    doc = lxml.html.fromstring(answer.body)
    series = {p.cssselect("title")[0].text_content() for p in doc.cssselect("svg.chart polyline")}
    assert series == {"iol: 3 articles", "mg: 2 articles", "news24: 1 articles"}
    labels = [t.text_content() for t in doc.cssselect("svg.bars text")]
    assert "duplicate" in labels and "af" in labels and "zu" in labels
    assert "1 articles have no published date" in answer.body
    only_mg = lxml.html.fromstring(served.get("/stats?publication=mg").body)
    assert len(only_mg.cssselect("svg.chart polyline")) == 1


def test_read_only_and_headers(served: Served) -> None:
    assert served.get("/search", method="POST").status == 405
    page = served.get("/search")
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert served.get("/static/style.css").headers["Content-Type"].startswith("text/css")
    assert served.get("/static/..%2Fapp.py").status == 404


def test_the_pages_wrote_nothing(served: Served) -> None:
    """Run last in the module: after every page above, the store holds what it held before."""
    settings = Settings()
    settings.setmodule("sacorpus.settings")
    for pair in served.store_args[1::2]:
        name, value = pair.split("=", 1)
        settings.set(name, value)
    fields = ("title", "text", "tokens", "links", "quotes", "dedup_label", "dedup_evidence", "fetched_at")
    with store_from_settings(settings) as store:
        assert store.count() == len(RECORDS)
        for url, original in RECORDS.items():
            stored = store.get(url)
            assert stored is not None and {f: stored[f] for f in fields} == {f: original[f] for f in fields}


def test_a_sparse_record_of_an_older_version_still_shows(tmp_path: Path) -> None:
    """A row with only url, publication, fetch time and text renders with the Article defaults."""
    path = tmp_path / "old.sqlite"
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles(
            [
                {
                    "url": "https://old.example/a",
                    "publication": "iol",
                    "fetched_at": "2020-01-01T00:00:00Z",
                    "text": "Hello there.",
                }
            ]
        )
    proc, url = start_server(sqlite_args(path), tmp_path / "serve.log")
    try:
        served = Served(url, [])
        for page in (
            "/article?url=" + quote("https://old.example/a"),
            "/stats",
            "/search?q=hello",
            "/kwic?q=hello",
            "/wordlist",
        ):
            answer = served.get(page)
            assert answer.status == 200, (page, answer.body[-500:])
        assert "Hello there." in served.get("/article?url=" + quote("https://old.example/a")).body
    finally:
        stop_process(proc)
