"""Failure counters per publication: ``sacorpus/fetch/<publication>/<reason>``.

Scrapy's own stats say how many 404s a crawl saw, not *which publication* is blocking us or timing
out; with 30 publications in one run that is the first question. :class:`FetchStatsMiddleware`
sits outermost, so it sees only final outcomes (after retries) and counts each once.
"""

from __future__ import annotations

import re
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response

from sacorpus import settings as defaults

PREFIX = "sacorpus/fetch"


def publication_of(crawler: Crawler, request: Request | None = None) -> str:
    """The publication slug for stats: request meta ``publication``, the spider's, or its name."""
    if request is not None and request.meta.get("publication"):
        return str(request.meta["publication"])
    spider = crawler.spider
    pub: Any = getattr(spider, "publication", None)
    if pub is not None:
        return str(getattr(pub, "slug", pub))
    return getattr(spider, "name", None) or "unknown"


def count(crawler: Crawler, request: Request | None, reason: str, by: int = 1) -> None:
    if crawler.stats is None:
        return
    reason = re.sub(r"[^A-Za-z0-9_.-]+", "_", reason)[:80]
    crawler.stats.inc_value(f"{PREFIX}/{publication_of(crawler, request)}/{reason}", by)


def exception_reason(exception: BaseException) -> str:
    """A short stable label for a download exception (class name, with timeouts and size folded)."""
    name = type(exception).__name__
    text = str(exception).lower()
    if "timeout" in name.lower() or "timed out" in text:
        return "timeout"
    if "maxsize" in text or "max size" in text or "larger than download max size" in text:
        return "too_large"
    if isinstance(exception, IgnoreRequest):
        return "robots_forbidden" if "robots" in text else "ignored"
    return name


class FetchStatsMiddleware:
    """Counts final non-2xx/3xx responses (``http_<status>``) and download exceptions per publication."""

    def __init__(self, crawler: Crawler) -> None:
        if not crawler.settings.getbool(
            "SACORPUS_FETCH_STATS_ENABLED", defaults.SACORPUS_FETCH_STATS_ENABLED
        ):
            raise NotConfigured("SACORPUS_FETCH_STATS_ENABLED is off")
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FetchStatsMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        # A missing robots.txt (404) is normal, not a fetch failure.
        if response.status >= 400 and not request.url.endswith("/robots.txt"):
            count(self.crawler, request, f"http_{response.status}")
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        count(self.crawler, request, exception_reason(exception))
        return None
