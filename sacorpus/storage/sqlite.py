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
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, Self

from sacorpus import settings as defaults
from sacorpus.storage.base import (
    DEFAULT_SQLITE_PATH,
    INDEXED_FIELDS,
    ArticleStore,
    StorageError,
    setting,
    spill_path_for,
)
from sacorpus.storage.counts import CountDelta, StoreFilter
from sacorpus.storage.dedup_index import DEFAULT_DEDUP_MAX_IDS
from sacorpus.storage.sqlite_comments import COMMENTS_SCHEMA, SQLiteComments
from sacorpus.storage.sqlite_counts import migrate_counts
from sacorpus.storage.sqlite_dedup import SQLiteDedupIndex, chunks, migrate_dedup
from sacorpus.storage.sqlite_index import (
    COUNTS_READY,
    FTS_READY,
    INDEX_SCHEMA,
    NOTHING,
    SQLiteCorpusIndex,
    narrowing_expression,
)
from sacorpus.storage.sqlite_moves import MOVES_SCHEMA, SQLiteCountMoves
from sacorpus.storage.sqlite_reads import RowReader, decode_row
from sacorpus.storage.sqlite_rows import INDEX_FIELDS, STORED, light_updates, row_for
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
    html_z BLOB,
    tokens_z BLOB,
    token_count INTEGER,
    word_count INTEGER,
    has_text INTEGER,
    text_z BLOB
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

#: columns added after the first release; an older store gets them on open (NULL in its old rows)
_ADDED = {
    "html_z": "BLOB",
    "tokens_z": "BLOB",
    "token_count": "INTEGER",
    "word_count": "INTEGER",
    "has_text": "INTEGER",
    "text_z": "BLOB",
}


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


