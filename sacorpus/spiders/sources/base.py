"""What every source kind shares: the requests it makes and the spider it works for.

A source object turns a publication and the run's arguments into requests (:meth:`Source.start`)
and reads the answers (:meth:`Source.parse`) with the pure parsers of :mod:`sacorpus.sources`.
Scrapy stores queued requests on disk (JOBDIR), which keeps only callbacks that are spider methods:
every source request therefore goes to the spider's ``parse_source``, which hands the response back
to the source named in ``meta["sacorpus_handler"]``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.http import Request, Response

from sacorpus.publications import Publication

if TYPE_CHECKING:
    from sacorpus.spiders.base import PublicationSpider
    from sacorpus.spiders.sources import SourceSet


class Source:
    """One kind of source. Subclasses set ``name`` (registry key) and ``argument`` (the kind named in
    ``-a sources=...``), and implement :meth:`configured`, :meth:`start` and :meth:`parse`."""

    name: ClassVar[str] = ""
    argument: ClassVar[str] = ""

    def __init__(self, spider: PublicationSpider, sources: SourceSet) -> None:
        self.spider = spider
        self.sources = sources  # the spider's other sources and what they share (poll state, windows)

    @property
    def publication(self) -> Publication:
        return self.spider.publication

    @property
    def stats(self) -> Any:
        return self.spider.crawler.stats

    def configured(self) -> bool:
        """Whether the publication gives this source anything to fetch."""
        raise NotImplementedError

    def start(self) -> AsyncIterator[Request]:
        """The requests this source starts the crawl with."""
        raise NotImplementedError

    def parse(self, response: Response) -> AsyncIterator[Any]:
        """Requests (and items) from one answer of this source."""
        raise NotImplementedError

    def request(
        self, url: str, kind: str, *, priority: int = 10, dont_filter: bool = True, **meta: Any
    ) -> Request:
        """A request this source handles; feeds, sitemaps and sections are never filtered as seen
        (they are polled again)."""
        return Request(
            url,  # the publication's URL: MirrorMiddleware maps it to base_url when it is downloaded
            callback=self.spider.parse_source,
            errback=self.spider.source_failed,
            dont_filter=dont_filter,
            priority=priority,
            meta={"sacorpus_source": kind, "sacorpus_source_url": url, "sacorpus_handler": self.name, **meta},
        )
