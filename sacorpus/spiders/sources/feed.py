"""RSS/Atom/JSON feeds: polled with conditional GET; each entry's metadata travels with its article."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from scrapy.http import Request, Response

from sacorpus.sources import feeds
from sacorpus.sources.dates import in_window
from sacorpus.spiders.sources.base import Source

logger = logging.getLogger(__name__)

THREAD_FEED_BYTES = 256 * 1024  # feeds larger than this are parsed off the reactor thread


def headers_as_text(response: Response) -> dict[str, str]:
    """Response headers as str -> str (last value wins), so the item stays JSON-serialisable."""
    out: dict[str, str] = {}
    for key, values in response.headers.items():
        if values:
            out[key.decode("latin-1").lower()] = values[-1].decode("latin-1")
    return out


class FeedSource(Source):
    name = "feed"
    argument = "feeds"

    def configured(self) -> bool:
        return bool(self.publication.sources.feeds)

    async def start(self) -> AsyncIterator[Request]:
        for url in self.publication.sources.feeds:
            yield await self.sources.polls.conditional(self.request(url, "feed"), "feed")

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        polls, spider = self.sources.polls, self.spider
        if response.status == 304:
            await polls.record(response, ())
            return
        # at most SACORPUS_FEED_MAX_ITEMS items; a long feed is parsed in a worker thread, so that it
        # does not hold up the downloads of the other sources (a short one is not worth the hand-off)
        args = (
            response.body,
            spider.logical_url(response.url),
            headers_as_text(response),
            spider.settings.getint("SACORPUS_FEED_MAX_ITEMS"),
        )
        if len(response.body) > THREAD_FEED_BYTES:
            result = await asyncio.to_thread(feeds.parse_feed, *args)
        else:
            result = feeds.parse_feed(*args)
        await polls.record(response, [e.guid or e.url or "" for e in result.entries])
        self.stats.inc_value("sacorpus/source/feed/documents")
        if result.bozo:
            self.stats.inc_value("sacorpus/source/feed/bozo")
            logger.warning(
                "feed %s is ill-formed (%s); using what could be read", response.url, result.problem
            )
        candidates = []
        for entry in result.entries:
            if not entry.url or not in_window(entry.published, spider.since, spider.until):
                continue
            fallback = {
                "title": entry.title,
                "published": entry.published,
                "published_raw": entry.published_raw,
                "authors": list(entry.authors),
                "guid": entry.guid,
                "summary": entry.summary,
                "language": entry.language,
            }
            candidates.append((entry.url, fallback))
        self.stats.inc_value("sacorpus/source/feed/entries", len(candidates))
        async for request in spider.article_requests(candidates, "feed", response):
            yield request
