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
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus.storage.base import ArticleStore, StorageError, store_from_settings

logger = logging.getLogger(__name__)


class SharedStore:
    def __init__(self, store: ArticleStore | None, problem: str | None = None) -> None:
        self.store = store
        self.problem = problem  # why there is no store (a bad SACORPUS_STORE, ...)
        self._lock = threading.Lock()
        self._open = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> SharedStore:
        try:
            shared = cls(store_from_settings(crawler.settings))
        except StorageError as exc:
            shared = cls(None, str(exc))
        crawler.signals.connect(shared.spider_closed, signal=signals.spider_closed)
        return shared

    @classmethod
    def of(cls, crawler: Any) -> SharedStore:
        """The crawl's shared store; NotConfigured when the extension is not enabled."""
        shared = crawler.get_extension(cls) if crawler is not None else None
        if shared is None:
            raise NotConfigured(f"{cls.__module__}.{cls.__name__} is not in EXTENSIONS")
        return shared

    def open(self) -> ArticleStore:
        """The store, opened once (blocking: call it from a worker thread). Raises StorageError."""
        if self.store is None:
            raise StorageError(self.problem or "no store configured")
        with self._lock:
            if not self._open:
                self.store.open()
                self._open = True
        return self.store

    def close(self) -> None:
        with self._lock:
            if self._open and self.store is not None:
                self.store.close()
                self._open = False

    async def spider_closed(self) -> None:
        from scrapy.utils.defer import maybe_deferred_to_future
        from twisted.internet.threads import deferToThread

        await maybe_deferred_to_future(deferToThread(self.close))


__all__ = ["SharedStore"]
