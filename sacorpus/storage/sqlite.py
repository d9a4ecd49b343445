"""SQLite backend: one file, WAL mode; the embedded default store.

Why this shape: the columns queried (url, publication, dates, language, dedup label, hashes, page
type) are real indexed columns; everything else is one JSON document per article so new Article
fields need no migration. The raw body is a zlib-compressed BLOB. One connection
(``check_same_thread=False``) guarded by a lock serves the pipeline's worker thread and the
reactor thread alike; write transactions use ``BEGIN IMMEDIATE`` so two processes sharing the file
serialise instead of failing half-way.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from sacorpus import settings as defaults
from sacorpus.storage.base import (
    DEFAULT_DEDUP_MAX_IDS,
    DEFAULT_SQLITE_PATH,
    INDEXED_FIELDS,
    ArticleStore,
    StorageError,
    setting,
    spill_path_for,
)
from sacorpus.storage.sqlite_dedup import SQLiteDedupIndex, chunks, migrate_dedup
from sacorpus.storage.sqlite_runs import RUNS_SCHEMA, SQLiteRunRecords

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS articles (
    url TEXT PRIMARY KEY,
    publication TEXT,
    published_at TEXT,
    fetched_at TEXT NOT NULL DEFAULT '',
    language TEXT,
    dedup_label TEXT,
    text_hash TEXT,
    canonical_url TEXT,
    page_type TEXT,
    data TEXT NOT NULL,
    body BLOB,
    html_z BLOB
);
CREATE INDEX IF NOT EXISTS articles_publication ON articles(publication);
CREATE INDEX IF NOT EXISTS articles_published_at ON articles(published_at);
CREATE INDEX IF NOT EXISTS articles_fetched ON articles(fetched_at, url);
CREATE INDEX IF NOT EXISTS articles_language ON articles(language);
CREATE INDEX IF NOT EXISTS articles_dedup_label ON articles(dedup_label);
CREATE INDEX IF NOT EXISTS articles_text_hash ON articles(text_hash);
CREATE INDEX IF NOT EXISTS articles_canonical_url ON articles(canonical_url);
CREATE INDEX IF NOT EXISTS articles_page_type ON articles(page_type);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_COLUMNS = INDEXED_FIELDS  # url first


def _compressed(value: bytes | str | None) -> bytes | None:
    if value is None:
        return None
    return zlib.compress(value.encode("utf-8") if isinstance(value, str) else bytes(value), 6)


def _row_for(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """Indexed columns, the JSON of the rest, and the raw body and decoded HTML compressed apart.

    Why apart: the decoded HTML is most of a record (163 KB of 170 KB for a typical page); kept in the
    JSON it was stored uncompressed, next to the compressed body it came from.
    """
    if not record.get("url"):
        raise StorageError("a record without url cannot be stored")
    data = {k: v for k, v in record.items() if k not in ("body", "html")}
    values = [record.get(c) for c in _COLUMNS]
    values[_COLUMNS.index("fetched_at")] = record.get("fetched_at") or ""
    try:
        doc = json.dumps(data, ensure_ascii=False, default=str)
    except (TypeError, ValueError) as exc:
        raise StorageError(f"record {record.get('url')!r} is not JSON-serialisable: {exc}") from exc
    return (*values, doc, _compressed(record.get("body")), _compressed(record.get("html")))


_STORED = (*_COLUMNS, "data", "body", "html_z")


class SQLiteStore(SQLiteDedupIndex, SQLiteRunRecords, ArticleStore):
    """Articles, state and the dedup index in one SQLite file."""

    dedup_bulk_batch_size = 5000  # one write transaction per batch

    def __init__(
        self,
        path: str = DEFAULT_SQLITE_PATH,
        spill_path: str | None = None,
        timeout: float = defaults.SACORPUS_SQLITE_TIMEOUT,
        dedup_max_ids: int = DEFAULT_DEDUP_MAX_IDS,
        cache_mb: int = defaults.SACORPUS_SQLITE_CACHE_MB,
    ):
        self.path = str(path)
        self.cache_mb = cache_mb
        self.dedup_max_ids = dedup_max_ids
        self.spill_path = spill_path
        self.timeout = timeout
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    @classmethod
    def from_settings(cls, settings: Any) -> Self:
        path = str(setting(settings, "SACORPUS_SQLITE_PATH", DEFAULT_SQLITE_PATH))
        return cls(
            path=path,
            spill_path=spill_path_for(settings, "sqlite-" + os.path.abspath(path)),
            dedup_max_ids=int(setting(settings, "SACORPUS_DEDUP_MAX_IDS", DEFAULT_DEDUP_MAX_IDS)),
            cache_mb=int(setting(settings, "SACORPUS_SQLITE_CACHE_MB", defaults.SACORPUS_SQLITE_CACHE_MB)),
            timeout=float(setting(settings, "SACORPUS_SQLITE_TIMEOUT", defaults.SACORPUS_SQLITE_TIMEOUT)),
        )

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    # --- lifecycle -------------------------------------------------------------------------------

    def open(self) -> None:
        if self._conn is not None:
            return
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=self.timeout, check_same_thread=False, isolation_level=None
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            # the dedup index is read at random: keep its hot pages in memory (SQLite's default
            # 2 MB page cache makes lookups in a 100k-article index several times slower)
            conn.execute(f"PRAGMA cache_size=-{int(self.cache_mb) * 1024}")
            conn.execute(f"PRAGMA mmap_size={int(self.cache_mb) * 4 * 1024 * 1024}")
            conn.executescript(_SCHEMA)
            conn.executescript(RUNS_SCHEMA)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(articles)")}
            if "html_z" not in columns:  # a store made before the HTML was compressed apart
                conn.execute("ALTER TABLE articles ADD COLUMN html_z BLOB")
            migrate_dedup(conn)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open SQLite store {self.path}: {exc}") from exc
        self._conn = conn
        logger.info("store connection opened: %r", self)
        self.import_spill()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[sqlite3.Cursor]:
        if self._conn is None:
            raise StorageError(f"{self!r} is not open")
        with self._lock:
            cur = self._conn.cursor()
            write = write and not self._conn.in_transaction  # inside batched(): its transaction
            try:
                if write:
                    cur.execute("BEGIN IMMEDIATE")
                yield cur
                if write:
                    cur.execute("COMMIT")
            except sqlite3.Error as exc:
                if write and self._conn.in_transaction:
                    self._conn.rollback()
                raise StorageError(f"SQLite error on {self.path}: {exc}") from exc
            except BaseException:
                if write and self._conn.in_transaction:
                    self._conn.rollback()
                raise
            finally:
                cur.close()

    @contextmanager
    def batched(self) -> Iterator[None]:
        """One write transaction for every write inside (see ``ArticleStore.batched``); all or nothing."""
        with self._cursor(write=True):
            yield

    # --- articles --------------------------------------------------------------------------------

    def upsert_articles(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        rows = [_row_for(r) for r in records]
        cols = _STORED
        updates = ", ".join(f"{c}=excluded.{c}" for c in cols[1:])
        sql = (
            f"INSERT INTO articles ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT(url) DO UPDATE SET {updates}"
        )
        with self._cursor(write=True) as cur:
            cur.executemany(sql, rows)

    @staticmethod
    def _record(data: str, body: bytes | None, html_z: bytes | None = None) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(data)
        record["body"] = zlib.decompress(body) if body is not None else None
        if html_z is not None:
            record["html"] = zlib.decompress(html_z).decode("utf-8")
        else:
            record.setdefault("html", None)  # rows written before the HTML had its own column keep it in data
        return record

    def get(self, url: str) -> dict[str, Any] | None:
        with self._cursor() as cur:
            row = cur.execute("SELECT data, body, html_z FROM articles WHERE url=?", (url,)).fetchone()
        return self._record(*row) if row else None

    def unlabelled_urls(self) -> list[str]:
        sql = (
            "SELECT url FROM articles WHERE dedup_label IS NULL AND coalesce(json_extract(data, '$.text'), '') != '' "
            "ORDER BY fetched_at, url"
        )
        with self._cursor() as cur:
            return [row[0] for row in cur.execute(sql)]

    def has_urls(self, urls: Iterable[str]) -> set[str]:
        found: set[str] = set()
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(urls))):
                sql = f"SELECT url FROM articles WHERE url IN ({','.join('?' * len(chunk))})"
                found.update(r[0] for r in cur.execute(sql, chunk))
        return found

    def count(self, publication: str | None = None) -> int:
        with self._cursor() as cur:
            if publication is None:
                return int(cur.execute("SELECT COUNT(*) FROM articles").fetchone()[0])
            return int(
                cur.execute("SELECT COUNT(*) FROM articles WHERE publication=?", (publication,)).fetchone()[0]
            )

    def iter_articles(
        self,
        publication: str | None = None,
        fields: Iterable[str] | None = None,
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        wanted = set(fields) | {"url"} if fields is not None else None
        with_body = wanted is None or "body" in wanted
        with_html = wanted is None or "html" in wanted
        select = (
            "fetched_at, url, data"
            + (", body" if with_body else ", NULL")
            + (", html_z" if with_html else ", NULL")
        )
        last: tuple[str, str] | None = None
        while True:
            where, params = [], []
            if publication is not None:
                where.append("publication=?")
                params.append(publication)
            if last is not None:
                where.append("(fetched_at, url) > (?, ?)")
                params.extend(last)
            sql = f"SELECT {select} FROM articles"
            if where:
                sql += " WHERE " + " AND ".join(where)
            sql += " ORDER BY fetched_at, url LIMIT ?"
            with self._cursor() as cur:
                rows = cur.execute(sql, (*params, max(1, batch_size))).fetchall()
            if not rows:
                return
            for row in rows:
                record = self._record(row[2], row[3], row[4])
                if not with_body:
                    record.pop("body", None)
                yield {k: v for k, v in record.items() if k in wanted} if wanted is not None else record
            last = (rows[-1][0], rows[-1][1])

    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:
        fields = dict(fields)
        fields.pop("url", None)
        if not fields.keys() & {"body", "html"}:
            updated = self._update_data(url, fields)
            if updated is not None:
                return updated
        with self._cursor(write=True) as cur:
            row = cur.execute("SELECT data, body, html_z FROM articles WHERE url=?", (url,)).fetchone()
            if row is None:
                return False
            record = self._record(*row)
            record.update(fields)
            cur.execute(
                "INSERT OR REPLACE INTO articles ({}) VALUES ({})".format(
                    ", ".join(_STORED), ", ".join("?" * len(_STORED))
                ),
                _row_for(record),
            )
        return True

    def _update_data(self, url: str, fields: Mapping[str, Any]) -> bool | None:
        """Fields other than the body and HTML: only the JSON and the indexed columns are rewritten.

        Why: a relabel (ingest, ``scrapy dedup --rebuild``) rewrote the whole row, decompressing and
        compressing the body and the HTML again; that was most of a rebuild's time. None for a row
        that still keeps its HTML in the JSON (written before the HTML had its own column): the whole
        row is rewritten then, which moves it.
        """
        with self._cursor(write=True) as cur:
            row = cur.execute("SELECT data FROM articles WHERE url=?", (url,)).fetchone()
            if row is None:
                return False
            record = self._record(row[0], None)
            if record.get("html") is not None:
                return None
            record.update(fields)
            values = _row_for(record)[: len(_COLUMNS) + 1]  # no body nor HTML: neither was read
            columns = ", ".join(f"{c}=?" for c in (*_COLUMNS[1:], "data"))
            cur.execute(f"UPDATE articles SET {columns} WHERE url=?", (*values[1:], url))
        return True

    # --- state -----------------------------------------------------------------------------------

    def get_state(self, key: str) -> dict[str, Any] | None:
        with self._cursor() as cur:
            row = cur.execute("SELECT value FROM state WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_state(self, key: str, value: Mapping[str, Any]) -> None:
        doc = json.dumps(dict(value), ensure_ascii=False, default=str)
        with self._cursor(write=True) as cur:
            cur.execute(
                "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, doc),
            )
