"""The Wayback homepage walk-back: each distinct version of the homepage in a month, from the month's
end back to its start, and the article links on it as captures near the homepage's time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from datetime import UTC, date, datetime, time
from typing import Any

from scrapy.http import Request, Response

from sacorpus.sources import wayback
from sacorpus.sources.urls import canonicalize
from sacorpus.sources.wayback_homepage import homepage_links, walk_back
from sacorpus.spiders.sources.wayback_windows import Query, WaybackSource


class WaybackHomepageSource(WaybackSource):
    name = "wayback_homepage"
    mode = "homepage"
    collapse = "digest"

    def queries(self) -> list[Query]:
        wb = self.publication.sources.wayback
        assert wb is not None and wb.homepage
        return [(f"homepage:{wb.homepage}", wb.homepage, "exact")]

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        if "sacorpus_homepage" in response.meta:  # a homepage version, not a CDX page
            async for request in self.parse_homepage(response):
                yield request
            return
        read = self.read_page(response)
        if read is None:
            return
        page, query, window = read
        captures = [
            *response.meta.get("sacorpus_homepage_captures", ()),
            *((c.timestamp, c.original, c.digest) for c in page.captures),
        ]
        if page.resume_key:  # homepage windows are recorded whole: the walk-back needs every capture
            yield self.cdx_request(query, window, page.resume_key, captures)
            return
        for request in self.walk_back_requests(captures, window, response.url):
            yield request
        await self.sources.windows.record_page(query[0], window, None)

    def walk_back_requests(
        self, captures: list[tuple[str, str, str | None]], window: tuple[date, date], source_url: str
    ) -> Iterable[Request]:
        """Homepage versions from the window's end back to its start, one per distinct content digest."""
        pool = [
            wayback.Capture(urlkey="", timestamp=ts, original=original, digest=digest, statuscode=200)
            for ts, original, digest in captures
        ]
        end = datetime.combine(window[1], time(23, 59, 59), tzinfo=UTC)
        for capture in walk_back(pool, end, stop=window[0]):
            self.stats.inc_value("sacorpus/source/wayback/homepage_versions")
            yield self.request(
                capture.memento(self.base),
                "wayback",
                priority=3,
                dont_filter=False,
                sacorpus_source_url=source_url,
                sacorpus_homepage=(capture.timestamp, capture.original),
            )

    async def parse_homepage(self, response: Response) -> AsyncIterator[Request]:
        """A raw homepage capture: its article links become captures near the homepage's time."""
        timestamp, original = response.meta["sacorpus_homepage"]
        memento = wayback.parse_memento_url(response.url)
        if memento:
            timestamp = memento[0].ljust(14, "0")
        capture = wayback.Capture(urlkey="", timestamp=timestamp, original=original)
        links = homepage_links(response.body, capture, accept=self.spider.policy.is_article, base=self.base)
        self.stats.inc_value("sacorpus/source/wayback/homepage_links", len(links))
        wanted: dict[str, tuple[str, str, str]] = {}
        for link in links:
            parsed = wayback.parse_memento_url(link)
            if parsed:
                url = canonicalize(parsed[1])
                wanted.setdefault(url, (url, parsed[0], parsed[1]))
        async for request in self.article_requests(list(wanted.values()), response.url):
            yield request
