"""scrapy-playwright's download handler with the address guard applied inside the browser.

Why: a rendered page makes the browser fetch what the page names (scripts, frames, XHR, redirects), so
content would choose where the crawler connects unless every browser request passes the same guard
as a Scrapy request. Each request the page makes is checked before it leaves the browser:

* only ``http``/``https`` go out;
* a navigation of the page itself (a redirect, ``location = ...``) must stay in the publication's
  scope, like a Scrapy redirect;
* every request (scripts from a CDN too: live blogs are often built by a provider's script) must go to
  public addresses, unless the run names the host itself (``base_url``, ``SACORPUS_ALLOWED_HOSTS``);
* images, media and fonts (``SACORPUS_RENDER_BLOCK_RESOURCES``) are not fetched: text needs none.

Refusals are counted (``sacorpus/render/refused/<why>``) and the first few logged.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from scrapy.crawler import Crawler
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from sacorpus.middlewares.address_guard import AddressGuardMiddleware

logger = logging.getLogger(__name__)

_LOGGED = 20  # refusals logged one by one per run; the rest are counted
_LOCAL_SCHEMES = frozenset({"data", "blob", "about"})  # never reach the network


class GuardedPlaywrightHandler(ScrapyPlaywrightDownloadHandler):
    """Renders with Chromium; aborts browser requests the address guard would refuse."""

    _guard: AddressGuardMiddleware | None
    _guard_looked: bool

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.crawler = crawler
        self.blocked_types = frozenset(crawler.settings.getlist("SACORPUS_RENDER_BLOCK_RESOURCES"))
        self._guard = None
        self._guard_looked = False
        self._logged = 0
        self._closed = False
        self.abort_request = self.refused

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GuardedPlaywrightHandler:
        """One handler for http and https alike: Scrapy builds one per scheme, which would start two
        Playwright drivers (and could launch two browsers) for one crawl."""
        shared = getattr(crawler, "_sacorpus_browser_handler", None)
        if shared is None:
            shared = cls(crawler)
            setattr(crawler, "_sacorpus_browser_handler", shared)  # noqa: B010
        return shared

    async def close(self) -> None:
        if not self._closed:  # shared by both schemes: closed once
            self._closed = True
            await super().close()

    def guard(self) -> AddressGuardMiddleware | None:
        """The crawl's own address guard (None when the run switched it off)."""
        if not self._guard_looked:
            engine = getattr(self.crawler, "engine", None)
            mws = engine.downloader.middleware.middlewares if engine is not None else ()
            self._guard = next((m for m in mws if isinstance(m, AddressGuardMiddleware)), None)
            self._guard_looked = engine is not None
        return self._guard

    async def refused(self, request: Any) -> bool:
        """True when the browser must not send ``request`` (a Playwright request). Fails closed: an
        error while checking refuses the request (an exception here would stall the page instead)."""
        try:
            return await self._refused(request)
        except Exception as exc:
            return self._refuse(request.url, "check_failed", f"the check failed: {exc!r}")

    async def _refused(self, request: Any) -> bool:
        url = request.url
        scheme = urlsplit(url).scheme.lower()
        if scheme in _LOCAL_SCHEMES:
            return False
        if request.resource_type in self.blocked_types:
            if self.crawler.stats is not None:
                self.crawler.stats.inc_value("sacorpus/render/skipped_resources")
            return True
        if scheme not in ("http", "https"):
            return self._refuse(url, "scheme", f"scheme {scheme!r} is not fetched")
        guard = self.guard()
        if guard is None:
            return False
        if _main_navigation(request) and not guard.in_scope(url):
            return self._refuse(url, "offsite", "the page navigates off the publication's hosts")
        problem = await guard.address_problem(url)
        if problem:
            return self._refuse(url, "internal_address", problem)
        return False

    def _refuse(self, url: str, why: str, detail: str) -> bool:
        self._count(why)
        self._logged += 1
        if self._logged <= _LOGGED:
            logger.warning("browser request refused %s: %s", url, detail)
        return True

    def _count(self, why: str) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"sacorpus/render/refused/{why}")


def _main_navigation(request: Any) -> bool:
    try:
        return bool(request.is_navigation_request() and request.frame.parent_frame is None)
    except Exception:  # a request of a service worker has no frame
        return False


__all__ = ["GuardedPlaywrightHandler"]
