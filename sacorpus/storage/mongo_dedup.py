"""The MongoDB store's dedup index: ``sentence_hashes`` and ``dedup_docs`` collections.

Why its own module: the index is updated with single-document atomic operators only (an aggregation
pipeline update per hash), so two crawlers adding at once lose no update; that write pattern and the
bulk loader are not the articles part of the store (``mongo.py``). A fingerprint's ``order_key`` says
which copy of a story came first.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bson import Int64
from pymongo import UpdateOne
from pymongo.errors import BulkWriteError, ConnectionFailure, PyMongoError

from sacorpus.storage.base import LABEL_FIELDS, StorageError

#: keys per ``$in`` query: SecantusDB answers ``$in`` in time growing faster than linearly with the
#: list (100 keys: 18 ms, 800 keys: 460 ms, 5,000 keys: 30-50 s on a 50k-document collection)
IN_CHUNK = 100


def _fingerprint_doc(fp: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "text_hash": fp.get("text_hash"),
        "canonical_key": fp.get("canonical_key"),
        "slug_key": fp.get("slug_key"),
        "sentences": [[Int64(int(x)) for x in entry] for entry in fp.get("sentences") or []],
        "order_key": fp.get("order_key"),
    }


class MongoFailFast:
    """After the server could not be reached, every call fails at once for ``fail_fast_seconds``.

    Why: each call to an unreachable server waits for pymongo's server selection timeout (10 s). The
    dedup stage, the store stage and the spider's already-stored check each queue calls during an
    outage; one timeout apiece held the crawl at 0.1 articles/s. Failing fast lets the stages spill and
    defer at once while the crawl goes on; the first call after the window tries the server again.
    """

    fail_fast_seconds: float = 5.0
    _down_until: float = 0.0

    def _check_up(self) -> None:
        if time.monotonic() < self._down_until:
            raise StorageError(f"{self!r} unreachable a moment ago; not retried for a few seconds")

    def _failure(self, exc: PyMongoError, message: str | None = None) -> StorageError:
        """The StorageError for ``exc``; a connection failure opens the fail-fast window."""
        if isinstance(exc, ConnectionFailure):
            self._down_until = time.monotonic() + self.fail_fast_seconds
        return StorageError(f"{message}: {exc}" if message else exc)


class MongoDedupIndex(MongoFailFast):
    """The ``DedupIndex`` methods of :class:`sacorpus.storage.mongo.MongoStore`."""

    dedup_max_ids: int
    dedup_lookup_limit: int = 21  # the lookup's limit, before its own url is left out
    dedup_lookup_sorted: bool = False  # the server's natural order

    @property
    def db(self) -> Any:
        raise NotImplementedError  # the store's database

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        keys = [Int64(h) for h in dict.fromkeys(int(h) for h in hashes)]
        out: dict[int, tuple[int, Sequence[str]]] = {}
        try:
            for i in range(0, len(keys), IN_CHUNK):
                for doc in self.db.sentence_hashes.find({"_id": {"$in": keys[i : i + IN_CHUNK]}}):
                    out[int(doc["_id"])] = (int(doc.get("n", 0)), list(doc.get("ids") or []))
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return out

    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]:
        keys = [Int64(h) for h in dict.fromkeys(int(h) for h in hashes)]
        out: dict[int, int] = {}
        try:
            for i in range(0, len(keys), IN_CHUNK):
                for doc in self.db.sentence_hashes.find({"_id": {"$in": keys[i : i + IN_CHUNK]}}, {"n": 1}):
                    out[int(doc["_id"])] = int(doc.get("n", 0))
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return out

    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        urls = list(dict.fromkeys(urls))
        out: dict[str, dict[str, Any]] = {}
        try:
            for i in range(0, len(urls), IN_CHUNK):
                for doc in self.db.dedup_docs.find({"_id": {"$in": urls[i : i + IN_CHUNK]}}):
                    out[doc["_id"]] = {
                        "url": doc["_id"],
                        "text_hash": doc.get("text_hash"),
                        "canonical_key": doc.get("canonical_key"),
                        "slug_key": doc.get("slug_key"),
                        "sentences": doc.get("sentences") or [],
                        "order_key": doc.get("order_key"),
                    }
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return out

    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]:
        urls = list(dict.fromkeys(urls))
        out: dict[str, str | None] = {}
        try:
            for i in range(0, len(urls), IN_CHUNK):
                query = {"_id": {"$in": urls[i : i + IN_CHUNK]}}
                for doc in self.db.dedup_docs.find(query, {"order_key": 1}):
                    out[doc["_id"]] = doc.get("order_key")
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return out

    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]:
        # one indexed query per key: SecantusDB runs an $or as a collection scan
        hits: list[dict[str, str]] = []
        try:
            for kind, name, value in (
                ("exact-text", "text_hash", text_hash),
                ("canonical", "canonical_key", canonical_key),
                ("slug", "slug_key", slug_key),
            ):
                if value is None:
                    continue
                cursor = self.db.dedup_docs.find({name: value}, {"_id": 1}).limit(self.dedup_lookup_limit)
                hits.extend({"url": d["_id"], "kind": kind} for d in cursor if d["_id"] != url)
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return hits

    def _hash_op(self, h: int, url: str) -> UpdateOne:
        """One atomic update per hash: count the url once, keep at most dedup_max_ids ids.

        An aggregation-pipeline update (MongoDB 4.2+, SecantusDB): the whole read-modify-write runs
        on the server on one document, so concurrent crawlers never lose an increment.
        """
        ids = {"$ifNull": ["$ids", []]}
        seen = {"$in": [url, ids]}
        return UpdateOne(
            {"_id": Int64(h)},
            [
                {
                    "$set": {
                        "n": {"$cond": [seen, {"$ifNull": ["$n", 0]}, {"$add": [{"$ifNull": ["$n", 0]}, 1]}]},
                        "ids": {
                            "$cond": [
                                {"$or": [seen, {"$gte": [{"$size": ids}, self.dedup_max_ids]}]},
                                ids,
                                {"$concatArrays": [ids, [url]]},
                            ]
                        },
                    }
                }
            ],
            upsert=True,
        )

    def dedup_add(self, fingerprint: Mapping[str, Any]) -> None:
        url = fingerprint["url"]
        doc = _fingerprint_doc(fingerprint)
        sentences = doc["sentences"]
        ops = [self._hash_op(h, url) for h in dict.fromkeys(int(entry[0]) for entry in sentences)]
        try:
            self._forget_sentences(url, {int(entry[0]) for entry in sentences})
            self.db.dedup_docs.update_one({"_id": url}, {"$set": doc}, upsert=True)
            if ops:
                self.db.sentence_hashes.bulk_write(ops, ordered=False)
        except PyMongoError as exc:
            raise self._failure(exc, f"dedup index update for {url} failed") from exc

    def _forget_sentences(self, url: str, keep: set[int]) -> None:
        """A refetched article whose text changed: its old sentences no longer count for it."""
        old = self.db.dedup_docs.find_one({"_id": url}, {"sentences": 1})
        gone = [Int64(h) for h in {int(entry[0]) for entry in (old or {}).get("sentences") or []} - keep]
        if not gone:
            return
        self.db.sentence_hashes.update_many(
            {"_id": {"$in": gone}}, {"$inc": {"n": -1}, "$pull": {"ids": url}}
        )
        self.db.sentence_hashes.delete_many({"_id": {"$in": gone}, "n": {"$lte": 0}})

    def dedup_labels(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        urls = list(dict.fromkeys(urls))
        fields = {"url": 1, "_id": 0, **dict.fromkeys(LABEL_FIELDS, 1)}
        out: dict[str, dict[str, Any]] = {}
        try:
            for i in range(0, len(urls), IN_CHUNK):
                for doc in self.db.articles.find({"url": {"$in": urls[i : i + IN_CHUNK]}}, fields):
                    out[doc.pop("url")] = {k: doc.get(k) for k in LABEL_FIELDS}
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return out

    def dedup_clear(self) -> None:
        try:
            self.db.sentence_hashes.delete_many({})
            self.db.dedup_docs.delete_many({})
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def _bulk_load_batch(self, batch: list[Mapping[str, Any]]) -> int:
        postings: dict[int, list[str]] = {}
        docs = []
        for fp in batch:
            doc = {"_id": fp["url"], **_fingerprint_doc(fp)}
            docs.append(doc)
            for entry in doc["sentences"]:
                postings.setdefault(int(entry[0]), []).append(fp["url"])
        try:
            self.db.dedup_docs.insert_many(docs, ordered=False)
            if postings:  # a batch of articles without long sentences has none
                self._bulk_load_postings(list(postings.items()))
        except BulkWriteError as exc:
            raise StorageError(f"bulk load failed: {exc.details.get('writeErrors', [])[:1]}") from exc
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return len(batch)

    def _bulk_load_postings(self, items: list[tuple[int, list[str]]]) -> None:
        """Insert every hash as new; the ones already there fail with a duplicate-key error and are
        updated instead (no $in lookups: large $in lists are slow on SecantusDB)."""
        try:
            self.db.sentence_hashes.insert_many(
                [{"_id": Int64(h), "n": len(urls), "ids": urls[: self.dedup_max_ids]} for h, urls in items],
                ordered=False,
            )
        except BulkWriteError as exc:
            errors = exc.details.get("writeErrors", [])
            if any(e.get("code") != 11000 for e in errors):
                raise
            existing = [items[e["index"]] for e in errors]
            self.db.sentence_hashes.bulk_write(
                [
                    UpdateOne(
                        {"_id": Int64(h)},
                        {
                            "$inc": {"n": len(urls)},
                            "$push": {"ids": {"$each": urls, "$slice": self.dedup_max_ids}},
                        },
                    )
                    for h, urls in existing
                ],
                ordered=False,
            )
