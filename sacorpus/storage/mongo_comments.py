"""The MongoDB store's reader comments and their threads' poll state, in collections of their own.

Why apart from ``articles``: the corpus commands read one register or the other and never mix their
counts. ``comments`` is keyed by ``url`` (unique index) and read in one indexed order key
(``_order``: article, date, url; keyset paging without ``$or``); ``comment_threads`` is keyed by
the thread's key (``_id``). Writes are one ``bulk_write`` per batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pymongo import ASCENDING, ReplaceOne
from pymongo.errors import PyMongoError

from sacorpus.storage.base import StorageError
from sacorpus.storage.comment_records import merge_comment
from sacorpus.storage.mongo_dedup import IN_CHUNK, MongoFailFast
from sacorpus.storage.mongo_paging import ordered_pages
from sacorpus.storage.sqlite_comments import comment_order


def create_comment_indexes(db: Any) -> None:
    """Indexes of the two collections (idempotent; called when the store opens)."""
    db.comments.create_index([("url", ASCENDING)], unique=True)
    db.comments.create_index([("_order", ASCENDING)])
    db.comments.create_index([("publication", ASCENDING), ("_order", ASCENDING)])
    db.comments.create_index([("article_url", ASCENDING)])
    db.comment_threads.create_index(
        [("publication", ASCENDING), ("done", ASCENDING), ("next_poll", ASCENDING)]
    )
    db.comment_threads.create_index([("article_url", ASCENDING)])


def _plain(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("_id", "_order")}


class MongoComments(MongoFailFast):
    """The ``CommentStorage`` methods of :class:`sacorpus.storage.mongo.MongoStore`."""

    @property
    def db(self) -> Any:
        raise NotImplementedError  # the store's database

    def _comments_in(self, urls: list[str]) -> dict[str, dict[str, Any]]:
        urls = list(dict.fromkeys(urls))
        found: dict[str, dict[str, Any]] = {}
        try:
            for i in range(0, len(urls), IN_CHUNK):
                for doc in self.db.comments.find({"url": {"$in": urls[i : i + IN_CHUNK]}}):
                    found[doc["url"]] = _plain(doc)
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return found

    def upsert_comments(self, records: list[dict[str, Any]]) -> dict[str, int]:
        kinds = {"new": 0, "updated": 0, "unchanged": 0}
        if not records:
            return kinds
        for record in records:
            if not record.get("url") or not record.get("article_url"):
                raise StorageError("a comment without url or article_url cannot be stored")
        old = self._comments_in([r["url"] for r in records])
        docs: dict[str, dict[str, Any]] = {}
        for record in records:
            merged, kind = merge_comment(old.get(record["url"]), record)
            old[record["url"]] = merged
            kinds[kind] += 1
            docs[merged["url"]] = {**merged, "_order": comment_order(merged)}
        ops = [ReplaceOne({"url": url}, doc, upsert=True) for url, doc in docs.items()]
        try:
            self.db.comments.bulk_write(ops, ordered=False)
        except PyMongoError as exc:
            raise self._failure(exc, f"upsert of {len(ops)} comments failed") from exc
        return kinds

    def get_comment(self, url: str) -> dict[str, Any] | None:
        return self._comments_in([url]).get(url)

    def has_comments(self, urls: Iterable[str]) -> set[str]:
        return set(self._comments_in(list(urls)))

    def count_comments(self, publication: str | None = None) -> int:
        try:
            return int(self.db.comments.count_documents({"publication": publication} if publication else {}))
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def iter_comments(
        self,
        publication: str | None = None,
        fields: Iterable[str] | None = None,
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        wanted = set(fields) | {"url"} if fields is not None else None
        projection = {name: 1 for name in wanted} | {"_order": 1} if wanted is not None else None
        query = {"publication": publication} if publication else {}
        for doc in ordered_pages(self.db.comments, query, projection, batch_size, self._failure):
            yield _plain(doc)

    # --- threads ---------------------------------------------------------------------------------

    def get_thread(self, key: str) -> dict[str, Any] | None:
        try:
            doc = self.db.comment_threads.find_one({"_id": key})
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return _plain(doc) if doc else None

    def set_thread(self, record: Mapping[str, Any]) -> None:
        doc = {**dict(record), "done": bool(record.get("done"))}
        try:
            self.db.comment_threads.replace_one({"_id": record["key"]}, doc, upsert=True)
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def due_threads(self, publication: str, now: str, limit: int = 1000) -> list[dict[str, Any]]:
        query = {"publication": publication, "done": False, "next_poll": {"$lte": now}}
        try:
            cursor = self.db.comment_threads.find(query).sort([("next_poll", ASCENDING), ("_id", ASCENDING)])
            return [_plain(doc) for doc in cursor.limit(int(limit))]
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def articles_with_threads(self, article_urls: Iterable[str]) -> set[str]:
        urls = list(dict.fromkeys(article_urls))
        found: set[str] = set()
        try:
            for i in range(0, len(urls), IN_CHUNK):
                query = {"article_url": {"$in": urls[i : i + IN_CHUNK]}}
                found.update(
                    d["article_url"] for d in self.db.comment_threads.find(query, {"article_url": 1})
                )
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return found


__all__ = ["MongoComments", "create_comment_indexes"]
