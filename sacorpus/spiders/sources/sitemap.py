"""Sitemaps and news sitemaps (Scrapy's SitemapSpider is the model): polled with conditional GET;
indexes are walked by :func:`sacorpus.sources.sitemap_index.next_sitemaps`, the one code path with the
depth limit, the cycle guard and the date-window pruning."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

from scrapy.http import Request, Response

from sacorpus.sources import sitemaps
from sacorpus.sources.dates import in_window
from sacorpus.sources.sitemap_index import next_sitemaps
from sacorpus.spiders.sources.base import Source

logger = logging.getLogger(__name__)


class SitemapSource(Source):
    name = "sitemap"
    argument = "sitemaps"

    def urls(self) -> tuple[str, ...]:
        return self.publication.sources.sitemaps

    def configured(self) -> bool:
        return bool(self.urls())

    async def start(self) -> AsyncIterator[Request]:
        for url in self.urls():
            yield await self.sitemap_request(url, self.name, 0)

    async def sitemap_request(self, url: str, kind: str, depth: int) -> Request:
        """A conditional request for one sitemap, handled here whatever listed it (robots, an index)."""
        self.sources.sitemaps_seen.add(url)
        request = self.request(url, kind, sacorpus_depth=depth)
        return await self.sources.polls.conditional(request, kind)

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        polls, spider = self.sources.polls, self.spider
        if response.status == 304:
            await polls.record(response, ())
            return
        result = sitemaps.parse_sitemap(response.body, spider.logical_url(response.url))
        await polls.record(response, [*result.sitemaps, *(e.loc for e in result.entries)])
        self.stats.inc_value("sacorpus/source/sitemap/documents")
        if result.truncated_locs:
            self.stats.inc_value("sacorpus/source/sitemap/truncated_locs", result.truncated_locs)
        if result.problem:
            self.stats.inc_value("sacorpus/source/sitemap/problems")
            logger.warning("sitemap %s: %s", response.url, result.problem)
        kind = response.meta.get("sacorpus_source", "sitemap")
        for request in await self.children(result, response, kind):
            yield request
        candidates = []
        for entry in result.entries:
            if not in_window(entry.news_published or entry.lastmod, spider.since, spider.until):
                continue
            fallback = {
                "title": entry.news_title,
                "published": entry.news_published,
                "language": entry.news_language,
                "lastmod": entry.lastmod,
            }
            candidates.append((entry.loc, {k: v for k, v in fallback.items() if v}))
        kind = "news_sitemap" if any(e.news_published or e.news_title for e in result.entries) else kind
        self.stats.inc_value("sacorpus/source/sitemap/entries", len(candidates))
        async for request in spider.article_requests(candidates, kind, response):
            yield request

    async def children(self, result: sitemaps.SitemapResult, response: Response, kind: str) -> list[Request]:
        """Requests for the child sitemaps of an index not yet seen, not too deep, not outside the window."""
        spider, depth = self.spider, response.meta.get("sacorpus_depth", 0)
        # the publication's URLs (a mirror's index lists the mirror's): one key per sitemap for the
        # cycle guard and the poll state, whichever host served the index
        walk = replace(
            result,
            sitemaps=[spider.logical_url(u) for u in result.sitemaps],
            sitemap_lastmods={spider.logical_url(u): d for u, d in result.sitemap_lastmods.items()},
        )
        urls, skipped = next_sitemaps(
            walk,
            depth,
            self.sources.sitemaps_seen,
            max_depth=spider.settings.getint("SACORPUS_SITEMAP_MAX_DEPTH"),
            since=spider.since,
            until=spider.until,
        )
        for reason in skipped:
            if reason.startswith("depth limit"):
                self.stats.inc_value("sacorpus/source/sitemap/too_deep")
                logger.warning("sitemap index %s is nested deeper than %d; not followed", response.url, depth)
            else:
                self.stats.inc_value("sacorpus/source/sitemap/children_skipped")
                logger.debug("sitemap index %s: %s", response.url, reason)
        urls = self.within_budget(urls, walk.sitemap_lastmods, response)
        return [await self.sitemap_request(url, kind, depth + 1) for url in urls]

    def within_budget(
        self, urls: list[str], lastmods: dict[str, str] | None, response: Response
    ) -> list[str]:
        """The sitemap documents to fetch: newest first, within the run's budget (counted, logged)."""
        kept, left_out = self.spider.budget.children(urls, lastmods)
        if left_out:
            self.stats.inc_value("sacorpus/budget/sitemaps_left_out", left_out)
            logger.warning(
                "%s lists %d sitemaps; %d left out by the budget (SACORPUS_SITEMAP_MAX_CHILDREN / "
                "SACORPUS_SITEMAP_MAX_DOCUMENTS)",
                response.url,
                len(urls),
                left_out,
            )
        return kept


class NewsSitemapSource(SitemapSource):
    """Google News sitemaps: the same walk; their entries carry title, date and language."""

    name = "news_sitemap"
    argument = "news_sitemaps"

    def urls(self) -> tuple[str, ...]:
        return self.publication.sources.news_sitemaps
