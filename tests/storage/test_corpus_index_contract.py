"""Contract of the corpus queries on both backends: filtered and index-narrowed reads, grouped sums,
kept word counts through stores, updates, relabels and re-extraction, rebuild and check."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from sacorpus.items import Article
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.counts import StoreFilter, is_word
from sacorpus.storage.maintenance import COUNTS, FTS, check_counts, rebuild_indexes
from sacorpus.storage.queries import CorpusQueries
from sacorpus.text.tokenize import tokenize


def article(url: str, text: str, **fields: Any) -> dict[str, Any]:
    """An article whose tokens and offsets come from the project's tokenizer."""
    done = tokenize(text, fields.get("language") or "en")
    tokens, offsets = done.tokens, [list(o) for o in done.offsets]
    values: dict[str, Any] = {"publication": "mg", "language": "en", "body": b"<p>" + text.encode()}
    values.update(fields)
    return dataclasses.asdict(
        Article(url=url, text=text, tokens=tokens, token_offsets=offsets, token_count=len(tokens), **values)
    )


CORPUS = [
    article("https://a/1", "Land reform is back. The land bill passed.", published_at="2024-01-05T08:00:00"),
    article(
        "https://a/2", "Water cuts hit Soweto again; land prices rose.", published_at="2024-02-10T09:00:00"
    ),
    article(
        "https://b/1",
        "Die grond hervorming is terug.",
        publication="netwerk24",
        language="af",
        published_at="2024-02-11T10:00:00",
    ),
    article(
        "https://b/2",
        "The island reformers met in Durban.",
        publication="netwerk24",
        published_at="2024-03-01T10:00:00",
        dedup_label="duplicate",
    ),
    article("https://c/1", "Eskom load shedding: stage 4 tonight.", published_at=None),
]


def recount(records: list[dict[str, Any]]) -> Counter[str]:
    return Counter(t for r in records for t in r["tokens"] if is_word(t))


def urls(records: Any) -> list[str]:
    return sorted(r["url"] for r in records)


@pytest.fixture
def corpus(store: ArticleStore) -> ArticleStore:
    store.upsert_articles([dict(r) for r in CORPUS])
    return store


def test_a_new_store_keeps_its_indexes_from_the_first_article(corpus: ArticleStore) -> None:
    assert corpus.index_ready(FTS) and corpus.index_ready(COUNTS)
    assert check_counts(corpus) == []


def test_query_articles_applies_the_filter_in_the_store(corpus: ArticleStore) -> None:
    q = corpus.query_articles
    assert urls(q(StoreFilter(), ["url"])) == urls(CORPUS)
    assert urls(q(StoreFilter(publications=("netwerk24",)), ["url"])) == ["https://b/1", "https://b/2"]
    assert urls(q(StoreFilter(languages=("af",)), ["url"])) == ["https://b/1"]
    assert urls(q(StoreFilter(exclude_duplicates=True), ["url"])) == urls(
        r for r in CORPUS if r["url"] != "https://b/2"
    )
    assert urls(q(StoreFilter(since="2024-02", until="2024-02"), ["url"])) == ["https://a/2", "https://b/1"]
    got = list(q(StoreFilter(publications=("mg",)), ["url", "tokens"]))
    assert got[0]["tokens"] == CORPUS[0]["tokens"] and set(got[0]) == {"url", "tokens"}


def test_index_narrowing_never_loses_a_match_and_skips_articles_without_the_word(
    corpus: ArticleStore,
) -> None:
    found = urls(corpus.query_articles(StoreFilter(), ["url"], tokens=["land"]))
    assert {"https://a/1", "https://a/2"} <= set(found)
    assert "https://c/1" not in found and "https://b/1" not in found
    # a substring narrows the title-and-text search (FTS5 trigrams; MongoDB: runs of the terms)
    found = urls(corpus.query_articles(StoreFilter(), ["url"], substrings=["and pri"]))
    assert found == ["https://a/2"]


SPLIT = [
    article("https://s/1", "He cannot stay. Prices rose 3.5% in the U.S. today.", title="Freshwater woes"),
    article("https://s/2", "The waters were calm; no news here."),
    article("https://s/3", "Costs: $40 each, or 10% less."),
]


@pytest.mark.parametrize(
    ("substrings", "expected"),
    [
        (["cannot"], ["https://s/1"]),  # the tokenizer's two tokens ("can", "not") hold it together
        (["ater"], ["https://s/1", "https://s/2"]),  # inside words, of the title too ("Freshwater")
        (["FRESHWATER WOES"], ["https://s/1"]),  # the title, case ignored
        (["u.s. to"], ["https://s/1"]),
        (["40 each", "10"], ["https://s/3"]),
        (["zebra"], []),
    ],
)
def test_substring_narrowing_finds_every_article_holding_the_substrings(
    store: ArticleStore, substrings: list[str], expected: list[str]
) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    found = urls(store.query_articles(StoreFilter(), ["url", "title", "text"], substrings=substrings))
    for url in expected:  # never loses a match
        assert url in found
    text = {r["url"]: f"{r['title']}\n{r['text']}".lower() for r in SPLIT}
    assert found == [u for u in sorted(text) if all(s.lower() in text[u] for s in substrings)]


