"""One store per crawl: the component the spider, the dedup stage and the store stage share.

Why: each of them used to build and open its own store (up to three connections per crawl), and each
re-imported the spill file on open, so two stages raced to import and rename it. :class:`SharedStore`
is an extension (built before the item pipelines, so their ``from_crawler`` can find it with
``crawler.get_extension``); it builds the store named by ``SACORPUS_STORE`` once, opens it on first use
(off the reactor thread: callers run :meth:`open` in a worker thread), and closes it when the spider
has closed, after the pipelines have flushed.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus import settings as defaults
from sacorpus.storage.base import ArticleStore, StorageError, store_from_settings
from sacorpus.verdict import REFUSED

logger = logging.getLogger(__name__)


class SharedStore:
    def __init__(self, store: ArticleStore | None, problem: str | None = None) -> None:
        self.store = store
        self.problem = problem  # why there is no store (a bad SACORPUS_STORE, ...)
        self._lock = threading.Lock()
        self._open = False
        self._failed: tuple[float, str] | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> SharedStore:
        try:
            shared = cls(store_from_settings(crawl_store_settings(crawler.settings)))
        except StorageError as exc:
            shared = cls(None, str(exc))
        shared.crawler = crawler
        crawler.signals.connect(shared.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(shared.spider_closed, signal=signals.spider_closed)
        return shared

    crawler: Any = None

    def needed(self) -> bool:
        """True when a stage of this crawl writes to the store (a crawl that only exports does not)."""
        if self.crawler is None:
            return True
        return any(
            self.crawler.settings.getbool(f"SACORPUS_{stage}_ENABLED", True) for stage in ("STORE", "DEDUP")
        )

    async def spider_opened(self, spider: Any) -> None:
        """Open the store before any article is fetched; a store that cannot be used stops the run.

        Like an unreachable Redis: one line, no article fetched for nothing, and a non-zero exit (the
        reason is the ``sacorpus/run/refused`` stat that ``scrapy crawl`` reads).
        """
        if not self.needed():
            return
        try:
            await _in_thread(self.open)
        except StorageError as exc:
            reason = (
                f"store {self.store!r} cannot be used: {exc}" if self.store else f"no usable store: {exc}"
            )
            logger.error("%s; stopping the crawl", reason)
            self.crawler.stats.set_value(REFUSED, reason)
            await self.crawler.engine.close_spider_async(reason="store_unavailable")

    @classmethod
    def of(cls, crawler: Any) -> SharedStore:
        """The crawl's shared store; NotConfigured when the extension is not enabled."""
        shared: SharedStore | None = crawler.get_extension(cls) if crawler is not None else None
        if shared is None:
            raise NotConfigured(f"{cls.__module__}.{cls.__name__} is not in EXTENSIONS")
        return shared

    #: after a failed open, callers within this many seconds get the same error at once (an unreachable
    #: server costs one connection timeout, not one per stage)
    retry_after: float = 5.0

    def open(self) -> ArticleStore:
        """The store, opened once (blocking: call it from a worker thread). Raises StorageError."""
        if self.store is None:
            raise StorageError(self.problem or "no store configured")
        with self._lock:
            if not self._open:
                failed = self._failed
                if failed is not None and time.monotonic() - failed[0] < self.retry_after:
                    raise StorageError(failed[1])
                try:
                    self.store.open()
                except StorageError as exc:
                    self._failed = (time.monotonic(), str(exc))
                    raise
                self._failed = None
                self._open = True
        return self.store

    def close(self) -> None:
        with self._lock:
            if self._open and self.store is not None:
                self.store.close()
                self._open = False

    async def spider_closed(self) -> None:
        await _in_thread(self.close)


def crawl_store_settings(settings: Any) -> Any:
    """The settings a crawl's store is built from: ``SACORPUS_CRAWL_SQLITE_MMAP_MB`` as its memory map and
    ``SACORPUS_CRAWL_SQLITE_CACHE_MB`` as its page cache.

    Why apart from the corpus commands': a crawl runs for hours and its mapped store pages and its page
    cache count in its resident memory, both filling as the store grows; a corpus command streams the
    store once and ends. A crawl's dedup lookups are a few per article, served by the system's file
    cache all the same (measured: the same dedup and store CPU per page with an 8 MB cache as with 64).
    """
    if not hasattr(settings, "copy"):
        return settings
    crawl_values = {
        "SACORPUS_SQLITE_MMAP_MB": settings.get(
            "SACORPUS_CRAWL_SQLITE_MMAP_MB", defaults.SACORPUS_CRAWL_SQLITE_MMAP_MB
        ),
        "SACORPUS_SQLITE_CACHE_MB": settings.get(
            "SACORPUS_CRAWL_SQLITE_CACHE_MB", defaults.SACORPUS_CRAWL_SQLITE_CACHE_MB
        ),
    }
    crawl_values = {name: int(v) for name, v in crawl_values.items() if v is not None and v != ""}
    if not crawl_values:
        return settings
    settings = settings.copy()
    for name, value in crawl_values.items():
        settings.set(name, value, priority=50)
    return settings


async def _in_thread(function: Any) -> Any:
    from scrapy.utils.defer import maybe_deferred_to_future
    from twisted.internet.threads import deferToThread

    return await maybe_deferred_to_future(deferToThread(function))


__all__ = ["SharedStore"]
