"""Section and home pages: the links on them that look like this publication's articles."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from scrapy.http import Request, Response

from sacorpus.spiders.sources.base import Source


class SectionSource(Source):
    name = "section"
    argument = "start_urls"

    def configured(self) -> bool:
        return bool(self.publication.sources.start_urls)

    async def start(self) -> AsyncIterator[Request]:
        for url in self.publication.sources.start_urls:
            yield self.request(url, "link")

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        candidates: list[tuple[str, dict[str, Any]]] = [
            (url, {}) for url in self.spider.links_to_follow(response)
        ]
        async for request in self.spider.article_requests(candidates, "link", response):
            yield request
