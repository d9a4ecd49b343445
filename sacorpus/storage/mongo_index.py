"""The MongoDB store's corpus indexes: an inverted token index, kept word counts, grouped stats.

Why postings: SecantusDB has no text index; the articles holding a term are listed in a few small
documents of their own (``mongo_postings``), which narrow KWIC and collocations (whole tokens) and
searches (runs of the text) to the articles they name; each record is verified by the caller. The kept counts are documents updated with ``$inc`` in bulk after the article
write (SecantusDB has no multi-document transactions: ``scrapy wordlist --check`` finds drift after a
crash between the two writes and ``--rebuild-counts`` repairs it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from pymongo import ASCENDING, DeleteOne, UpdateOne
from pymongo.errors import PyMongoError

from sacorpus.storage.base import StorageError
from sacorpus.storage.counts import ALL, CountDelta, KeptCount, StoreFilter, WordCounts
from sacorpus.storage.mongo_comments import create_comment_indexes
from sacorpus.storage.mongo_counts import (
    KEY_FIELDS,
    WORDS,
    convert_legacy,
    create_word_indexes,
    in_requests,
    key_id,
    read_words,
    read_words_of_keys,
    write_word_changes,
)
from sacorpus.storage.mongo_filter import mongo_where
from sacorpus.storage.mongo_groups import (
    GROUPS,
    GROUPS_READY,
    MONTHS,
    convert_to_months,
    create_group_indexes,
    group_changes,
    group_rows,
    write_group_changes,
)
from sacorpus.storage.mongo_postings import (
    clear_postings,
    convert_terms,
    create_posting_indexes,
    order_key,
    post,
)
from sacorpus.storage.mongo_terms import RUNS_READY, TermVocabulary, search_terms

TERMS_READY = "index:fts"
COUNTS_READY = "index:word_counts"
_KEY = KEY_FIELDS
logger = logging.getLogger(__name__)


def _count_query(where: StoreFilter) -> dict[str, Any] | None:
    months = where.month_range()
    if months is None:
        return None
    query: dict[str, Any]
    if not (where.publications or where.languages or months != ("", "")):
        query = {"p": ALL, "m": ALL, "l": ALL}
    else:
        query = {"p": {"$in": list(where.publications)} if where.publications else {"$ne": ALL}}
        if where.languages:
            query["l"] = {"$in": list(where.languages)}
        if months != ("", ""):
            query["m"] = {"$gte": months[0], "$lte": months[1]}
    if where.exclude_duplicates:
        query["d"] = 0
    return query


def kept_values(db: Any, name: str) -> set[str]:
    """The publications (``p``) or languages (``l``) of the stored articles, from the kept count
    totals (a few hundred small documents; ``distinct`` over the articles read every one whole on
    SecantusDB). A totals row with articles is kept per (publication, month, language, label); the
    corpus-wide rows have the month ``ALL``, which no article's month is."""
    values = {doc.get(name) for doc in db.count_totals.find({"m": {"$ne": ALL}}, {name: 1, "_id": 0})}
    return {str(v) for v in values if v not in (None, "")}


#: raised whenever the store's indexes or collections change: a database whose state names another
#: version has them created (and older layouts converted) when it opens
INDEX_VERSION = 2  # 2: the search terms in postings, not in the articles; group totals by month
_INDEXES_STATE = "schema:indexes"


