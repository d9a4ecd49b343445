"""Source kinds as objects, registered in ONE place: :data:`SOURCES`.

Each kind is a small class (:class:`~sacorpus.spiders.sources.base.Source`) that turns the
publication and the run's arguments into requests and reads its answers with the pure parsers in
:mod:`sacorpus.sources`. A new kind is one file here plus one line in :data:`SOURCES`; the order of
:data:`SOURCES` is the order in which a crawl starts them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from scrapy.http import Request, Response

from sacorpus.spiders.sources.base import Source
from sacorpus.spiders.sources.comments import CommentSource
from sacorpus.spiders.sources.feed import FeedSource
from sacorpus.spiders.sources.polling import Polls
from sacorpus.spiders.sources.robots import RobotsSource
from sacorpus.spiders.sources.section import SectionSource
from sacorpus.spiders.sources.sitemap import NewsSitemapSource, SitemapSource
from sacorpus.spiders.sources.wayback_cdx import WaybackCdxSource
from sacorpus.spiders.sources.wayback_homepage import WaybackHomepageSource
from sacorpus.spiders.sources.wayback_windows import WindowState

if TYPE_CHECKING:
    from sacorpus.spiders.base import PublicationSpider

#: every source kind, in the order a crawl starts them
SOURCES: tuple[type[Source], ...] = (
    FeedSource,
    NewsSitemapSource,
    SitemapSource,
    RobotsSource,
    SectionSource,
    WaybackCdxSource,
    WaybackHomepageSource,
    CommentSource,
)

#: the kinds ``-a sources=...`` can name (several classes may share one, as the two Wayback ones do)
SOURCE_KINDS: tuple[str, ...] = tuple(dict.fromkeys(cls.argument for cls in SOURCES))


class SourceSet:
    """The source objects of one crawl and what they share: poll states, sitemaps seen, Wayback windows."""

    def __init__(self, spider: PublicationSpider) -> None:
        self.spider = spider
        self.polls = Polls(spider)
        self.windows = WindowState(spider)
        self.sitemaps_seen: set[str] = set()  # the cycle guard of the sitemap walk, for the whole run
        self._by_name = {cls.name: cls(spider, self) for cls in SOURCES}

    def get(self, name: str) -> Any:
        return self._by_name[name]

    async def start(self) -> AsyncIterator[Request]:
        """The start requests of every source the publication configures and the run wants."""
        for source in self._by_name.values():
            if source.configured() and self.spider.wants(source.argument):
                async for request in source.start():
                    yield request

    def parse(self, response: Response) -> AsyncIterator[Any]:
        return self.get(response.meta["sacorpus_handler"]).parse(response)


__all__ = ["SOURCES", "SOURCE_KINDS", "Source", "SourceSet"]
