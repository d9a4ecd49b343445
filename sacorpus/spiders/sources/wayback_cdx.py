"""Wayback CDX listings: every capture of the publication's domains and URL prefixes, month by month."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from scrapy.http import Response

from sacorpus.sources import wayback
from sacorpus.sources.urls import canonicalize
from sacorpus.spiders.sources.wayback_windows import Query, WaybackSource


class WaybackCdxSource(WaybackSource):
    name = "wayback_cdx"
    mode = "cdx"

    def queries(self) -> list[Query]:
        """One query per domain and per prefix; prefixes inside a listed domain are covered by it."""
        wb = self.publication.sources.wayback
        assert wb is not None
        domains = [d.lower().strip(".") for d in wb.domains]
        out: list[Query] = [(f"domain:{d}", d, "domain") for d in domains]
        for prefix in wb.prefixes:
            host = (urlsplit(prefix if "://" in prefix else f"http://{prefix}").hostname or "").lower()
            if any(host == d or host.endswith("." + d) for d in domains):
                continue
            out.append((f"prefix:{prefix}", prefix, "prefix"))
        return out

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        read = self.read_page(response)
        if read is None:
            return
        page, query, window = read
        if page.resume_key:
            yield self.cdx_request(query, window, page.resume_key)
        by_url: dict[str, wayback.Capture] = {}
        for capture in page.captures:
            url = canonicalize(capture.original)
            if self.spider.policy.is_article(url):
                by_url.setdefault(url, capture)
            else:
                self.stats.inc_value("sacorpus/source/wayback/not_article")
        wanted = [(url, c.timestamp, c.original) for url, c in by_url.items()]
        async for request in self.article_requests(wanted, response.url):
            yield request
        await self.sources.windows.record_page(query[0], window, page.resume_key)
