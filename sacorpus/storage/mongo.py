"""MongoDB backend (pymongo): for several crawlers writing to one corpus.

Why this shape: one document per article keyed by ``url`` (unique index), bulk upserts with
``UpdateOne(upsert=True)`` in one ``bulk_write``; the raw body is a zstd binary field (``body_z``).
The dedup index is a ``sentence_hashes`` collection (``_id`` = signed 64-bit hash, ``n`` = article
count, ``ids`` = up to ``dedup_max_ids`` urls) updated with single-document atomic operators only
(``$inc``, ``$push`` guarded by ``$ne``), so two crawlers adding at once lose no update; fingerprints
live in ``dedup_docs``. No text indexes (SecantusDB has none). A URI without ``directConnection``
gets ``directConnection=true``: SecantusDB announces a single-node replica set.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Self
from urllib.parse import urlsplit

from pymongo import ASCENDING, MongoClient, UpdateOne
from pymongo.errors import PyMongoError

from sacorpus import settings as defaults
from sacorpus.storage.base import (
    DEFAULT_MONGO_DATABASE,
    INDEXED_FIELDS,
    ArticleStore,
    StorageError,
    setting,
    spill_path_for,
)
from sacorpus.storage.counts import CountDelta, StoreFilter, count_key
from sacorpus.storage.dedup_index import DEFAULT_DEDUP_MAX_IDS
from sacorpus.storage.mongo_comments import MongoComments
from sacorpus.storage.mongo_dedup import IN_CHUNK, MongoDedupIndex
from sacorpus.storage.mongo_documents import _from_doc, _to_doc
from sacorpus.storage.mongo_exit import exit_without_waiting
from sacorpus.storage.mongo_filter import mongo_where
from sacorpus.storage.mongo_index import (
    COUNTS_READY,
    TERMS_READY,
    MongoCorpusIndex,
    ensure_indexes,
    kept_values,
)
from sacorpus.storage.mongo_paging import keyed_pages, ordered_pages
from sacorpus.storage.mongo_postings import Changes, order_key, post, posting_changes, pull
from sacorpus.storage.mongo_relabels import MongoRelabels
from sacorpus.storage.mongo_runs import MongoRunRecords
from sacorpus.storage.mongo_terms import TermVocabulary, narrowed_keys, search_terms
from sacorpus.storage.queries import GROUP_FIELDS

logger = logging.getLogger(__name__)


def with_direct_connection(uri: str) -> str:
    """Add ``directConnection=true`` unless the URI sets it or names several hosts / SRV."""
    parts = urlsplit(uri)
    if "directconnection=" in (parts.query or "").lower() or uri.startswith("mongodb+srv://"):
        return uri
    if "," in (parts.netloc.rsplit("@", 1)[-1]):
        return uri
    sep = "&" if parts.query else ("?" if parts.path not in ("", "/") or uri.endswith("/") else "/?")
    return f"{uri}{sep}directConnection=true"


#: how long the client waits for a heartbeat answer before it counts the server as gone (see open)
HEARTBEAT_PATIENCE_MS = 60_000
#: fields kept packed, in the search terms or in the key the terms are posted under: their change
#: rewrites the article (and posts it again)
_PACKED_CHANGE = frozenset(
    {"tokens", "token_offsets", "text", "title", "body", "html", "_packed", "fetched_at"}
)
#: fields the kept count totals are keyed by (their name there): their values are read from them
_KEPT_KEY_FIELDS = {"publication": "p", "language": "l"}
#: fields of the count key or the group totals: their change moves the article's counts
_KEY_CHANGE = frozenset(
    {"publication", "published_at", "language", "dedup_label", "page_type", "token_count", "word_count"}
)


class MongoStore(
    MongoRelabels, MongoCorpusIndex, MongoDedupIndex, MongoRunRecords, MongoComments, ArticleStore
):
    """Articles, state and the dedup index in a MongoDB (or SecantusDB) database."""

    def __init__(
        self,
        uri: str = "mongodb://127.0.0.1:27017",
        database: str = DEFAULT_MONGO_DATABASE,
        spill_path: str | None = None,
        dedup_max_ids: int = DEFAULT_DEDUP_MAX_IDS,
        timeout_ms: int = defaults.MONGO_TIMEOUT_MS,
        fail_fast_seconds: float = defaults.SACORPUS_STORE_FAIL_FAST_SECONDS,
        zstd_level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL,
    ):
        self.zstd_level = zstd_level
        self._ready = {}
        self.vocabulary = TermVocabulary()
        self.uri = with_direct_connection(uri)
        self.database = database
        self.spill_path = spill_path
        self.dedup_max_ids = dedup_max_ids
        self.timeout_ms = timeout_ms
        self.fail_fast_seconds = fail_fast_seconds
        self._client: MongoClient[dict[str, Any]] | None = None
        self._db: Any = None

    @classmethod
    def from_settings(cls, settings: Any) -> Self:
        uri = setting(settings, "MONGO_URI")
        if not uri:
            raise StorageError("MongoStore needs the MONGO_URI setting")
        database = str(setting(settings, "MONGO_DATABASE", DEFAULT_MONGO_DATABASE))
        host = urlsplit(uri).netloc.rsplit("@", 1)[-1]  # never credentials in a file name
        return cls(
            uri=uri,
            database=database,
            spill_path=spill_path_for(settings, f"mongodb-{host}-{database}"),
            dedup_max_ids=int(setting(settings, "SACORPUS_DEDUP_MAX_IDS", DEFAULT_DEDUP_MAX_IDS)),
            timeout_ms=int(setting(settings, "MONGO_TIMEOUT_MS", defaults.MONGO_TIMEOUT_MS)),
            fail_fast_seconds=float(
                setting(
                    settings, "SACORPUS_STORE_FAIL_FAST_SECONDS", defaults.SACORPUS_STORE_FAIL_FAST_SECONDS
                )
            ),
            zstd_level=int(
                setting(settings, "SACORPUS_STORE_ZSTD_LEVEL", defaults.SACORPUS_STORE_ZSTD_LEVEL)
            ),
        )

    def __repr__(self) -> str:
        host = urlsplit(self.uri).netloc.rsplit("@", 1)[-1]  # never log credentials
        return f"MongoStore({host}/{self.database})"

    # --- lifecycle -------------------------------------------------------------------------------

    def open(self) -> None:
        if self._client is not None:
            return
        exit_without_waiting()
        try:
            # An unreachable server fails server selection within timeout_ms. The connect timeout is
            # also the heartbeat's socket timeout: a busy server that answers a heartbeat late must not
            # count as gone (the client would cancel the writes in flight), so it is longer.
            client: MongoClient[dict[str, Any]] = MongoClient(
                self.uri,
                serverSelectionTimeoutMS=self.timeout_ms,
                connectTimeoutMS=max(self.timeout_ms, HEARTBEAT_PATIENCE_MS),
            )
            db = client[self.database]
            ensure_indexes(db, [n for n in INDEXED_FIELDS if n not in ("url", "fetched_at")])
            self._init_ready(db)
        except PyMongoError as exc:
            raise StorageError(f"cannot open {self!r}: {exc}") from exc
        self._client, self._db = client, db
        logger.info("store connection opened: %r", self)
        self.import_spill()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = self._db = None

    def drop(self) -> None:
        """Drop the whole database (tests)."""
        if self._client is not None:
            self._client.drop_database(self.database)
            self.vocabulary = TermVocabulary()

    @property
    def db(self) -> Any:
        if self._db is None:
            raise StorageError(f"{self!r} is not open")
        self._check_up()
        return self._db

    # --- articles --------------------------------------------------------------------------------

    def upsert_articles(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        records = list({str(r.get("url")): r for r in records}.values())  # the last version of a URL wins
        docs = [_to_doc(r, self.zstd_level) for r in records]
        ops = [UpdateOne({"url": d["url"]}, {"$set": d}, upsert=True) for d in docs]
        try:
            self._settle_noted(str(r["url"]) for r in records)
            old = self._previous([str(r["url"]) for r in records], postings=True)
            # first: a term in no article finds none, never the reverse
            added, removed = self._posting_changes(old, records, docs)
            post(self.db, added)
            self.db.articles.bulk_write(ops, ordered=False)
            pull(self.db, removed)
            self._index_write(old, records)
        except PyMongoError as exc:
            raise self._failure(exc, f"upsert of {len(ops)} articles into {self!r} failed") from exc

    def _posting_changes(
        self, old: Mapping[str, Mapping[str, Any]], records: list[dict[str, Any]], docs: list[dict[str, Any]]
    ) -> Changes:
        """The postings a write adds (before it) and pulls (after it); the new terms in the vocabulary."""
        terms = [search_terms(r) for r in records]
        self.vocabulary.add(self.db, terms)
        articles: list[tuple[str | None, list[str], str, list[str]]] = []
        for record, doc, new in zip(records, docs, terms, strict=True):
            before = old.get(str(record["url"]))
            if before is None:
                articles.append((None, [], doc["_order"], new))
            else:
                articles.append((order_key(before), search_terms(before), doc["_order"], new))
        return posting_changes(articles)

    def _previous(self, urls: list[str], postings: bool = False) -> dict[str, dict[str, Any]]:
        """The stored versions of these URLs, as much as the kept counts and (``postings``) the
        postings need (none when the counts are not kept and the postings not asked for)."""
        if not (postings or self._ready.get(COUNTS_READY)):
            return {}
        fields = (*GROUP_FIELDS, "fetched_at", "title", "text", "tokens", "tokens_z", "_packed")
        found: dict[str, dict[str, Any]] = {}
        for i in range(0, len(urls), IN_CHUNK):
            for doc in self.db.articles.find(
                {"url": {"$in": urls[i : i + IN_CHUNK]}}, dict.fromkeys(fields, 1)
            ):
                found[doc["url"]] = _from_doc(doc, with_body=False)
        return found

    def get(self, url: str) -> dict[str, Any] | None:
        try:
            doc = self.db.articles.find_one({"url": url})
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return _from_doc(doc) if doc else None

    def unlabelled_urls(self) -> list[str]:
        query = {"dedup_label": None, "text": {"$nin": [None, ""]}}
        try:
            cursor = self.db.articles.find(query, {"url": 1, "_id": 0}).sort("_order", ASCENDING)
            return [d["url"] for d in cursor]
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def has_urls(self, urls: Iterable[str]) -> set[str]:
        urls = list(dict.fromkeys(urls))
        found: set[str] = set()
        try:
            for i in range(0, len(urls), IN_CHUNK):
                cursor = self.db.articles.find({"url": {"$in": urls[i : i + IN_CHUNK]}}, {"url": 1, "_id": 0})
                found.update(d["url"] for d in cursor)
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return found

    def count(self, publication: str | None = None) -> int:
        query = {} if publication is None else {"publication": publication}
        try:
            return int(self.db.articles.count_documents(query))
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def distinct_values(self, field: str) -> set[str]:
        if field not in INDEXED_FIELDS:
            raise ValueError(f"{field!r} is not an indexed field")
        try:
            if field in _KEPT_KEY_FIELDS and self._ready.get(COUNTS_READY):
                return kept_values(self.db, _KEPT_KEY_FIELDS[field])
            values = self.db.articles.distinct(field)
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return {str(v) for v in values if v not in (None, "")}

    def query_articles(
        self,
        where: StoreFilter,
        fields: Iterable[str] | None = None,
        *,
        substrings: Iterable[str] = (),
        tokens: Iterable[str] = (),
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """Documents passing ``where`` in ``_order``; narrowed by the postings to those holding the
        longest of ``tokens`` (whole tokens, casefolded), else a term holding a run of the
        ``substrings`` (:func:`narrowed_keys`); the caller checks each record."""
        wanted = set(fields) | {"url"} if fields is not None else None
        with_body = wanted is None or "body" in wanted
        projection: dict[str, int] | None = None
        if wanted is not None:
            projection = {name: 1 for name in wanted if name != "body"} | {"_order": 1, "_id": 0}
            if with_body or "html" in wanted:  # a body may be packed against the text
                projection.update(body_z=1, text=1)
            if "html" in wanted:
                projection["html_z"] = 1
            if {"tokens", "token_offsets"} & wanted:  # tokens are kept as spans of the text
                projection.update(tokens_z=1, _packed=1, text=1)
        base = mongo_where(where)
        keys = None
        if self.index_ready(TERMS_READY):
            try:
                keys = narrowed_keys(self.db, substrings, tokens)
            except PyMongoError as exc:
                raise self._failure(exc) from exc
        pages = (
            ordered_pages(self.db.articles, base, projection, batch_size, self._failure)
            if keys is None
            else keyed_pages(self.db.articles, keys, base, projection, self._failure)
        )
        for doc in pages:
            record = _from_doc(doc, with_body)
            if not with_body:
                record.pop("body", None)
            yield {k: v for k, v in record.items() if k in wanted} if wanted is not None else record

    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:
        fields = {k: v for k, v in fields.items() if k != "url"}
        self._settle_noted([url])
        if _PACKED_CHANGE & set(fields):  # the packed parts and the terms: rewrite the article
            record = self.get(url)
            if record is None:
                return False
            self.upsert_articles([{**record, **fields, "url": url}])
            return True
        # a relabel: the fields set in place, the counts moved from the stored tokens (bodies untouched)
        old = self._previous([url]).get(url) if _KEY_CHANGE & set(fields) else None
        if not fields:
            return bool(self.has_urls([url]))
        try:
            result = self.db.articles.update_one({"url": url}, {"$set": fields})
            if old is not None and result.matched_count:
                delta = CountDelta()
                tokens = old.get("tokens")
                delta.move(
                    tokens if isinstance(tokens, list) else [], count_key(old), count_key({**old, **fields})
                )
                self._apply_delta(delta)
                self._move_groups([old], [{**old, **fields}])
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return bool(result.matched_count > 0)

    # --- state -----------------------------------------------------------------------------------

    def get_state(self, key: str) -> dict[str, Any] | None:
        try:
            doc = self.db.state.find_one({"_id": key})
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return doc["value"] if doc else None

    def set_state(self, key: str, value: Mapping[str, Any]) -> None:
        try:
            self.db.state.update_one({"_id": key}, {"$set": {"value": dict(value)}}, upsert=True)
        except PyMongoError as exc:
            raise self._failure(exc) from exc
