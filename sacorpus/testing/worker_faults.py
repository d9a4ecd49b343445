"""A real page-worker crash for tests: an extension that kills a page worker with SIGKILL mid-crawl.

Why an extension: the crash must happen inside a real crawl at a known point (after the Nth article),
to a real worker process, so the test sees what a user would (a log line, a counter, every article
stored). Enabled by a test with ``-s EXTENSIONS={"sacorpus.testing.worker_faults.KillPageWorker": 0}``
and ``-s KILL_PAGE_WORKER_AFTER=N``; never part of the project's settings.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)


class KillPageWorker:
    def __init__(self, crawler: Any, after: int) -> None:
        self.crawler = crawler
        self.after = after
        self.seen = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> KillPageWorker:
        after = crawler.settings.getint("KILL_PAGE_WORKER_AFTER", 0)
        if after <= 0:
            raise NotConfigured("KILL_PAGE_WORKER_AFTER is not set")
        ext = cls(crawler, after)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        return ext

    def item_scraped(self, item: Any) -> None:
        self.seen += 1
        if self.seen != self.after:
            return
        for stage in self.crawler.engine.scraper.itemproc.middlewares:
            workers = getattr(stage, "workers", None)
            if workers is not None and hasattr(workers, "pids"):
                for pid in workers.pids():
                    logger.info("killing page worker process %d", pid)
                    os.kill(pid, signal.SIGKILL)
                    return
