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

import bson
from bson import Binary
from pymongo import ASCENDING, MongoClient, UpdateOne
from pymongo.errors import PyMongoError

from sacorpus import settings as defaults
from sacorpus.storage.base import (
    DEFAULT_DEDUP_MAX_IDS,
    DEFAULT_MONGO_DATABASE,
    INDEXED_FIELDS,
    ArticleStore,
    StorageError,
    setting,
    spill_path_for,
)
from sacorpus.storage.counts import CountDelta, StoreFilter, count_key
from sacorpus.storage.layout import LayoutError, join_record, split_record
from sacorpus.storage.mongo_comments import MongoComments
from sacorpus.storage.mongo_dedup import IN_CHUNK, MongoDedupIndex
from sacorpus.storage.mongo_filter import mongo_where
from sacorpus.storage.mongo_index import (
    COUNTS_READY,
    TERMS_READY,
    MongoCorpusIndex,
    ensure_indexes,
)
from sacorpus.storage.mongo_paging import ordered_pages
from sacorpus.storage.mongo_relabels import MongoRelabels
from sacorpus.storage.mongo_runs import MongoRunRecords
from sacorpus.storage.mongo_terms import TermVocabulary, search_terms, terms_condition
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
#: MongoDB refuses documents over 16 MiB; a record is trimmed below this, largest stored parts first
MAX_DOC_BYTES = 15 * 1024 * 1024
_TRIM_ORDER = (
    "html_z",
    "body_z",
    "tokens_z",
    "terms",
    "token_offsets",
    "tokens",
    "paragraph_languages",
    "sentences",
    "links",
    "quotes",
)


def _binary(value: bytes | None) -> Binary | None:
    return Binary(value) if value is not None else None


def _to_doc(record: Mapping[str, Any], level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL) -> dict[str, Any]:
    """The stored document in the compact layout (zstd body ``body_z``, the HTML as a delta of the body
    ``html_z``, packed tokens ``tokens_z``, the inverted index ``terms``), trimmed of its largest stored
    parts, HTML first, and flagged in ``problems`` when it is too large for MongoDB."""
    if not record.get("url"):
        raise StorageError("a record without url cannot be stored")
    try:
        doc, body, html, tokens = split_record({k: v for k, v in record.items() if k != "_id"}, level)
    except LayoutError as exc:
        raise StorageError(f"record {record.get('url')!r} cannot be stored: {exc}") from exc
    doc["body_z"], doc["html_z"], doc["tokens_z"] = _binary(body), _binary(html), _binary(tokens)
    doc["terms"] = search_terms(record)
    doc["fetched_at"] = record.get("fetched_at") or ""
    # one indexed key for (fetched_at, url) order: keyset paging without $or (a scan on SecantusDB)
    doc["_order"] = f"{doc['fetched_at']}\t{doc['url']}"
    return _fit(doc)


def _fit(doc: dict[str, Any]) -> dict[str, Any]:
    if len(bson.encode(doc)) <= MAX_DOC_BYTES:
        return doc
    trimmed = []
    for name in _TRIM_ORDER:
        if doc.get(name):
            doc[name] = None if name.endswith("_z") else []
            trimmed.append(name.removesuffix("_z"))
            if len(bson.encode(doc)) <= MAX_DOC_BYTES:
                break
    if len(bson.encode(doc)) > MAX_DOC_BYTES:  # the text itself: keep what fits
        doc["text"] = (doc.get("text") or "")[: MAX_DOC_BYTES // 8]
        trimmed.append("text")
    doc["problems"] = [*list(doc.get("problems") or []), "store:trimmed:" + "+".join(trimmed)]
    return doc


def _from_doc(doc: Mapping[str, Any], with_body: bool = True) -> dict[str, Any]:
    record = {k: v for k, v in doc.items() if k not in _HIDDEN}
    body = doc.get("body_z") if with_body or doc.get("html_z") is not None else None
    try:
        record = join_record(record, body, doc.get("html_z"), doc.get("tokens_z"))
    except LayoutError as exc:
        raise StorageError(f"the stored document of {doc.get('url')!r} cannot be decoded: {exc}") from exc
    if not with_body:
        record["body"] = None
    return record


_HIDDEN = ("_id", "body_z", "html_z", "tokens_z", "_order", "terms")
#: fields kept packed or in the terms: their change rewrites the article
_PACKED_CHANGE = frozenset({"tokens", "token_offsets", "text", "title", "body", "html", "_packed"})
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
            old = self._previous([str(r["url"]) for r in records])
            self.vocabulary.add(self.db, docs)  # first: a term in no article finds none, never the reverse
            self.db.articles.bulk_write(ops, ordered=False)
            self._index_write(old, records)
        except PyMongoError as exc:
            raise self._failure(exc, f"upsert of {len(ops)} articles into {self!r} failed") from exc

    def _previous(self, urls: list[str]) -> dict[str, dict[str, Any]]:
        """The stored versions of these URLs, as much as the kept counts need (none when not kept)."""
        if not self._ready.get(COUNTS_READY):
            return {}
        fields = (*GROUP_FIELDS, "text", "tokens", "tokens_z", "_packed")
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
        """Documents passing ``where`` in ``_order``; narrowed by ``terms`` to those holding the
        longest of ``tokens`` (whole tokens, casefolded), else a term holding a run of the
        ``substrings`` (:func:`terms_condition`); the caller checks each record."""
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
        if self.index_ready(TERMS_READY):
            try:
                base.update(terms_condition(self.db, substrings, tokens))
            except PyMongoError as exc:
                raise self._failure(exc) from exc
        for doc in ordered_pages(self.db.articles, base, projection, batch_size, self._failure):
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
        if "fetched_at" in fields:
            fields["fetched_at"] = fields["fetched_at"] or ""
            fields["_order"] = f"{fields['fetched_at']}\t{url}"
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