class SQLiteStore(
    SQLiteCountMoves, SQLiteCorpusIndex, SQLiteDedupIndex, SQLiteRunRecords, SQLiteComments, ArticleStore
):
    """Articles, state and the dedup index in one SQLite file."""

    dedup_bulk_batch_size = 1000  # one write transaction per batch (its fingerprints in memory as lists)

    def __init__(
        self,
        path: str = DEFAULT_SQLITE_PATH,
        spill_path: str | None = None,
        timeout: float = defaults.SACORPUS_SQLITE_TIMEOUT,
        dedup_max_ids: int = DEFAULT_DEDUP_MAX_IDS,
        cache_mb: int = defaults.SACORPUS_SQLITE_CACHE_MB,
        zstd_level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL,
        mmap_mb: int | None = defaults.SACORPUS_SQLITE_MMAP_MB,
    ):
        self.zstd_level = zstd_level
        self.mmap_mb = 4 * cache_mb if mmap_mb is None else mmap_mb
        self._ready = {}
        self._word_ids: dict[str, int] = {}
        self._deferred: CountDelta | None = None
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
            zstd_level=int(
                setting(settings, "SACORPUS_STORE_ZSTD_LEVEL", defaults.SACORPUS_STORE_ZSTD_LEVEL)
            ),
            mmap_mb=_optional_int(
                setting(settings, "SACORPUS_SQLITE_MMAP_MB", defaults.SACORPUS_SQLITE_MMAP_MB)
            ),
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
            conn.execute(f"PRAGMA mmap_size={int(self.mmap_mb) * 1024 * 1024}")
            conn.executescript(_SCHEMA)
            conn.executescript(RUNS_SCHEMA)
            conn.executescript(COMMENTS_SCHEMA)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(articles)")}
            for name, kind in _ADDED.items():  # a store made before these columns existed
                if name not in columns:
                    conn.execute(f"ALTER TABLE articles ADD COLUMN {name} {kind}")
            conn.executescript(INDEX_SCHEMA)
            migrate_counts(conn)
            conn.executescript(MOVES_SCHEMA)
            migrate_dedup(conn)
            self._init_ready(conn)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open SQLite store {self.path}: {exc}") from exc
        self._conn = conn
        if conn.execute("SELECT 1 FROM count_moves LIMIT 1").fetchone():  # left by a killed relabelling
            with self._cursor(write=True) as cur:
                self._settle_moves(cur)
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
                self._rollback(write)
                raise StorageError(f"SQLite error on {self.path}: {exc}") from exc
            except BaseException:
                self._rollback(write)
                raise
            finally:
                cur.close()

    def _rollback(self, began: bool) -> None:
        if began and self._conn is not None and self._conn.in_transaction:
            self._conn.rollback()
            self._forget_ids()

    @contextmanager
    def batched(self) -> Iterator[None]:
        """One write transaction for every write inside (see ``ArticleStore.batched``); all or nothing.

        The count changes of the writes inside are summed and applied once before the commit (a
        batch of relabels moves each (key, word) count once, not once per article).
        """
        if self._deferred is not None:  # inside another batch: its transaction and its sum
            yield
            return
        with self._cursor(write=True) as cur:
            self._deferred = CountDelta()
            try:
                yield
                self._apply_delta(cur, self._deferred)
            finally:
                self._deferred = None

    # --- articles --------------------------------------------------------------------------------

    def upsert_articles(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        records = list({str(r.get("url")): r for r in records}.values())  # the last version of a URL wins
        rows = [row_for(r, self.zstd_level) for r in records]
        with self._cursor(write=True) as cur:
            self._settle_moves(cur, [str(r["url"]) for r in records])  # counted where the indexes see them
            old = self._previous(cur, [str(r["url"]) for r in records])
            self._write_rows(cur, rows)
            self._index_write(cur, old, records)

    @staticmethod
    def _write_rows(cur: sqlite3.Cursor, rows: list[tuple[Any, ...]]) -> None:
        cols = STORED
        updates = ", ".join(f"{c}=excluded.{c}" for c in cols[1:])
        sql = (
            f"INSERT INTO articles ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT(url) DO UPDATE SET {updates}"
        )
        cur.executemany(sql, rows)

    def _previous(self, cur: sqlite3.Cursor, urls: list[str]) -> dict[str, dict[str, Any]]:
        """The stored versions of these URLs, as much as the indexes need (nothing when none is kept)."""
        if not any(self._ready.values()):
            return {}
        found: dict[str, dict[str, Any]] = {}
        for chunk in chunks(urls):
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT url, data, NULL, NULL, tokens_z, text_z FROM articles WHERE url IN ({marks})"
            for row in cur.execute(sql, chunk):
                record = decode_row(*row[1:])
                found[row[0]] = {k: record.get(k) for k in INDEX_FIELDS}
        return found

    def get(self, url: str) -> dict[str, Any] | None:
        with self._cursor() as cur:
            row = cur.execute(
                "SELECT data, body, html_z, tokens_z, text_z FROM articles WHERE url=?", (url,)
            ).fetchone()
        return decode_row(*row) if row else None

    def unlabelled_urls(self) -> list[str]:
        sql = (
            "SELECT url FROM articles WHERE dedup_label IS NULL AND (has_text = 1 OR (has_text IS NULL "
            "AND typeof(data) = 'text' AND coalesce(json_extract(data, '$.text'), '') != '')) "
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

    def distinct_values(self, field: str) -> set[str]:
        if field not in INDEXED_FIELDS:
            raise ValueError(f"{field!r} is not an indexed field")
        with self._cursor() as cur:  # a column name from the fixed tuple above, never user text
            rows = cur.execute(f"SELECT DISTINCT {field} FROM articles WHERE {field} <> ''").fetchall()
        return {str(r[0]) for r in rows}

    def query_articles(
        self,
        where: StoreFilter,
        fields: Iterable[str] | None = None,
        *,
        substrings: Iterable[str] = (),
        tokens: Iterable[str] = (),
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """Records passing ``where`` in (fetched_at, url) order, narrowed by the FTS index to those
        containing every substring and token (3+ characters; shorter ones are left to the caller)."""
        reader = RowReader(fields)
        query = None
        if self.index_ready(FTS_READY):
            with self._cursor() as cur:
                query = narrowing_expression(cur, substrings, tokens)
        if query == NOTHING:
            return
        for row in self._matching_rows(reader.select, where, query, max(1, batch_size)):
            yield reader.record(row)

    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:
        return self.update_labels({url: fields}) > 0

    def update_labels(self, labels: Mapping[str, Mapping[str, Any]]) -> int:
        """Set fields of many stored articles in one transaction (see :func:`light_updates`); a row
        the light path cannot update is rewritten whole. Returns how many were stored."""
        updates = {url: {k: v for k, v in fields.items() if k != "url"} for url, fields in labels.items()}
        with self._cursor(write=True) as cur:
            counts = self._counts_delta() if self._ready.get(COUNTS_READY) else None
            done = light_updates(cur, updates, counts, partial(self._note_move, cur))
            if counts is not None and counts is not self._deferred:
                self._apply_delta(cur, counts)
            rewritten = [
                url for url, ok in done.items() if ok is None and self._rewrite(cur, url, updates[url])
            ]
        return sum(1 for ok in done.values() if ok) + len(rewritten)

    def _rewrite(self, cur: sqlite3.Cursor, url: str, fields: Mapping[str, Any]) -> bool:
        """Rewrite a stored row whole with ``fields`` set (False: not stored)."""
        row = cur.execute(
            "SELECT data, body, html_z, tokens_z, text_z FROM articles WHERE url=?", (url,)
        ).fetchone()
        if row is None:
            return False
        self._settle_moves(cur, [url])
        record = decode_row(*row)
        old = {url: {k: record.get(k) for k in INDEX_FIELDS}}
        record.update(fields)
        record["url"] = url
        self._write_rows(cur, [row_for(record, self.zstd_level)])
        self._index_write(cur, old if any(self._ready.values()) else {}, [record])
        return True

    def reclaim_space(self) -> None:
        if self._conn is None:
            raise StorageError(f"{self!r} is not open")
        with self._lock:
            try:
                self._conn.execute("VACUUM")
            except sqlite3.Error as exc:
                raise StorageError(f"VACUUM of {self.path} failed: {exc}") from exc

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
