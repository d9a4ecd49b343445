"""The browser's pages ask the store's indexes, as the commands do: a search or concordance reads only
the articles that can match, the word list comes from the kept counts; answers equal a full scan."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sacorpus.corpus.filters import ArticleFilter
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import browser_corpus, generated_records
from sacorpus.web import queries


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    folder = tmp_path_factory.mktemp("pages")
    with SQLiteStore(str(folder / "corpus.sqlite"), spill_path=str(folder / "spill.jsonl")) as opened:
        opened.upsert_articles([*browser_corpus(), *generated_records(60)])
        yield opened


def scanned_search(store: SQLiteStore, query: str, mode: str) -> list[str]:
    """The URLs a full scan finds (every record matched by the page's own matcher)."""
    _, required = queries.search_matcher(query, mode, False)
    found = []
    for record in store.iter_articles(fields=["url", "title", "text"]):
        whole = f"{record.get('title') or ''}\n{record.get('text') or ''}"
        if all(p.search(whole) for p in required):
            found.append(record["url"])
    return sorted(found)


@pytest.mark.parametrize(
    ("query", "mode"),
    [("land reform", "phrase"), ("zebra", "phrase"), (r"land\s+\w+", "regex"), ("reform land", "words")],
)
def test_search_page_reads_only_what_can_match(store: SQLiteStore, query: str, mode: str) -> None:
    page = queries.search(store, ArticleFilter(), query, mode=mode, size=1000)
    urls = sorted(hit.url for hit, _record in page.rows)
    assert urls == scanned_search(store, query, mode)
    # the index (which articles hold which words) rules out the rest before a row is read
    assert len(urls) <= page.counts.scanned < store.count()
    if not urls:
        assert page.counts.scanned == 0


def test_concordance_reads_only_articles_with_the_words(store: SQLiteStore) -> None:
    lines, counts, _capped = queries.concordance(store, ArticleFilter(), "land reform")
    assert lines and counts.scanned < store.count()
    assert len({hit.url for hit in lines}) <= counts.scanned
    nothing, counts, _ = queries.concordance(store, ArticleFilter(), "zebra")
    assert nothing == [] and counts.scanned == 0


def test_wordlist_page_answers_from_the_kept_counts(store: SQLiteStore) -> None:
    rows, counter, counts = queries.wordlist(store, ArticleFilter(), lower=True)
    assert counts.scanned == store.count()  # every article counted ...
    scanned = queries.WordCounter(lower=True)
    for record in store.iter_articles(fields=["tokens"]):
        scanned.add(record.get("tokens") or [])
    assert counter.counts == scanned.counts and rows  # ... and equal to a recount
