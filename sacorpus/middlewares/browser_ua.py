"""One retry with a browser User-Agent after a 403 - only where asked for, never where robots.txt forbids it.

Off by default: a site that refuses bots is not worked around unless the publication's file says
``browser_ua_retry = true`` (a CDN known to answer 403 to every non-browser while its robots.txt allows
the crawl), or the run sets ``SACORPUS_BROWSER_UA_RETRY`` for every publication.

Several news CDNs answer 403 to any non-browser User-Agent while their robots.txt allows the
page. One retry with a browser UA recovers those pages. It is not a way around a refusal that
robots.txt states: when ROBOTSTXT_OBEY is on, the retry is only made when the parsed robots.txt
(from Scrapy's RobotsTxtMiddleware) allows the URL for both our own and the browser User-Agent;
when robots.txt has not been parsed for that host the retry is skipped.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import Response

from sacorpus.middlewares.stats import count

log = logging.getLogger(__name__)

DEFAULT_BROWSER_UA = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
META_KEY = "sacorpus_browser_ua_retry"


class BrowserUserAgentRetryMiddleware:
    def __init__(
        self, crawler: Crawler, browser_ua: str, obey_robots: bool, every_publication: bool = False
    ) -> None:
        self.crawler = crawler
        self.every_publication = every_publication
        self.browser_ua = browser_ua
        self.obey_robots = obey_robots
        self.own_ua = crawler.settings.get("ROBOTSTXT_USER_AGENT") or crawler.settings.get("USER_AGENT") or ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BrowserUserAgentRetryMiddleware:
        settings = crawler.settings
        return cls(
            crawler,
            settings.get("SACORPUS_BROWSER_UA") or DEFAULT_BROWSER_UA,
            settings.getbool("ROBOTSTXT_OBEY"),
            settings.getbool("SACORPUS_BROWSER_UA_RETRY"),
        )

    def wanted(self) -> bool:
        """Asked for by the run, or by the crawled publication's file."""
        publication = getattr(self.crawler.spider, "publication", None)
        return self.every_publication or bool(getattr(publication, "browser_ua_retry", False))

    def _robots_parser(self, request: Request) -> Any | None:
        """The RobotParser Scrapy already built for this host, or None (not parsed / not enabled)."""
        engine = getattr(self.crawler, "engine", None)
        downloader = getattr(engine, "downloader", None)
        manager = getattr(downloader, "middleware", None)
        for mw in getattr(manager, "middlewares", ()):
            if isinstance(mw, RobotsTxtMiddleware):
                parser = getattr(mw, "_parsers", {}).get(urlsplit(request.url).netloc)
                return parser if hasattr(parser, "allowed") else None
        return None

    def robots_allow(self, request: Request) -> bool:
        if not self.obey_robots or request.meta.get("dont_obey_robotstxt"):
            return True
        parser = self._robots_parser(request)
        if parser is None:
            return False
        return all(parser.allowed(request.url, ua) for ua in (self.own_ua, self.browser_ua) if ua)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        if response.status != 403 or request.meta.get(META_KEY) or request.meta.get("dont_retry"):
            return response
        if not self.wanted():
            return response
        if not self.robots_allow(request):
            count(self.crawler, request, "browser_ua_skipped_robots")
            return response
        count(self.crawler, request, "browser_ua_retry")
        log.debug("403 for %s: retrying once with a browser User-Agent", request.url)
        retry = request.replace(dont_filter=True)
        retry.meta[META_KEY] = True
        retry.headers[b"User-Agent"] = self.browser_ua
        return retry
