"""One run per spider at a time: a second run with the same JOBDIR or the same store refuses to start.

Why: two runs of one spider (two scrapyd jobs, a cron line firing while the last run still crawls)
shared ``jobs/<spider>/``; the second took the first's queue for a killed run's, and one of them raised
a disk-queue exception and lost requests. Two locks, neither stuck by a run that is killed:

- the JOBDIR: :class:`sacorpus.frontier.scheduler.ResumableScheduler` takes a file lock in the JOBDIR
  before it reads the queue (released by the kernel when the process dies);
- the store: this extension takes the store's run lock ``run:<spider>`` when the spider opens (a file
  lock next to the SQLite file; a lease document renewed while the crawl runs in MongoDB).

A refused run stops before fetching anything, with one line and a non-zero exit (``sacorpus/run/
refused``). Distributed workers (Redis mode) are one run on many machines: they take no lock.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import UTC, datetime
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus.storage.base import StorageError
from sacorpus.storage.shared import SharedStore, _in_thread
from sacorpus.verdict import REFUSED

logger = logging.getLogger(__name__)

LOCK_LOST = "sacorpus/run/lock_lost"
#: the finish reason of a run refused because another run of its spider is running
REFUSED_REASON = "already_running"


def holder_name(spider_name: str) -> str:
    """Who holds a lock, for the refusal message of the run that finds it taken."""
    since = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return f"{spider_name} run pid {os.getpid()} on {socket.gethostname()} since {since}"


class RunLock:
    def __init__(self, crawler: Any, seconds: float) -> None:
        self.crawler = crawler
        self.seconds = seconds
        self.name = ""
        self.holder = ""
        self.store: Any = None
        self._renewal: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> RunLock:
        settings = crawler.settings
        if not settings.getbool("SACORPUS_RUN_LOCK_ENABLED"):
            raise NotConfigured("SACORPUS_RUN_LOCK_ENABLED is off")
        if settings.get("SACORPUS_REDIS_URL"):
            raise NotConfigured("distributed workers share one run")
        ext = cls(crawler, settings.getfloat("SACORPUS_RUN_LOCK_SECONDS"))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    async def spider_opened(self, spider: Any) -> None:
        if self.crawler.stats.get_value(REFUSED):  # the scheduler found the JOBDIR held
            await self._stop(str(self.crawler.stats.get_value(REFUSED)), record=False)
            return
        try:
            shared = SharedStore.of(self.crawler)
        except NotConfigured:
            return
        if not shared.needed():
            return
        self.name, self.holder = f"run:{spider.name}", holder_name(spider.name)
        try:
            store = await _in_thread(shared.open)
            other = await _in_thread(lambda: store.acquire_run_lock(self.name, self.holder, self.seconds))
        except StorageError:
            return  # the shared store stops the run with its own reason
        if other:
            await self._stop(f"another run of {spider.name} is using {store!r}: {other}")
            return
        self.store = store
        from twisted.internet import task

        self._renewal = task.LoopingCall(self._renew)
        self._renewal.start(max(self.seconds / 3, 0.1), now=False)

    async def _stop(self, reason: str, record: bool = True) -> None:
        logger.error("%s; this run does not start", reason)
        if record:
            self.crawler.stats.set_value(REFUSED, reason)
        await self.crawler.engine.close_spider_async(reason=REFUSED_REASON)

    def _renew(self) -> Any:
        from twisted.internet.threads import deferToThread

        def renew() -> bool:
            return bool(self.store.renew_run_lock(self.name, self.holder, self.seconds))

        def check(kept: bool) -> None:
            if not kept:
                self._lost("another run took it after it expired")

        def failed(failure: Any) -> None:
            self._lost(f"it could not be renewed: {failure.getErrorMessage()}")

        return deferToThread(renew).addCallbacks(check, failed)

    def _lost(self, why: str) -> None:
        self.crawler.stats.inc_value(LOCK_LOST)
        logger.error(
            "the run lock %s was lost (%s): another run may be crawling the same spider", self.name, why
        )

    def spider_closed(self) -> None:
        """Give the lock back before the shared store closes (this handler is connected first)."""
        if self._renewal is not None and self._renewal.running:
            self._renewal.stop()
        if self.store is not None:
            try:
                self.store.release_run_lock(self.name, self.holder)
            except StorageError as exc:  # a lease then expires by itself
                logger.warning("could not release the run lock %s: %s", self.name, exc)
            self.store = None


__all__ = ["LOCK_LOST", "REFUSED_REASON", "RunLock", "holder_name"]
