"""robots.txt as a source: the sitemaps it names (or, when it names none, the standard locations)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urljoin

from scrapy.http import Request, Response

from sacorpus.sources import sitemaps
from sacorpus.spiders.sources.base import Source


class RobotsSource(Source):
    name = "robots"
    argument = "robots"

    def configured(self) -> bool:
        return self.publication.sources.robots

    async def start(self) -> AsyncIterator[Request]:
        yield self.request(urljoin(self.publication.home, "/robots.txt"), "sitemap")

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        text = response.text if hasattr(response, "text") else response.body.decode("utf-8", "replace")
        found = sitemaps.sitemaps_from_robots(text, self.spider.logical_url(response.url))
        if not found:  # robots.txt names no sitemap: the standard locations not requested already are tried
            src = self.publication.sources
            listed = (
                *(src.sitemaps if self.spider.wants("sitemaps") else ()),
                *(src.news_sitemaps if self.spider.wants("news_sitemaps") else ()),
            )
            found = sitemaps.standard_sitemaps(self.publication.home, listed)
            self.stats.inc_value("sacorpus/source/sitemap/standard_locations_tried", len(found))
        walker = self.sources.get("sitemap")
        for url in walker.within_budget(list(found), None, response):
            yield await walker.sitemap_request(url, "sitemap", 0)