def ensure_indexes(db: Any, article_fields: Iterable[str]) -> None:
    """Create the store's indexes unless the database says they are there. Why not at every open:
    each is a round trip, and a corpus command opens the store once (twenty requests to a busy
    server were most of a short command's wall time)."""
    state = db.state.find_one({"_id": _INDEXES_STATE})
    if state is not None and state.get("value") == INDEX_VERSION:
        return
    db.articles.create_index([("url", ASCENDING)], unique=True)
    for name in article_fields:
        db.articles.create_index([(name, ASCENDING)])
    db.articles.create_index([("_order", ASCENDING)])
    db.articles.create_index([("publication", ASCENDING), ("_order", ASCENDING)])
    for name in ("text_hash", "canonical_key", "slug_key"):
        db.dedup_docs.create_index([(name, ASCENDING)])
    db.run_health.create_index([("publication", ASCENDING), ("finished_at", ASCENDING)])
    create_posting_indexes(db)
    create_word_indexes(db)
    create_group_indexes(db)
    db.count_totals.create_index([(k, ASCENDING) for k in _KEY])
    create_comment_indexes(db)
    convert_legacy(db, COUNTS_READY)
    convert_terms(db, TERMS_READY)
    convert_to_months(db)
    db.state.update_one({"_id": _INDEXES_STATE}, {"$set": {"value": INDEX_VERSION}}, upsert=True)


