"""A Splash service the user runs, called over its HTTP API (``render.html``).

Why the project's own code: scrapy-splash 0.11.1 does not import on Scrapy 2.13 and later, and the
part of it a news crawl needs is one HTTP call. For a request to render, :meth:`SplashService.render`
POSTs ``{"url", "wait", "timeout", "headers", "images": 0, "http_status_from_error_code": 1}`` as JSON
to ``SPLASH_URL/render.html`` through the crawl's own downloader (so retries, the download timeout and
the stats apply; robots.txt is not asked of Splash itself) and maps the answer back to a response for
the original URL:

* 200 (or the page's own 4xx/5xx, which ``http_status_from_error_code`` passes on): an HTML response
  for the original URL with the rendered DOM as its body;
* a Splash error (400 bad argument, 502 render failed, 503 overloaded, 504 timeout; a JSON body): one
  log line with Splash's description, a counter (``sacorpus/render/splash/errors/<status>``), and a
  response with that status for the original URL, which the retry middleware retries (502/503/504)
  and the crawl counts as a failed fetch when retries run out.

Credentials in ``SPLASH_URL`` (``http://user:password@splash:8050``) are sent as HTTP Basic auth and
never appear in a URL that is requested or logged. Splash's ``wait_for`` equivalent needs a Lua script:
``render.html`` only waits ``wait`` seconds (``SACORPUS_SPLASH_WAIT`` when the publication gives a
selector but no wait); a selector missing from the answer is counted as ``wait_for_missed``.
"""

from __future__ import annotations

import json
import logging
from base64 import b64encode
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response

from sacorpus.publication_render import RenderRules

logger = logging.getLogger(__name__)

SPLASH_CALL = "sacorpus_splash_call"  # meta key on the call to Splash itself (not rendered again)
MAX_SPLASH_TIMEOUT = 90.0  # Splash refuses a longer timeout unless started with --max-timeout


class SplashService:
    def __init__(self, endpoint: str, auth: str | None, default_wait: float) -> None:
        self.endpoint = endpoint
        self.auth = auth
        self.default_wait = default_wait

    @classmethod
    def from_settings(cls, settings: Any) -> SplashService:
        parts = urlsplit(settings.get("SPLASH_URL").strip())
        auth = None
        if parts.username is not None:
            pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
            auth = "Basic " + b64encode(pair.encode()).decode()
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
        path = parts.path.rstrip("/") + "/render.html"
        endpoint = urlunsplit((parts.scheme or "http", netloc, path, "", ""))
        return cls(endpoint, auth, settings.getfloat("SACORPUS_SPLASH_WAIT"))

    def call(self, request: Request, rules: RenderRules) -> Request:
        """The POST to ``render.html`` that renders ``request``'s URL."""
        wait = rules.wait or (self.default_wait if rules.wait_for else 0.0)
        args = {
            "url": request.url,
            "wait": wait,
            "timeout": min(MAX_SPLASH_TIMEOUT, max(rules.timeout, wait + 5)),
            "images": 0,
            "http_status_from_error_code": 1,
            "headers": {
                k.decode(): (request.headers.get(k) or b"").decode("latin-1") for k in request.headers
            },
        }
        headers = {"Content-Type": "application/json"}
        if self.auth:
            headers["Authorization"] = self.auth
        return Request(
            self.endpoint,
            method="POST",
            body=json.dumps(args),
            headers=headers,
            dont_filter=True,
            meta={SPLASH_CALL: True, "dont_obey_robotstxt": True},
        )

    async def render(self, crawler: Crawler, request: Request, rules: RenderRules) -> Response:
        engine = crawler.engine
        assert engine is not None
        answer = await engine.download_async(self.call(request, rules))
        return self.answer(crawler, request, rules, answer)

    def answer(self, crawler: Crawler, request: Request, rules: RenderRules, answer: Response) -> Response:
        """The response for the original request made from Splash's answer."""
        ctype = (answer.headers.get("Content-Type") or b"").decode("latin-1").lower()
        stats = crawler.stats
        if answer.status >= 400 and "json" in ctype:
            description = _error_description(answer.body)
            if stats is not None:
                stats.inc_value(f"sacorpus/render/splash/errors/{answer.status}")
            logger.warning("Splash could not render %s (%d): %s", request.url, answer.status, description)
            return HtmlResponse(request.url, status=answer.status, body=b"", request=request)
        body = answer.body
        if rules.wait_for and stats is not None and not _has_selector(body, rules.wait_for):
            stats.inc_value("sacorpus/render/splash/wait_for_missed")
        return HtmlResponse(
            request.url,
            status=answer.status,
            headers={"Content-Type": "text/html; charset=utf-8"},
            body=body,
            request=request,
            flags=["splash"],
        )


def _error_description(body: bytes) -> str:
    try:
        data = json.loads(body)
    except ValueError:
        return body[:200].decode("utf-8", "replace")
    if not isinstance(data, dict):
        return str(data)[:200]
    return f"{data.get('type', 'error')}: {data.get('description', '')}"[:300]


def _has_selector(body: bytes, selector: str) -> bool:
    from parsel import Selector

    try:
        return bool(Selector(text=body.decode("utf-8", "replace")).css(selector))
    except Exception:  # an unparsable answer has no element at all
        return False


__all__ = ["SPLASH_CALL", "SplashService"]
