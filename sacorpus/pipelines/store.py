"""Stage 900: write articles to the store (SQLite or MongoDB), batched, off the reactor thread.

Why batched and threaded: pymongo and sqlite3 block; one write per item on the reactor thread
would stall every download. Items are buffered (``SACORPUS_STORE_BATCH_SIZE`` items or
``SACORPUS_STORE_BATCH_MB`` of text, HTML and body, also flushed every ``SACORPUS_STORE_FLUSH_SECONDS``
and on close) and written by one dedicated worker thread.

Why back-pressure: an item returns at once while its batch waits for the thread, so a writer slower
than the pipeline let the waiting batches, and every page's HTML in them, grow without bound. While
``SACORPUS_STORE_MAX_PENDING`` batches wait, an item waits before it joins the buffer, which
holds up Scrapy's scraper and so the downloads (``sacorpus/store/waited`` counts those waits).

Why the spill file: a storage outage must never lose fetched articles. A batch that cannot be
written is retried with exponential backoff (``SACORPUS_STORE_RETRIES``,
``SACORPUS_STORE_RETRY_BACKOFF`` seconds), in the background so the pipeline waits on an outage
only while ``SACORPUS_STORE_MAX_PENDING`` batches are behind; then it is appended as JSONL (body base64) to that store's own spill file (under
``SACORPUS_STORE_SPILL_DIR``) and counted as ``sacorpus/store/spilled``, and the run exits non-zero; the
same store re-imports the file the next time it is opened. After a failed batch the store counts as down
for ``SACORPUS_STORE_COOLOFF_SECONDS`` and later batches spill at once. The item itself passes on
unchanged (feed exporters drop ``body``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Self, TypeVar

from itemadapter import ItemAdapter
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from sacorpus import settings as defaults
from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, enabled_store
from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.storage.shared import SharedStore
from sacorpus.storage.spill_lines import write_spill

logger = logging.getLogger(__name__)

T = TypeVar("T")


class SerialWorker:
    """One dedicated thread: blocking store calls run there, in submission order (serialised).

    The thread also stops when the reactor has shut down: a forced stop (a second SIGTERM or Ctrl-C)
    closes no pipeline, and a thread left running would keep the process from exiting, for ever.
    """

    def __init__(self, name: str) -> None:
        self._pool = ThreadPool(minthreads=1, maxthreads=1, name=name)
        self._started = False
        self._trigger: Any = None

    def start(self) -> None:
        if not self._started:
            from twisted.internet import reactor as _reactor

            reactor: Any = _reactor
            self._pool.start()
            self._started = True
            self._trigger = reactor.addSystemEventTrigger("after", "shutdown", self._at_shutdown)

    def _at_shutdown(self) -> None:
        self._trigger = None
        self.stop()

    async def run(self, f: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        from twisted.internet import reactor

        self.start()
        return await maybe_deferred_to_future(deferToThreadPool(reactor, self._pool, f, *args, **kwargs))

    def stop(self) -> None:
        if self._started:
            self._pool.stop()
            self._started = False
        if self._trigger is not None:
            from twisted.internet import reactor as _reactor

            reactor: Any = _reactor
            reactor.removeSystemEventTrigger(self._trigger)
            self._trigger = None


class BatchedStoreStage:
    """Buffers items and upserts them by URL into the crawl's shared store, in the background.

    The articles' stage (:class:`StorePipeline`) and the comments' (``sacorpus.pipelines.comments``)
    are both this; siblings, not one the subclass of the other, so that looking the article stage up
    by its class (the dedup stage flushes it) never finds the comments' stage.
    """

    def __init__(
        self,
        shared: SharedStore,
        batch_size: int = 50,
        flush_seconds: float = 5.0,
        retries: int = 3,
        backoff: float = 1.0,
        spill_path: str | None = None,
        stats: Any = None,
        cooloff: float = 30.0,
        batch_mb: float = defaults.SACORPUS_STORE_BATCH_MB,
        max_pending: int = defaults.SACORPUS_STORE_MAX_PENDING,
    ) -> None:
        assert shared.store is not None
        self.shared = shared
        self.store: ArticleStore = shared.store
        self.batch_size = max(1, batch_size)
        self.flush_seconds = flush_seconds
        self.retries = max(0, retries)
        self.backoff = backoff
        self.cooloff = cooloff
        self.spill_path = spill_path or "data/spill/store.jsonl"
        self.count = Counter(stats, "sacorpus/store")
        self.stats = stats
        self.crawler: Any = None
        self._buffer: list[dict[str, Any]] = []
        self._buffered_chars = 0
        self.batch_chars = max(1, int(batch_mb * 1024 * 1024))
        self.max_pending = max(1, max_pending)
        self._worker = SerialWorker("sacorpus-store")
        self._loop: task.LoopingCall | None = None
        self._pending: dict[Any, None] = {}  # batches under way, oldest first
        self._down_until = 0.0  # after a write failed for good: spill at once until then
        self._stored_this_run = 0
        self._shutdown_trigger: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        settings = crawler.settings
        shared = enabled_store(crawler, "store", "no usable store")
        assert shared.store is not None
        pipe = cls(
            shared,
            batch_size=settings.getint("SACORPUS_STORE_BATCH_SIZE", defaults.SACORPUS_STORE_BATCH_SIZE),
            flush_seconds=settings.getfloat(
                "SACORPUS_STORE_FLUSH_SECONDS", defaults.SACORPUS_STORE_FLUSH_SECONDS
            ),
            retries=settings.getint("SACORPUS_STORE_RETRIES", defaults.SACORPUS_STORE_RETRIES),
            backoff=settings.getfloat("SACORPUS_STORE_RETRY_BACKOFF", defaults.SACORPUS_STORE_RETRY_BACKOFF),
            spill_path=shared.store.spill_path,
            stats=crawler.stats,
            cooloff=settings.getfloat(
                "SACORPUS_STORE_COOLOFF_SECONDS", defaults.SACORPUS_STORE_COOLOFF_SECONDS
            ),
            batch_mb=settings.getfloat("SACORPUS_STORE_BATCH_MB", defaults.SACORPUS_STORE_BATCH_MB),
            max_pending=settings.getint("SACORPUS_STORE_MAX_PENDING", defaults.SACORPUS_STORE_MAX_PENDING),
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
            # the shared store reports it and stops the run; a later outage is retried, then spilled
            logger.debug("store %r not open yet: %s", self.store, exc)
        if self.flush_seconds > 0:
            self._loop = task.LoopingCall(self._timed_flush)
            self._loop.start(self.flush_seconds, now=False)
        from twisted.internet import reactor as _reactor

        reactor: Any = _reactor
        self._shutdown_trigger = reactor.addSystemEventTrigger("before", "shutdown", self._spill_unwritten)

    def _spill_unwritten(self) -> None:
        """The reactor stops without this stage being closed (a forced stop: a second SIGTERM or
        Ctrl-C): what the buffer holds has not reached any worker thread and would die with the process,
        so it goes to the spill file, which the store re-imports when it next opens. Batches already
        handed to the worker thread are written before the thread is joined."""
        self._shutdown_trigger = None
        batch, self._buffer = self._buffer, []
        if batch:
            self._count_spilled(self._spill(batch, "the crawl was stopped by force before they were written"))

    #: what this stage stores (log lines); the comment store stage says "comments"
    records = "articles"

    def takes(self, item: Any) -> bool:
        """Articles here; comments go to their own table (``sacorpus.pipelines.comments``)."""
        return not isinstance(item, Comment)

    async def process_item(self, item: Any) -> Any:
        if not self.takes(item):
            return item
        # a shallow copy: the item is done with once it reaches this last stage, and a deep copy of its
        # token lists cost more CPU than the write itself
        await self._room()
        record = dict(ItemAdapter(item))
        self._buffer.append(record)
        self._buffered_chars += _weight(record)
        if len(self._buffer) >= self.batch_size or self._buffered_chars >= self.batch_chars:
            self._start_flush()  # written in the background: an outage never holds up the pipeline
        return item

    async def _room(self) -> None:
        """Wait while ``max_pending`` batches wait for the store's thread (back-pressure). Checked again
        after every wait: many items wait at once, and the first to wake may fill the place again."""
        if len(self._pending) >= self.max_pending:
            self.count.inc("waited")
        while len(self._pending) >= self.max_pending:
            await maybe_deferred_to_future(next(iter(self._pending)))

    def _timed_flush(self) -> None:
        self._start_flush()

    def _start_flush(self) -> None:
        if not self._buffer:
            return
        from scrapy.utils.defer import deferred_from_coro

        batch, self._buffer = self._buffer, []
        self._buffered_chars = 0
        d = deferred_from_coro(self._write_batch(batch))
        self._pending[d] = None
        if self.stats is not None:  # how far the writer fell behind (bounded by back-pressure)
            self.stats.max_value(f"{self.count.prefix}/max_pending", len(self._pending))

        def settled(result: Any) -> Any:
            self._pending.pop(d, None)
            return result

        d.addBoth(settled)

    async def flush(self) -> None:
        """Write what is buffered and wait for every write under way; never raises."""
        self._start_flush()
        while self._pending:
            await maybe_deferred_to_future(next(iter(self._pending)))

    async def _write_batch(self, batch: list[dict[str, Any]]) -> None:
        stored, errors, spilled, kinds = await self._worker.run(self._write, batch)
        self.count.inc("batches")
        self._stored_this_run += stored
        for kind, n in kinds.items():
            self.count.inc(kind, n)
        self.count.inc("stored", stored)
        self.count.inc("errors", errors)
        self._count_spilled(spilled)

    def _count_spilled(self, spilled: int) -> None:
        self.count.inc("spilled", spilled)
        if spilled and self.stats is not None:
            self.stats.set_value(f"{self.count.prefix}/spill_path", self.spill_path)

    def _write(self, batch: list[dict[str, Any]]) -> tuple[int, int, int, dict[str, int]]:
        """Worker thread: upsert with retries and backoff, else spill. Returns (stored, errors, spilled,
        what the stored batch was: new / updated / unchanged articles).

        After a batch failed for good the store counts as down for ``cooloff`` seconds: batches in that
        time are spilled at once (one attempt, no backoff), so an outage costs one retry cycle, not one
        per batch; the first write after it tries the store again.
        """
        errors = 0
        attempts = 1 if time.monotonic() < self._down_until else self.retries + 1
        for attempt in range(attempts):
            try:
                self.shared.open()
                kinds = self._upsert(batch)
                self._down_until = 0.0
                return len(batch), errors, 0, kinds
            except StorageError as exc:
                errors += 1
                logger.warning(
                    "store write of %d %s failed (attempt %d/%d): %s",
                    len(batch),
                    self.records,
                    attempt + 1,
                    attempts,
                    exc,
                )
                if attempt + 1 < attempts:
                    time.sleep(self.backoff * (2**attempt))
            except Exception as exc:  # a bad record must not kill the worker: spill it
                errors += 1
                logger.exception("unexpected error writing %d %s: %s", len(batch), self.records, exc)
                break
        self._down_until = time.monotonic() + self.cooloff
        return 0, errors, self._spill(batch), {}

    def _upsert(self, batch: list[dict[str, Any]]) -> dict[str, int]:
        """Write one batch; returns what it was (new / updated / unchanged)."""
        kinds = self._kinds(batch)
        self.store.upsert_articles(batch)
        return kinds

    def _total(self) -> int:
        return self.store.count()

    def _kinds(self, batch: list[dict[str, Any]]) -> dict[str, int]:
        """How many records of ``batch`` are new to the store, change a stored text, or repeat it.

        Why: crawl health tells a run that found fresh news from one that only fetched again what it had
        (``-a refetch=1``); only URLs already stored (rare outside refetch runs) are read back.
        """
        known = self.store.has_urls([r["url"] for r in batch])
        kinds = {"new": len(batch) - len(known), "updated": 0, "unchanged": 0}
        for record in batch:
            if record["url"] in known:
                old = self.store.get(record["url"]) or {}
                same = (old.get("title"), old.get("text")) == (record.get("title"), record.get("text"))
                kinds["unchanged" if same else "updated"] += 1
        return kinds

    def _spill(self, batch: list[dict[str, Any]], why: str = "store unavailable") -> int:
        try:
            n = write_spill(self.spill_path, batch)
        except OSError as exc:
            logger.critical(
                "LOST %d %s (%s): spill file %s unwritable: %s",
                len(batch),
                self.records,
                why,
                self.spill_path,
                exc,
            )
            self.count.inc("lost", len(batch))
            return 0
        logger.error(
            "%s: spilled %d %s to %s; this store re-imports them when it next opens",
            why,
            n,
            self.records,
            self.spill_path,
        )
        return n

    async def close_spider(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self._shutdown_trigger is not None:  # closed in order: the flush below writes the buffer
            from twisted.internet import reactor as _reactor

            reactor: Any = _reactor
            reactor.removeSystemEventTrigger(self._shutdown_trigger)
            self._shutdown_trigger = None
        await self.flush()
        try:
            total = await self._worker.run(self._total)
        except StorageError:
            total = -1
        logger.info(
            "store %r: %d %s stored this run, %s in the store",
            self.store,
            self._stored_this_run,
            self.records,
            total if total >= 0 else "unknown (store unreachable)",
        )
        self._worker.stop()  # the shared store is closed by SharedStore when the spider has closed


def _weight(record: dict[str, Any]) -> int:
    """What a buffered record weighs, roughly: the characters and bytes of its largest fields."""
    return sum(len(v) for k in ("html", "body", "text") if isinstance(v := record.get(k), (str, bytes)))


class StorePipeline(BatchedStoreStage):
    """Stage 900: the articles, upserted by URL."""
