"""The MongoDB store's read paths: pages of known keys, stores of the older layouts converted.

Why: SecantusDB decodes every document after a page's first key before it applies the limit, so the
reads ask for known keys (each page its own); stores written with a document per kept word count, or
with search terms of tokens only, must still answer exactly after the change of layout.
"""

from __future__ import annotations

from typing import Any

import pytest
from pymongo import monitoring
from test_corpus_index_contract import SPLIT, article, recount, urls

from sacorpus.storage.counts import ALL, StoreFilter
from sacorpus.storage.maintenance import FTS, check_counts, compact
from sacorpus.storage.mongo_counts import LEGACY, WORDS, escape, insert_word_counts, unescape
from sacorpus.storage.mongo_groups import GROUPS_READY
from sacorpus.storage.mongo_terms import RUNS_READY, search_terms


class ArticleFinds(monitoring.CommandListener):
    """The filter of every find on the articles, while recording."""

    def __init__(self) -> None:
        self.recording = False
        self.filters: list[dict[str, Any]] = []
        self.commands: list[tuple[str, Any]] = []  # (command, collection) of every command

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if self.recording:
            self.commands.append((event.command_name, event.command.get(event.command_name)))
        if self.recording and event.command_name == "find" and event.command.get("find") == "articles":
            self.filters.append(dict(event.command.get("filter") or {}))

    def succeeded(self, event: Any) -> None:
        pass

    def failed(self, event: Any) -> None:
        pass


LISTENER = ArticleFinds()
monitoring.register(LISTENER)  # global: only clients made after this see it; it records only when asked


def reopened(store: Any) -> Any:
    store.close()
    store.open()
    return store


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_read_asks_for_the_keys_once_then_each_page_for_its_own(store) -> None:
    store.upsert_articles([article(f"https://p/{i:02d}", f"Story {i} about water.") for i in range(23)])
    LISTENER.filters.clear()
    LISTENER.recording = True
    try:
        read = [r["url"] for r in store.query_articles(StoreFilter(), ["url"], batch_size=5)]
        narrowed = list(store.query_articles(StoreFilter(), ["url"], tokens=["water"], batch_size=5))
    finally:
        LISTENER.recording = False
    assert read == [f"https://p/{i:02d}" for i in range(23)] and len(narrowed) == 23
    keys, *pages = LISTENER.filters[:6]
    assert "_order" not in keys and len(pages) == 5  # 23 articles: the keys, then 5 pages of 5
    assert all(set(page["_order"]) == {"$gte", "$lte"} for page in pages)  # unfiltered: key ranges
    # narrowed: the postings name the keys, so no read of the keys; pages of up to 100 known keys
    (narrowed_page,) = LISTENER.filters[6:]
    assert len(narrowed_page["_order"]["$in"]) == 23


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_counts_of_the_older_layout_are_converted_when_the_store_opens(store) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    kept = store.kept_counts()
    store.db[WORDS].drop()
    legacy = [
        {"_id": "\x1f".join(map(str, (*key, word))), **dict(zip("pmld", key, strict=True)), "w": word, "n": n}
        for (key, word), n in kept.words.items()
    ]
    store.db[LEGACY].insert_many(legacy)
    store.db.state.delete_one({"_id": "schema:indexes"})  # a store of that version had no such state
    reopened(store)
    assert LEGACY not in store.db.list_collection_names()
    assert check_counts(store) == []
    counts = store.word_counts(StoreFilter())
    assert counts is not None and counts.counts == recount(SPLIT) and any("." in w for w in counts.counts)


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_terms_without_the_runs_are_not_trusted_until_compact_rebuilds_them(store) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    store.db.state.delete_one({"_id": RUNS_READY})  # a store written before the runs
    store.db.postings.delete_many({})
    reopened(store)
    assert not store.index_ready(FTS)
    assert len(urls(store.query_articles(StoreFilter(), ["url"], substrings=["cannot"]))) == 3  # read whole
    compact(store)
    assert store.index_ready(FTS) and store.index_ready(RUNS_READY)
    assert urls(store.query_articles(StoreFilter(), ["url"], substrings=["cannot"])) == ["https://s/1"]


def test_a_word_as_a_field_name_reads_back_as_itself() -> None:
    for word in ("U.S.", "$40", "%2E", "%252E", "a%b.c$d", "plain", ALL):
        name = escape(word)
        assert "." not in name and not name.startswith("$") and unescape(name) == word


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_bulk_load_of_the_counts_reads_back_as_the_counts_written_by_increments(store) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    kept = store.kept_counts()
    store.db[WORDS].drop()
    insert_word_counts(store.db, kept.changes())
    assert store.kept_counts().words == kept.words and check_counts(store) == []


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_store_that_has_its_indexes_opens_without_creating_them(store) -> None:
    LISTENER.filters.clear()
    created: list[str] = []

    class Creations(monitoring.CommandListener):
        def started(self, event: monitoring.CommandStartedEvent) -> None:
            if event.command_name == "createIndexes":
                created.append(event.command["createIndexes"])

        def succeeded(self, event: Any) -> None:
            pass

        def failed(self, event: Any) -> None:
            pass

    monitoring.register(Creations())
    reopened(store)  # a new client: it sees the listener
    assert created == []
    store.db.state.delete_one({"_id": "schema:indexes"})
    reopened(store)
    assert "articles" in created and "key_words" in created and "group_totals" in created


