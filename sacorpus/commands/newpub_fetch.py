"""The crawler ``scrapy newpub`` fetches through: one spider that runs the discovery in ``start()``.

Why a spider: downloads then pass the crawl's downloader middlewares (User-Agent, robots.txt, retries,
redirects, decompression, the address guard), so the command never fetches what a crawl would not.
The spider carries a provisional publication for the homepage's host: the address guard then keeps
discovery on that host (a feed link to another host, or to an internal address, is not fetched).
Nothing is stored: no item pipelines, no store, no JOBDIR.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import Request

from sacorpus.newpub.discover import DiscoveryError, Fetched, Finding, discover
from sacorpus.publications import Publication, Sources
from sacorpus.spiders.sources.feed import headers_as_text

logger = logging.getLogger(__name__)


class NewpubSpider(scrapy.Spider):
    name = "newpub"
    custom_settings: dict[str, Any] | None = {
        "ITEM_PIPELINES": {},
        "EXTENSIONS": {
            "sacorpus.health.extension.CrawlHealth": None,
            "sacorpus.runlock.RunLock": None,
            "sacorpus.storage.shared.SharedStore": None,
            "sacorpus.extensions.CrawlSummary": None,
        },
        "SACORPUS_STORE_ENABLED": False,
        "JOBDIR": None,
        "SACORPUS_JOBDIR_ROOT": None,
        "DUPEFILTER_CLASS": "scrapy.dupefilters.BaseDupeFilter",
        "SCHEDULER": "scrapy.core.scheduler.Scheduler",
    }

    def __init__(
        self, slug: str, home: str, samples: int, language: str | None, holder: dict[str, Any], **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.slug, self.home, self.samples, self.language = slug, home, samples, language
        self.holder = holder
        host = (urlsplit(home).hostname or "").lower().removeprefix("www.")
        self.publication = Publication(
            slug=slug,
            name=slug,
            home=home,
            domains=(host,),
            languages=("en",),
            sources=Sources(start_urls=(home,)),
        )

    async def fetch(self, url: str) -> Fetched | None:
        """One download through the middlewares; None (logged, counted) when it fails or is refused."""
        assert self.crawler.engine is not None and self.crawler.stats is not None
        try:
            response = await self.crawler.engine.download_async(Request(url, dont_filter=True))
        except Exception as exc:  # refused by robots.txt or the guard, DNS, timeouts: one line each
            self.crawler.stats.inc_value("sacorpus/newpub/fetch_failed")
            logger.info("newpub: %s not fetched: %s", url, exc)
            return None
        self.crawler.stats.inc_value("sacorpus/newpub/fetched")
        return Fetched(response.url, response.status, headers_as_text(response), response.body)

    async def start(self) -> AsyncIterator[Request]:
        try:
            found: Finding = await discover(
                self.slug, self.home, self.fetch, samples=self.samples, language=self.language
            )
            self.holder["finding"] = found
        except DiscoveryError as exc:
            self.holder["error"] = str(exc)
        return
        yield  # an async generator that yields nothing: the discovery is the whole run


__all__ = ["NewpubSpider"]
