"""A set of request fingerprints kept on disk, with a bounded cache in RAM.

Why: Scrapy's RFPDupeFilter keeps every fingerprint of a crawl in a Python set (about 100 bytes per
request), so a backfill of millions of URLs grows without bound. Here fingerprints live in an SQLite
table (a B-tree on disk; lookups hit SQLite's page cache), RAM holds only the last ``cache_size``
fingerprints looked up and up to ``flush_every`` not yet written.

Durability: writes are batched (``flush_every``) and committed in WAL mode, so a process killed with
SIGKILL loses at most the last unflushed batch; callers that need more (the crawl) do not rely on
the filter alone - the store's already-stored check is the source of truth for fetched articles.
No Scrapy imports: usable and testable on its own.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections import OrderedDict
from pathlib import Path

from sacorpus import settings as defaults

_SCHEMA = "CREATE TABLE IF NOT EXISTS seen (fp BLOB PRIMARY KEY) WITHOUT ROWID"


class SeenStore:
    """``add(fp)`` is True the first time ``fp`` is added, False afterwards (also across reopen).

    ``path=None`` uses a temporary file deleted at :meth:`close` (a crawl without JOBDIR still gets
    bounded memory).
    """

    def __init__(
        self,
        path: str | Path | None = None,
        cache_size: int = defaults.SACORPUS_SEEN_CACHE_SIZE,
        flush_every: int = defaults.SACORPUS_SEEN_FLUSH_EVERY,
        page_cache_mb: int = 16,
    ) -> None:
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="sacorpus-seen-")
            path = Path(self._tmp.name) / "seen.sqlite"
        self.path = Path(path)
        self.cache_size = max(0, cache_size)
        self.flush_every = max(1, flush_every)
        self.page_cache_mb = page_cache_mb
        self._cache: OrderedDict[bytes, None] = OrderedDict()
        self._pending: set[bytes] = set()
        self._conn: sqlite3.Connection | None = None

    def open(self) -> SeenStore:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(f"PRAGMA cache_size=-{int(self.page_cache_mb) * 1024}")
            conn.execute(_SCHEMA)
            self._conn = conn
        return self

    def close(self) -> None:
        if self._conn is not None:
            self.flush()
            self._conn.close()
            self._conn = None
        self._cache.clear()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> SeenStore:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self.open()
        assert self._conn is not None
        return self._conn

    def _remember(self, fp: bytes) -> None:
        if not self.cache_size:
            return
        self._cache[fp] = None
        self._cache.move_to_end(fp)
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def __contains__(self, fp: bytes) -> bool:
        if fp in self._pending or fp in self._cache:
            return True
        row = self._db().execute("SELECT 1 FROM seen WHERE fp=?", (fp,)).fetchone()
        if row:
            self._remember(fp)
            return True
        return False

    def add(self, fp: bytes) -> bool:
        """Add ``fp``; True when it was not there before."""
        if fp in self:
            return False
        self._pending.add(fp)
        self._remember(fp)
        if len(self._pending) >= self.flush_every:
            self.flush()
        return True

    def flush(self) -> None:
        if not self._pending or self._conn is None:
            return
        batch, self._pending = self._pending, set()
        with self._conn:
            self._conn.execute("BEGIN")
            self._conn.executemany("INSERT OR IGNORE INTO seen (fp) VALUES (?)", ((fp,) for fp in batch))

    def clear(self) -> None:
        """Forget everything (a new crawl epoch)."""
        self._pending.clear()
        self._cache.clear()
        self._db().execute("DELETE FROM seen")

    def __len__(self) -> int:
        self.flush()
        return int(self._db().execute("SELECT COUNT(*) FROM seen").fetchone()[0])

    @property
    def ram_entries(self) -> int:
        """Fingerprints held in RAM (cache + unflushed): bounded by cache_size + flush_every."""
        return len(self._cache) + len(self._pending)
