"""Stop redirect loops early and count them.

Scrapy follows up to REDIRECT_MAX_TIMES hops; a loop (A -> B -> A, or a cookie-wall bounce) burns
all of them, and the dupe filter may drop the looped request silently. Seeing the 3xx before
RedirectMiddleware (priority above 600), this middleware ends a chain whose target was already
visited and counts ``redirect_loop`` for the publication.
"""

from __future__ import annotations

from urllib.parse import urljoin

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response

from sacorpus import settings as defaults
from sacorpus.middlewares.stats import count
from sacorpus.sources.urls import canonicalize


class RedirectLoopMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedirectLoopMiddleware:
        if not crawler.settings.getbool(
            "SACORPUS_REDIRECT_LOOP_ENABLED", defaults.SACORPUS_REDIRECT_LOOP_ENABLED
        ):
            raise NotConfigured("SACORPUS_REDIRECT_LOOP_ENABLED is off")
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if response.status not in (301, 302, 303, 307, 308) or b"Location" not in response.headers:
            return response
        location = (response.headers[b"Location"] or b"").decode("latin-1")
        target = canonicalize(urljoin(request.url, location))
        seen = {canonicalize(u) for u in (*request.meta.get("redirect_urls", ()), request.url)}
        if target in seen:
            count(self.crawler, request, "redirect_loop")
            raise IgnoreRequest(f"redirect loop: {request.url} -> {target}")
        return response
