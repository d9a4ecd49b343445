"""Sends the article requests a publication's ``[render]`` table names to the run's renderer.

Why at download time: requests wait in the disk queue as plain data with the publication's URL; which
ones a browser renders is decided as each one is downloaded, from the publication's current file, so
a queue resumed after the file changed follows the new rules. Only article requests are considered
(never feeds, sitemaps, robots.txt or Wayback captures, which are archived HTML).

* playwright: the request is marked for scrapy-playwright's handler (``meta["playwright"]``) with
  the waits the publication asks for; the handler renders it in Chromium (:mod:`.browser`).
* splash: the request is answered here by a call to Splash's ``render.html`` (:mod:`.splash`).

Either way ``meta["sacorpus_rendered"]`` names the renderer and the article records it: its raw body
is then the rendered DOM (what the page core extracts from), not the bytes the server sent.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse

from sacorpus.publication_render import RenderRules
from sacorpus.rendering import renderer_name
from sacorpus.rendering.splash import SPLASH_CALL, SplashService

logger = logging.getLogger(__name__)


class RenderMiddleware:
    def __init__(self, crawler: Crawler, renderer: str, splash: SplashService | None) -> None:
        self.crawler = crawler
        self.renderer = renderer
        self.splash = splash

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderMiddleware:
        s = crawler.settings
        if not s.getbool("SACORPUS_RENDER_ENABLED"):
            raise NotConfigured("SACORPUS_RENDER_ENABLED is off")
        renderer = renderer_name(s)
        splash = SplashService.from_settings(s) if renderer == "splash" else None
        return cls(crawler, renderer, splash)

    def rules(self, request: Request) -> RenderRules | None:
        """The publication's render rules when this request is an article page they name, else None."""
        meta = request.meta
        if SPLASH_CALL in meta or not meta.get("sacorpus_url") or meta.get("sacorpus_source") == "wayback":
            return None
        publication = getattr(self.crawler.spider, "publication", None)
        rules = getattr(publication, "render", None)
        if rules is None or not rules.wants(meta["sacorpus_url"]):
            return None
        return rules

    async def process_request(self, request: Request) -> Response | None:
        rules = self.rules(request)
        if rules is None:
            return None
        request.meta["sacorpus_rendered"] = self.renderer
        self._count("requests")
        if self.splash is not None:
            return await self.splash.render(self.crawler, request, rules)
        request.meta["playwright"] = True
        request.meta["playwright_page_methods"] = page_methods(rules)
        return None

    def process_response(self, request: Request, response: Response) -> Response:
        if request.meta.get("sacorpus_rendered") and SPLASH_CALL not in request.meta:
            self._count(f"responses/{response.status}")
            response = as_utf8(response)
            methods = request.meta.get("playwright_page_methods") or ()
            if any(getattr(m, "method", None) is wait_for_selector and m.result is False for m in methods):
                self._count("wait_for_missed")
                logger.warning(
                    "%s: wait_for selector did not appear; the page is kept as rendered", request.url
                )
        return response

    def _count(self, what: str) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"sacorpus/render/{self.renderer}/{what}")


def as_utf8(response: Response) -> Response:
    """The rendered DOM as UTF-8, labelled so. Why: the browser's document is text; scrapy-playwright
    encodes it with the server's charset when it can and falls back to UTF-8 under the server's label
    when it cannot (a script inserted characters the charset lacks), which the page core would misread.
    The server's Content-Length no longer fits the body either."""
    if not isinstance(response, TextResponse) or "playwright" not in response.flags:
        return response
    headers = response.headers.copy()
    headers["Content-Type"] = "text/html; charset=utf-8"
    headers.pop("Content-Length", None)
    return response.replace(body=response.text.encode("utf-8"), headers=headers, encoding="utf-8")


def page_methods(rules: RenderRules) -> list[Any]:
    """The waits of a publication's ``[render]`` table as scrapy-playwright page methods."""
    from scrapy_playwright.page import PageMethod

    methods = []
    if rules.wait_for:
        methods.append(PageMethod(wait_for_selector, rules.wait_for, rules.timeout * 1000))
    if rules.wait:
        methods.append(PageMethod("wait_for_timeout", rules.wait * 1000))
    return methods


async def wait_for_selector(page: Any, selector: str, timeout_ms: float) -> bool:
    """Wait until ``selector`` is in the page; False when it never came (the page is kept anyway:
    a layout change must not lose the article, it is counted and logged instead)."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        await page.wait_for_selector(selector, timeout=timeout_ms, state="attached")
    except PlaywrightTimeout:
        return False
    return True


__all__ = ["RenderMiddleware", "page_methods", "wait_for_selector"]