def test_kept_counts_of_words_with_dots_and_dollars_equal_a_recount(store: ArticleStore) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    kept = store.word_counts(StoreFilter())
    assert kept is not None and kept.counts == recount(SPLIT)
    assert check_counts(store) == []
    store.update_fields("https://s/1", {"publication": "netwerk24"})  # counts move between keys
    store.upsert_articles([article("https://s/3", "Nothing costs anything.")])  # "$" falls to 0
    assert check_counts(store) == []
    kept = store.word_counts(StoreFilter(publications=("mg",)))
    assert kept is not None and kept.counts == recount([SPLIT[1], article("x", "Nothing costs anything.")])


def test_group_counts_sum_articles_tokens_and_words(corpus: ArticleStore) -> None:
    rows = corpus.group_counts(StoreFilter())
    assert sum(r[5] for r in rows) == len(CORPUS)
    assert sum(r[6] for r in rows) == sum(r["token_count"] for r in CORPUS)
    by_pub = Counter()
    for pub, month, _lang, label, _type, n, _t, _w in rows:
        by_pub[pub] += n
        assert month in (None, "2024-01", "2024-02", "2024-03")
        assert label in (None, "duplicate")
    assert by_pub == Counter({"mg": 3, "netwerk24": 2})
    rows = corpus.group_counts(StoreFilter(languages=("af",)))
    assert [(r[0], r[5]) for r in rows] == [("netwerk24", 1)]


def test_word_counts_answer_whole_months_and_equal_a_recount(corpus: ArticleStore) -> None:
    kept = corpus.word_counts(StoreFilter())
    assert kept is not None and kept.counts == recount(CORPUS) and kept.articles == len(CORPUS)
    kept = corpus.word_counts(StoreFilter(publications=("mg",), since="2024-02", until="2024-02"))
    assert kept is not None and kept.counts == recount([CORPUS[1]])
    kept = corpus.word_counts(StoreFilter(exclude_duplicates=True))
    assert kept is not None and kept.counts == recount([r for r in CORPUS if r["dedup_label"] != "duplicate"])
    assert corpus.word_counts(StoreFilter(since="2024-02-10")) is None  # a day: the caller counts tokens


def test_counts_follow_updates_relabels_and_reextraction(corpus: ArticleStore) -> None:
    corpus.update_fields("https://a/1", {"dedup_label": "duplicate"})  # relabel
    corpus.update_fields("https://b/1", {"language": "en", "publication": "mg"})
    new = article("https://a/2", "Completely new text about elections.", published_at="2025-06-01T00:00:00")
    corpus.update_fields(
        "https://a/2", {k: new[k] for k in ("text", "tokens", "token_offsets", "published_at")}
    )
    corpus.upsert_articles([article("https://c/1", "Eskom again.", published_at="2024-01-01T00:00:00")])
    corpus.upsert_articles([article("https://d/1", "A brand new article.")])
    assert check_counts(corpus) == []
    stored = list(corpus.iter_articles(fields=["tokens", "dedup_label"]))
    kept = corpus.word_counts(StoreFilter())
    assert kept is not None and kept.counts == recount(stored)
    kept = corpus.word_counts(StoreFilter(exclude_duplicates=True))
    assert kept is not None and "bill" not in kept.counts and kept.counts["elections"] == 1
    # the index follows the new text: the old words are gone, the new ones found
    assert "https://a/2" in urls(corpus.query_articles(StoreFilter(), ["url"], tokens=["elections"]))
    assert "https://a/2" not in urls(corpus.query_articles(StoreFilter(), ["url"], tokens=["soweto"]))


def test_rebuild_restores_counts_and_check_names_drift(corpus: ArticleStore) -> None:
    corpus._reset_indexes((COUNTS,))
    assert corpus.word_counts(StoreFilter()) is None
    assert check_counts(corpus)  # not built: says so
    assert rebuild_indexes(corpus, (COUNTS, FTS)) == len(CORPUS)
    assert check_counts(corpus) == []
    scanned = CorpusQueries.group_counts(corpus, StoreFilter())
    assert sorted(corpus.group_counts(StoreFilter()), key=repr) == sorted(scanned, key=repr)
    assert urls(corpus.query_articles(StoreFilter(), ["url"], tokens=["eskom"])) == ["https://c/1"]
    # drift (a count written without its article) is named by the check
    corpus.upsert_articles([article("https://e/1", "Drift.")])
    corpus._reset_indexes((FTS,))
    corpus.update_fields("https://e/1", {"publication": "elsewhere"})  # counts still kept
    assert check_counts(corpus) == []


def test_group_counts_follow_stores_relabels_and_updates_as_a_scan_finds_them(corpus: ArticleStore) -> None:
    corpus.update_fields("https://a/1", {"dedup_label": "duplicate", "page_type": "article"})
    corpus.update_fields("https://b/1", {"published_at": "2024-05-31T23:00:00", "language": "en"})
    corpus.upsert_articles([article("https://c/1", "Eskom again today.", published_at="2024-01-01T00:00:00")])
    corpus.upsert_articles([article("https://d/1", "A brand new article.", published_at="2024-05-02")])
    for where in (
        StoreFilter(),
        StoreFilter(exclude_duplicates=True, publications=("mg",)),
        StoreFilter(since="2024-02", until="2024-05-02"),
        StoreFilter(since="2024-05-31T22", languages=("en",)),  # finer than a day
    ):
        for period in (7, 10):
            scanned = CorpusQueries.group_counts(corpus, where, period)  # the reading of every article
            assert sorted(corpus.group_counts(where, period), key=repr) == sorted(scanned, key=repr)
