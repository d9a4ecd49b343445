"""Conditional GET for feeds and sitemaps: the poll state of each source URL, kept in the store.

A source fetched again sends If-None-Match / If-Modified-Since from its last answer; the 304 reaches
the source (``handle_httpstatus_list``), which records the poll. The pure bookkeeping is
:mod:`sacorpus.sources.pollstate`; this keeps one state per URL for the run and writes it back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from scrapy.http import Request, Response

from sacorpus.sources import pollstate
from sacorpus.sources.clock import Clock

if TYPE_CHECKING:
    from sacorpus.spiders.base import PublicationSpider

logger = logging.getLogger(__name__)


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None


def poll_limits(settings: Any) -> pollstate.Limits:
    """The clamps of the adaptive poll interval from the settings (the crawl and the scheduler agree)."""
    return pollstate.Limits(
        settings.getint("SACORPUS_POLL_MIN_INTERVAL"),
        settings.getint("SACORPUS_POLL_MAX_INTERVAL"),
        settings.getint("SACORPUS_POLL_DEFAULT_INTERVAL"),
    )


class Polls:
    """The poll states of one crawl's feeds and sitemaps (store state ``poll:<url>``)."""

    def __init__(self, spider: PublicationSpider) -> None:
        self.spider = spider
        self._states: dict[str, dict[str, Any]] = {}  # source URL -> poll state
        self._clock: Clock | None = None
        self._limits: pollstate.Limits | None = None

    @property
    def clock(self) -> Clock:
        """The run's clock: real time, or the sped-up one ``scrapy schedule`` hands its crawls."""
        if self._clock is None:
            settings = self.spider.settings
            self._clock = Clock.from_values(
                settings.get("SACORPUS_CLOCK_ORIGIN"), settings.get("SACORPUS_CLOCK_SPEED")
            )
        return self._clock

    @property
    def limits(self) -> pollstate.Limits:
        if self._limits is None:
            self._limits = poll_limits(self.spider.settings)
        return self._limits

    async def conditional(self, request: Request, kind: str) -> Request:
        """``request`` made conditional on its poll state (unless refetching or recovering)."""
        spider = self.spider
        request.meta["handle_httpstatus_list"] = [304]
        if not spider.settings.getbool("SACORPUS_CONDITIONAL_GET") or spider.refetch or spider.recovering:
            return request
        headers = pollstate.conditional_headers(await self.state(request.meta["sacorpus_source_url"]))
        if headers:
            for key, value in headers.items():
                request.headers[key] = value
            spider.crawler.stats.inc_value(f"sacorpus/source/{kind}/conditional")
        return request

    async def state(self, url: str) -> dict[str, Any]:
        """The poll state of one feed/sitemap (read from the store once, then kept for the run)."""
        if url not in self._states:
            state = await self.spider.get_state(f"poll:{url}")
            self._states[url] = state if state else pollstate.new_state()
        return self._states[url]

    async def record(self, response: Response, guids: Iterable[str]) -> bool:
        """Update the source's poll state and log the proposed next poll; False on 304 (nothing new)."""
        spider = self.spider
        url = response.meta.get("sacorpus_source_url") or spider.logical_url(response.url)
        kind = response.meta.get("sacorpus_source", "sitemap")
        state = await self.state(url)
        not_modified = response.status == 304
        fresh = pollstate.record_poll(
            state,
            guids,
            etag=_header(response, "ETag"),
            last_modified=_header(response, "Last-Modified"),
            not_modified=not_modified,
            now=self.clock.now(),
        )
        interval = pollstate.next_interval(state, self.clock.now(), self.limits)
        stats = spider.crawler.stats
        if not_modified:
            stats.inc_value(f"sacorpus/source/{kind}/not_modified")
        stats.inc_value(f"sacorpus/source/{kind}/new_entries", len(fresh))
        stats.min_value("sacorpus/source/next_poll_min_seconds", interval)
        stats.max_value("sacorpus/source/next_poll_max_seconds", interval)
        logger.info(
            "%s %s: %s, %d new entries; next poll proposed in %d s",
            kind,
            url,
            "not modified" if not_modified else "fetched",
            len(fresh),
            interval,
        )
        await spider.set_state(f"poll:{url}", state)
        return not not_modified
