"""The browser's pages ask the store's indexes, as the commands do: a search or concordance reads only
the articles that can match, the word list comes from the kept counts; answers equal a full scan."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from sacorpus.corpus.filters import ArticleFilter
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import browser_corpus, generated_records
from sacorpus.web import queries

STATS_READ = ("url", "publication", "published_at", "language", "dedup_label", "token_count")


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


@pytest.mark.parametrize("since", [None, "2024-02-10"])
def test_stats_page_from_grouped_sums_equals_a_scan(store: SQLiteStore, since: str | None) -> None:
    flt = ArticleFilter(since=since) if since else ArticleFilter()
    summary = queries.corpus_stats(store, flt)
    records = [r for r in store.iter_articles(fields=list(STATS_READ)) if flt.matches(r)]
    daily = Counter((r["publication"], r["published_at"][:10]) for r in records if r.get("published_at"))
    assert summary.daily == daily and sum(daily.values()) > 0
    assert summary.languages == Counter(str(r.get("language") or "(none)") for r in records)
    assert summary.labels == Counter(str(r.get("dedup_label") or "(none)") for r in records)
    assert summary.counts.scanned == summary.stats.total.articles == len(records)
    assert summary.stats.total.tokens == sum(int(r.get("token_count") or 0) for r in records)