class MongoCorpusIndex:
    """Mixin of MongoStore (needs ``db`` and ``_failure``)."""

    _ready: dict[str, bool]
    db: Any
    vocabulary: TermVocabulary
    _deferred: CountDelta | None = None  # the count changes of the open batch
    _failure: Callable[..., StorageError]  # provided by the store (an annotation: no shadowing)

    def _init_ready(self, db: Any) -> None:
        names = (TERMS_READY, COUNTS_READY, RUNS_READY, GROUPS_READY)
        found = {d["_id"] for d in db.state.find({"_id": {"$in": list(names)}})}
        if not found and db.articles.find_one({}, {"_id": 1}) is None:
            for key in names:
                db.state.update_one({"_id": key}, {"$set": {"value": True}}, upsert=True)
            found = set(names)
        if TERMS_READY in found and RUNS_READY not in found:  # terms of tokens only (mongo_terms)
            logger.warning("the search terms predate substring search: run scrapy compact to rebuild them")
            found.discard(TERMS_READY)
        self._ready = {key: key in found for key in names}

    def index_ready(self, name: str) -> bool:
        return bool(self._ready.get(name))

    def _apply_delta(self, delta: CountDelta) -> None:
        write_word_changes(self.db, delta.changes())
        ops: list[UpdateOne] = []
        lowered: list[DeleteOne] = []  # only rows this delta lowered can fall to 0: no collection scan
        for *key, articles, tokens, words in delta.total_rows():
            doc_id = key_id(key)
            inc = {"articles": articles, "tokens": tokens, "words": words}
            ops.append(
                UpdateOne(
                    {"_id": doc_id}, {"$inc": inc, "$set": dict(zip(_KEY, key, strict=True))}, upsert=True
                )
            )
            if articles < 0:
                lowered.append(DeleteOne({"_id": doc_id, "articles": {"$lte": 0}}))
        in_requests(self.db.count_totals, ops, [1] * len(ops))
        in_requests(self.db.count_totals, lowered, [1] * len(lowered))

    def _index_write(self, old: Mapping[str, Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> None:
        if not self._ready.get(COUNTS_READY):
            return
        self._move_groups([old.get(str(r["url"])) for r in new], new)
        delta = self._counts_delta()
        for record in new:
            delta.add(old.get(str(record["url"])), -1)
            delta.add(record)
        if delta is not self._deferred:
            self._apply_delta(delta)

    def _move_groups(
        self, old: Iterable[Mapping[str, Any] | None], new: Iterable[Mapping[str, Any] | None]
    ) -> None:
        """Articles out of their old groups' totals and into their new ones (when the totals are kept)."""
        if self._ready.get(GROUPS_READY):
            write_group_changes(self.db, group_changes(old, new))

    def _counts_delta(self) -> CountDelta:
        """Where a write adds its count changes: the open batch's sum, or a delta of its own."""
        return self._deferred if self._deferred is not None else CountDelta()

    @contextmanager
    def batched(self) -> Iterator[None]:
        """The count changes of the writes inside are summed and written once at the end.

        MongoDB has no transaction here: the counts of every write that was made are written even
        when a later one fails, so they keep matching the documents.
        """
        if self._deferred is not None:
            yield
            return
        self._deferred = CountDelta()
        try:
            yield
        finally:
            delta, self._deferred = self._deferred, None
            try:
                self._apply_delta(delta)
            except PyMongoError as exc:
                raise self._failure(exc) from exc

    def group_counts(self, where: StoreFilter, period: int = 7) -> list[tuple[Any, ...]]:
        """Articles, tokens and words per (publication, month, language, label, page type): from the
        kept group totals, else one ``$group`` aggregation (the server reads the documents)."""
        if self._ready.get(GROUPS_READY):
            rows = group_rows(self.db, where, period)
            if rows is not None:
                return rows
        group_id = {
            "p": "$publication",
            "m": {"$substrCP": [{"$ifNull": ["$published_at", ""]}, 0, int(period)]},
            "l": "$language",
            "d": "$dedup_label",
            "t": "$page_type",
        }
        pipeline = [
            {"$match": mongo_where(where)},
            {
                "$group": {
                    "_id": group_id,
                    "a": {"$sum": 1},
                    "k": {"$sum": "$token_count"},
                    "w": {"$sum": "$word_count"},
                }
            },
        ]
        rows = []
        for doc in self.db.articles.aggregate(pipeline):
            key = doc["_id"]
            values = [key.get(name) for name in ("p", "m", "l", "d", "t")]
            values[1] = values[1] or None
            rows.append((*values, int(doc["a"]), int(doc.get("k") or 0), int(doc.get("w") or 0)))
        return rows

    def word_counts(self, where: StoreFilter) -> WordCounts | None:
        query = _count_query(where)
        if query is None or not self._ready.get(COUNTS_READY):
            return None
        result = WordCounts()
        keys = []
        for doc in self.db.count_totals.find(query):
            result.articles += int(doc["articles"])
            result.total_tokens += int(doc["tokens"])
            result.total_words += int(doc["words"])
            keys.append(tuple(doc[k] for k in _KEY))
        for words in read_words_of_keys(self.db, keys):  # the keys with articles, by document id
            result.counts.update(words)
        return result

    def iter_kept_counts(self) -> Iterator[KeptCount]:
        for key, words in read_words(self.db, {}):
            for word, n in words.items():
                yield key, word, (n,)
        for doc in self.db.count_totals.find():
            totals = (int(doc["articles"]), int(doc["tokens"]), int(doc["words"]))
            yield tuple(doc[k] for k in _KEY), None, totals

    def _reset_indexes(self, names: Iterable[str]) -> None:
        for name in names:
            if name == TERMS_READY:
                clear_postings(self.db)
                self._reset_indexes([RUNS_READY])
            if name == COUNTS_READY:
                self.db[WORDS].delete_many({})
                self.db.count_totals.delete_many({})
                self.db[GROUPS].delete_many({})
                self.db[MONTHS].delete_many({})
                self._reset_indexes([GROUPS_READY])
            self.db.state.delete_one({"_id": name})
            self._ready[name] = False

    def _index_batch(self, records: Sequence[Mapping[str, Any]], names: Iterable[str]) -> None:
        names = set(names)
        if TERMS_READY in names:
            terms = [search_terms(r) for r in records]
            self.vocabulary.add(self.db, terms)
            post(self.db, [(order_key(r), t) for r, t in zip(records, terms, strict=True)])
        if COUNTS_READY in names:
            delta = CountDelta()
            for record in records:
                delta.add(record)
            self._apply_delta(delta)
            write_group_changes(self.db, group_changes([], records))

    def _mark_ready(self, names: Iterable[str]) -> None:
        names = set(names)
        if TERMS_READY in names:  # the terms now hold the runs of the text (mongo_terms)
            names.add(RUNS_READY)
        if COUNTS_READY in names:  # the group totals are built with the counts (mongo_groups)
            names.add(GROUPS_READY)
        for name in names:
            self.db.state.update_one({"_id": name}, {"$set": {"value": True}}, upsert=True)
            self._ready[name] = True
