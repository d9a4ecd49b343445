"""Retries with exponential backoff that honour ``Retry-After`` (429 and 5xx).

Scrapy's RetryMiddleware re-queues a 429/503 at once, which against a rate-limited site (the
Wayback Machine above all) turns one refusal into a burst of them. This subclass keeps its settings
(RETRY_TIMES, RETRY_HTTP_CODES, RETRY_EXCEPTIONS) and waits before each retry: the server's
``Retry-After`` when given, else ``base * 2**attempt`` with jitter, capped. A Retry-After longer
than SACORPUS_RETRY_AFTER_MAX is not waited for (the request is given up and counted) so one
host cannot stall the crawl for hours.

While a host (download slot) is refusing, its slot delay is raised to the wait, so the *other*
queued requests to that host slow down too instead of collecting 429s of their own; the delay
drops back to the configured one with the first successful response after the wait is over.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy.utils.response import response_status_message

from sacorpus import settings as defaults
from sacorpus.middlewares.stats import count

log = logging.getLogger(__name__)


def retry_after_seconds(value: str | bytes | None, now: datetime | None = None) -> float | None:
    """``Retry-After`` (delta-seconds or an HTTP date) in seconds from ``now``; None if absent/bad."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1", errors="replace")
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(attempt: int, base: float, cap: float, jitter: float = 0.25) -> float:
    """``base * 2**attempt`` (attempt counts from 0), +/- ``jitter`` share, at most ``cap``."""
    delay = min(cap, base * (2 ** max(0, attempt)))
    if jitter:
        delay *= 1 + random.uniform(-jitter, jitter)
    return max(0.0, min(cap, delay))


class RetryAfterMiddleware(RetryMiddleware):
    def __init__(self, settings) -> None:
        if not settings.getbool("SACORPUS_RETRY_ENABLED", defaults.SACORPUS_RETRY_ENABLED):
            raise NotConfigured("SACORPUS_RETRY_ENABLED is off")
        super().__init__(settings)
        self.backoff_base = settings.getfloat(
            "SACORPUS_RETRY_BACKOFF_BASE", defaults.SACORPUS_RETRY_BACKOFF_BASE
        )
        self.backoff_max = settings.getfloat(
            "SACORPUS_RETRY_BACKOFF_MAX", defaults.SACORPUS_RETRY_BACKOFF_MAX
        )
        self.retry_after_max = settings.getfloat(
            "SACORPUS_RETRY_AFTER_MAX", defaults.SACORPUS_RETRY_AFTER_MAX
        )
        self.retry_http_codes |= {429}
        self._slot_delays: dict[str, tuple[float, float]] = {}  # slot -> (configured delay, raised until)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RetryAfterMiddleware:
        mw = cls(crawler.settings)
        mw.crawler = crawler
        return mw

    def _slot(self, request: Request) -> tuple[str | None, Any]:
        downloader = getattr(getattr(self.crawler, "engine", None), "downloader", None)
        if downloader is None:
            return None, None
        key = downloader.get_slot_key(request)
        return key, downloader.slots.get(key)

    def _slow_down(self, request: Request, delay: float) -> None:
        key, slot = self._slot(request)
        if slot is None or key is None or not hasattr(slot, "delay"):
            return
        delay = min(delay, self.backoff_max)
        configured, until = self._slot_delays.get(key, (slot.delay, 0.0))
        self._slot_delays[key] = (configured, max(until, time.monotonic() + delay))
        slot.delay = max(slot.delay, delay)

    def _recover(self, request: Request) -> None:
        if not self._slot_delays:
            return
        key, slot = self._slot(request)
        if key in self._slot_delays and slot is not None and time.monotonic() >= self._slot_delays[key][1]:
            slot.delay = self._slot_delays.pop(key)[0]

    async def process_response(  # type: ignore[override]  # Scrapy 2.13 calls coroutine hooks without spider
        self, request: Request, response: Response
    ) -> Request | Response:
        if response.status < 400:
            self._recover(request)
        if request.meta.get("dont_retry", False) or response.status not in self.retry_http_codes:
            return response
        attempt = request.meta.get("retry_times", 0)
        retry_after = retry_after_seconds(response.headers.get(b"Retry-After"))
        if retry_after is not None and retry_after > self.retry_after_max:
            count(self.crawler, request, "retry_after_too_long")
            log.warning(
                "%s asks to retry after %.0fs (> %.0fs): giving up",
                request.url,
                retry_after,
                self.retry_after_max,
            )
            return response
        new = self._retry(request, response_status_message(response.status))
        if new is None:
            count(self.crawler, request, f"retry_gave_up_{response.status}")
            return response
        delay = (
            retry_after
            if retry_after is not None
            else backoff_delay(attempt, self.backoff_base, self.backoff_max)
        )
        count(self.crawler, request, f"retry_{response.status}")
        if response.status in (429, 503):
            self._slow_down(request, delay)
        if delay > 0:
            self.crawler.stats.inc_value("sacorpus/fetch/backoff_seconds", round(delay))
            await sleep(delay)
        return new

    async def process_exception(  # type: ignore[override]  # as process_response
        self, request: Request, exception: Exception
    ) -> Request | Response | None:
        if not isinstance(exception, self.exceptions_to_retry) or request.meta.get("dont_retry", False):
            return None
        attempt = request.meta.get("retry_times", 0)
        new = self._retry(request, exception)
        if new is not None:
            delay = backoff_delay(attempt, self.backoff_base, self.backoff_max)
            if delay > 0:
                await sleep(delay)
        return new