def _search_urls(store: Any) -> tuple[list[str], list[str], list[str]]:
    return (
        urls(store.query_articles(StoreFilter(), ["url"], tokens=["waters"])),
        urls(store.query_articles(StoreFilter(), ["url"], substrings=["cannot"])),
        urls(store.query_articles(StoreFilter(), ["url"], tokens=["zzz"])),
    )


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_word_query_reads_only_the_articles_posted_under_it(store) -> None:
    store.upsert_articles(
        [
            article(f"https://p/{i:02d}", f"Story {i} about {'water' if i % 8 == 0 else 'land'}.")
            for i in range(23)
        ]
    )
    assert store.db.articles.find_one({"terms": {"$exists": True}}) is None  # no terms in the articles
    LISTENER.filters.clear()
    LISTENER.recording = True
    try:
        found = urls(store.query_articles(StoreFilter(), ["url"], tokens=["water"]))
    finally:
        LISTENER.recording = False
    assert found == ["https://p/00", "https://p/08", "https://p/16"]
    (page,) = LISTENER.filters  # no read of the keys: one page of the three posted articles
    assert len(page["_order"]["$in"]) == 3


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_rewrite_with_the_same_terms_writes_no_postings_and_one_without_a_word_pulls_it(store) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    before = list(store.db.postings.find({}, {"_id": 1, "k": 1}).sort("_id"))
    compact(store)  # every article written again, the same
    assert list(store.db.postings.find({}, {"_id": 1, "k": 1}).sort("_id")) == before
    assert _search_urls(store)[0] == ["https://s/2"]
    store.upsert_articles([article("https://s/2", "Nothing about the sea.")])  # re-extracted
    assert _search_urls(store)[0] == [] and [d["k"] for d in store.db.postings.find({"t": "waters"})] == [[]]
    assert urls(store.query_articles(StoreFilter(), ["url"], tokens=["sea"])) == ["https://s/2"]


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_terms_in_the_articles_of_the_older_layout_are_moved_to_postings_when_the_store_opens(store) -> None:
    store.upsert_articles([dict(r) for r in SPLIT])
    expected = _search_urls(store)
    for record in store.iter_articles(fields=["url", "title", "text", "tokens"]):
        store.db.articles.update_one({"url": record["url"]}, {"$set": {"terms": search_terms(record)}})
    store.db.articles.create_index("terms")
    store.db.postings.delete_many({})
    store.db.state.delete_one({"_id": "schema:indexes"})  # a store of that version
    reopened(store)
    assert store.db.articles.find_one({"terms": {"$exists": True}}) is None
    assert "terms_1" not in store.db.articles.index_information()
    assert store.index_ready(FTS) and _search_urls(store) == expected and expected[0] and expected[1]


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_publications_and_languages_are_read_from_the_kept_totals_not_the_articles(store) -> None:
    store.upsert_articles(
        [article(f"https://p/{i}", "Water.", publication=f"pub{i % 3}", language="en") for i in range(9)]
    )
    store.upsert_articles([article("https://p/x", "Water.", publication="other", language="")])
    LISTENER.commands.clear()
    LISTENER.recording = True
    try:
        values = store.distinct_values("publication"), store.distinct_values("language")
    finally:
        LISTENER.recording = False
    assert values == ({"pub0", "pub1", "pub2", "other"}, {"en"})
    assert LISTENER.commands and all(collection != "articles" for _, collection in LISTENER.commands)


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_group_counts_by_month_read_the_month_totals_and_equal_the_articles(store) -> None:
    days = ("2023-01-05", "2023-01-31", "2023-05-10", "2023-05-11", "2024-02-29", None)
    store.upsert_articles(
        [
            article(f"https://g/{i}", "Water here.", published_at=day, publication=f"p{i % 2}")
            for i, day in enumerate(days * 3)
        ]
    )
    store.update_fields("https://g/0", {"dedup_label": "duplicate"})
    filters = [
        StoreFilter(),
        StoreFilter(since="2023-05", until="2024"),
        StoreFilter(publications=("p1",), until="2023-05", exclude_duplicates=True),
        StoreFilter(since="2023-05-11"),  # a day: the day totals
    ]
    LISTENER.commands.clear()
    LISTENER.recording = True
    try:
        kept = [sorted(store.group_counts(f), key=repr) for f in filters]
    finally:
        LISTENER.recording = False
    read = [collection for name, collection in LISTENER.commands if name == "find"]
    assert read == ["group_months", "group_months", "group_months", "group_totals"]
    store.db.group_months.drop()
    store.db.state.delete_one({"_id": "schema:indexes"})  # a store that kept only the days
    reopened(store)
    assert [sorted(store.group_counts(f), key=repr) for f in filters] == kept
    store._ready[GROUPS_READY] = False  # the aggregation over the articles
    assert [sorted(store.group_counts(f), key=repr) for f in filters] == kept and kept[1]
