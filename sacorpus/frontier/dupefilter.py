"""DiskDupeFilter: Scrapy's duplicate-request filter with its fingerprints on disk.

Drop-in for RFPDupeFilter (``DUPEFILTER_CLASS``): the seen set is a :class:`SeenStore` in
``JOBDIR/requests.seen.sqlite`` (a temporary file without JOBDIR) holding a bounded RAM cache, so a
crawl of millions of URLs does not grow in memory. A request may name its own identity with
``meta["sacorpus_seen_key"]`` (the spider uses the article's original URL, so one article reached
through several Wayback captures or several sources is scheduled once per run).

The seen set lives for one *run* (see :mod:`sacorpus.frontier.jobstate`): a run paused cleanly
keeps it, a new or recovering run starts empty - across runs the store's already-stored check, not
this filter, keeps stored URLs from being fetched again (and ``refetch=1`` fetches each URL once
per run).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from scrapy.dupefilters import BaseDupeFilter
from scrapy.http import Request
from scrapy.utils.job import job_dir

from sacorpus import settings as defaults
from sacorpus.frontier.seen import SeenStore

logger = logging.getLogger(__name__)
FILENAME = "requests.seen.sqlite"


class DiskDupeFilter(BaseDupeFilter):
    def __init__(
        self,
        path: str | None = None,
        *,
        fingerprinter: Any = None,
        cache_size: int = 100_000,
        flush_every: int = 1000,
        stats: Any = None,
    ) -> None:
        self.path = path
        self.fingerprinter = fingerprinter
        self.stats = stats
        self.seen = SeenStore(
            Path(path) / FILENAME if path else None, cache_size=cache_size, flush_every=flush_every
        )
        self.run: str | None = None
        self._logged = False

    @classmethod
    def from_crawler(cls, crawler: Any) -> DiskDupeFilter:
        s = crawler.settings
        return cls(
            job_dir(s),
            fingerprinter=crawler.request_fingerprinter,
            cache_size=s.getint("SACORPUS_SEEN_CACHE_SIZE", defaults.SACORPUS_SEEN_CACHE_SIZE),
            flush_every=s.getint("SACORPUS_SEEN_FLUSH_EVERY", defaults.SACORPUS_SEEN_FLUSH_EVERY),
            stats=crawler.stats,
        )

    def begin_run(self, run: str, fresh: bool) -> None:
        """Called by ResumableScheduler before open: a fresh run forgets the previous seen set."""
        self.run = run
        self.seen.open()
        if fresh:
            self.seen.clear()

    def open(self) -> None:
        self.seen.open()

    def close(self, reason: str) -> None:
        self.seen.close()

    def fingerprint(self, request: Request) -> bytes:
        key = request.meta.get("sacorpus_seen_key")
        if key and not request.meta.get("redirect_urls"):  # a redirect's target is a request of its own
            return hashlib.sha1(f"key:{key}".encode()).digest()
        if self.fingerprinter is None:
            from scrapy.utils.request import fingerprint

            return fingerprint(request)
        return self.fingerprinter.fingerprint(request)

    def request_seen(self, request: Request) -> bool:
        return not self.seen.add(self.fingerprint(request))

    def log(self, request: Request, spider: Any) -> None:
        if not self._logged:
            logger.debug("Filtered duplicate request: %s - no more duplicates will be shown", request)
            self._logged = True
        if self.stats is not None:
            self.stats.inc_value("dupefilter/filtered")
