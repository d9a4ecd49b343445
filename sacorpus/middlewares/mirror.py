"""Requests carry the publication's own URLs; a mirror or fixture site is chosen at download time.

Why: with ``-a base_url=http://127.0.0.1:8080`` the spider used to queue requests for the mirror's
address, so a crawl interrupted and resumed against a mirror on another port (or another mirror) had a
disk queue full of the old address: every queued request failed. Now the queue, the seen filter and the
store all hold the publication's URLs, and this middleware (first in ``process_request``) points each
request at the run's ``base_url`` just before it is downloaded (the spider's ``fetch_url``); responses
are mapped back with the spider's ``logical_url``.
"""

from __future__ import annotations

from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler


class MirrorMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MirrorMiddleware:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        spider: Any = self.crawler.spider
        fetch_url = getattr(spider, "fetch_url", None)
        if fetch_url is None:
            return
        target = fetch_url(request.url)
        if target != request.url:
            # in place, not a new request: a new one would go back through the scheduler and the disk
            # queue with the mirror's address, which is what this middleware exists to avoid
            request._set_url(target)
