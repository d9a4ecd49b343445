"""Stage 900: write articles to the store (SQLite or MongoDB), batched, off the reactor thread.

Why batched and threaded: pymongo and sqlite3 block; one write per item on the reactor thread
would stall every download. Items are buffered (``SACORPUS_STORE_BATCH_SIZE``, also flushed every
``SACORPUS_STORE_FLUSH_SECONDS`` and on close) and written by one dedicated worker thread.

Why the spill file: a storage outage must never lose fetched articles. A batch that cannot be
written is retried with exponential backoff (``SACORPUS_STORE_RETRIES``,
``SACORPUS_STORE_RETRY_BACKOFF`` seconds); then it is appended as JSONL (body base64) to
``SACORPUS_STORE_SPILL_PATH`` and counted as ``sacorpus/store/spilled``; the store re-imports that
file the next time it is opened. The item itself passes on unchanged (feed exporters drop ``body``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from itemadapter import ItemAdapter
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from sacorpus.pipelines._common import Counter, enabled_store
from sacorpus.storage.base import (
    DEFAULT_SPILL_PATH,
    ArticleStore,
    StorageError,
    write_spill,
)
from sacorpus.storage.shared import SharedStore

logger = logging.getLogger(__name__)

T = TypeVar("T")


class SerialWorker:
    """One dedicated thread: blocking store calls run there, in submission order (serialised)."""

    def __init__(self, name: str) -> None:
        self._pool = ThreadPool(minthreads=1, maxthreads=1, name=name)
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._pool.start()
            self._started = True

    async def run(self, f: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        from twisted.internet import reactor

        self.start()
        return await maybe_deferred_to_future(deferToThreadPool(reactor, self._pool, f, *args, **kwargs))  # type: ignore[arg-type]

    def stop(self) -> None:
        if self._started:
            self._pool.stop()
            self._started = False


class StorePipeline:
    """Buffers items and upserts them by URL into the configured store."""

    def __init__(
        self,
        shared: SharedStore,
        batch_size: int = 50,
        flush_seconds: float = 5.0,
        retries: int = 3,
        backoff: float = 1.0,
        spill_path: str = DEFAULT_SPILL_PATH,
        stats: Any = None,
    ) -> None:
        assert shared.store is not None
        self.shared = shared
        self.store: ArticleStore = shared.store
        self.batch_size = max(1, batch_size)
        self.flush_seconds = flush_seconds
        self.retries = max(0, retries)
        self.backoff = backoff
        self.spill_path = spill_path
        self.count = Counter(stats, "sacorpus/store")
        self.crawler: Any = None
        self._buffer: list[dict[str, Any]] = []
        self._worker = SerialWorker("sacorpus-store")
        self._loop: task.LoopingCall | None = None
        self._stored_this_run = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> StorePipeline:
        settings = crawler.settings
        shared = enabled_store(crawler, "store", "no usable store")
        assert shared.store is not None
        pipe = cls(
            shared,
            batch_size=settings.getint("SACORPUS_STORE_BATCH_SIZE", 50),
            flush_seconds=settings.getfloat("SACORPUS_STORE_FLUSH_SECONDS", 5.0),
            retries=settings.getint("SACORPUS_STORE_RETRIES", 3),
            backoff=settings.getfloat("SACORPUS_STORE_RETRY_BACKOFF", 1.0),
            spill_path=shared.store.spill_path
            or settings.get("SACORPUS_STORE_SPILL_PATH")
            or DEFAULT_SPILL_PATH,
            stats=crawler.stats,
        )
        pipe.crawler = crawler
        return pipe

    async def open_spider(self) -> None:
        try:
            await self._worker.run(self.shared.open)
            logger.info(
                "store %r open: %d articles stored", self.store, await self._worker.run(self.store.count)
            )
        except StorageError as exc:
            # not fatal: every write retries (and opens) again, and spills if the store stays down
            self.count.inc("errors")
            logger.error("cannot open store %r (will retry on write, then spill): %s", self.store, exc)
        if self.flush_seconds > 0:
            self._loop = task.LoopingCall(self._timed_flush)
            self._loop.start(self.flush_seconds, now=False)

    async def process_item(self, item: Any) -> Any:
        self._buffer.append(ItemAdapter(item).asdict())
        if len(self._buffer) >= self.batch_size:
            await self.flush()
        return item

    def _timed_flush(self) -> Any:
        from scrapy.utils.defer import deferred_from_coro

        return deferred_from_coro(self.flush()) if self._buffer else None

    async def flush(self) -> None:
        """Write what is buffered (in the worker thread); never raises."""
        if not self._buffer:
            return
        batch, self._buffer = self._buffer, []
        stored, errors, spilled = await self._worker.run(self._write, batch)
        self._stored_this_run += stored
        self.count.inc("stored", stored)
        self.count.inc("errors", errors)
        self.count.inc("spilled", spilled)

    def _write(self, batch: list[dict[str, Any]]) -> tuple[int, int, int]:
        """Worker thread: upsert with retries and backoff, else spill. Returns (stored, errors, spilled)."""
        errors = 0
        for attempt in range(self.retries + 1):
            try:
                self.shared.open()
                self.store.upsert_articles(batch)
                return len(batch), errors, 0
            except StorageError as exc:
                errors += 1
                logger.warning(
                    "store write of %d articles failed (attempt %d/%d): %s",
                    len(batch),
                    attempt + 1,
                    self.retries + 1,
                    exc,
                )
                if attempt < self.retries:
                    time.sleep(self.backoff * (2**attempt))
            except Exception as exc:  # a bad record must not kill the worker: spill it
                errors += 1
                logger.exception("unexpected error writing %d articles: %s", len(batch), exc)
                break
        try:
            n = write_spill(self.spill_path, batch)
        except OSError as exc:
            logger.critical(
                "LOST %d articles: store down and spill file %s unwritable: %s",
                len(batch),
                self.spill_path,
                exc,
            )
            self.count.inc("lost", len(batch))
            return 0, errors, 0
        logger.error(
            "store unavailable: spilled %d articles to %s; they are re-imported when the store next opens",
            n,
            self.spill_path,
        )
        return 0, errors, n

    async def close_spider(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        await self.flush()
        try:
            total = await self._worker.run(self.store.count)
        except StorageError:
            total = -1
        logger.info(
            "store %r: %d articles stored this run, %s in the store",
            self.store,
            self._stored_this_run,
            total if total >= 0 else "unknown (store unreachable)",
        )
        self._worker.stop()  # the shared store is closed by SharedStore when the spider has closed
