"""Stage 300, the page stage: raw response to article fields through the one page core.

Gzip, decoding, pre-cleaning and extraction are the steps of :func:`sacorpus.text.page.process_page`,
the same function ``scrapy evaluate`` and ``scrapy reextract`` call, so what is measured is what a crawl
stores. ``SACORPUS_EXTRACT_ENABLED`` switches the stage off; ``SACORPUS_GZIP_ENABLED`` and
``SACORPUS_PRECLEAN_ENABLED`` switch its decompression and pre-cleaning steps.

The rules come from the item's own publication (``item.publication``, a slug), so a Wayback capture, a
re-extracted record or a distributed worker's item find them without asking the spider: the
publications the crawl knows (the spider's, registered when it opens) first, then the shipped files.
Each step's problems are noted on the item (``gzip:truncated``, ``extract:fallback-extractor``) and
counted under ``sacorpus/<step>/...``; nothing is dropped.
"""

from __future__ import annotations

from typing import Any

from scrapy import signals

from sacorpus import settings as defaults
from sacorpus.items import Article
from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.publications import Publication, PublicationRegistry
from sacorpus.sources.wayback import wayback_date
from sacorpus.text.boilerplate import PublicationHistories
from sacorpus.text.page import PageOptions, process_page


def apply_page(item: Article, fields: dict[str, Any]) -> None:
    """Copy the page core's fields onto an item; anchors go to ``fallback`` for the tokenize stage."""
    anchors = fields.pop("anchors", None)
    if item.canonical_url:
        fields.pop("canonical_url", None)  # the spider's own canonical (a mirror's target) wins
    for name, value in fields.items():
        setattr(item, name, value)
    if anchors is not None:
        item.fallback["anchors"] = anchors


class PagePipeline:
    """Fills body (decompressed), html (H), encoding, text (C), title (T), authors, dates (D), section,
    tags, canonical URL, page type, extractor and rule version; counts page types and problems."""

    def __init__(self, options: PageOptions | None = None, stats: Any = None) -> None:
        self.options = options or PageOptions()
        self.publications = PublicationRegistry()
        self.histories = PublicationHistories()  # per publication: lines it repeats across pages
        self.count = Counter(stats, "sacorpus")

    @classmethod
    def from_crawler(cls, crawler: Any) -> PagePipeline:
        require_enabled(crawler, "extract")
        settings = crawler.settings
        options = PageOptions(
            decompress=settings.getbool("SACORPUS_GZIP_ENABLED", defaults.SACORPUS_GZIP_ENABLED),
            preclean=settings.getbool("SACORPUS_PRECLEAN_ENABLED", defaults.SACORPUS_PRECLEAN_ENABLED),
            max_bytes=settings.getint("SACORPUS_GZIP_MAX_BYTES", defaults.SACORPUS_GZIP_MAX_BYTES),
        )
        pipeline = cls(options, crawler.stats)
        pipeline.publications = PublicationRegistry.from_settings(settings)
        crawler.signals.connect(pipeline.spider_opened, signal=signals.spider_opened)
        spider = getattr(crawler, "spider", None)
        if spider is not None:
            pipeline.spider_opened(spider)
        return pipeline

    def spider_opened(self, spider: Any) -> None:
        publication = getattr(spider, "publication", None)
        if isinstance(publication, Publication):
            self.publications.add(publication)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article):
            return item
        if item.html is None and not item.body:
            self.count.inc(f"extract/page_type/{item.page_type}")
            return item
        publication = self.publications.get(item.publication)
        result = process_page(
            item.body,
            item.headers,
            item.url,
            publication,
            wayback_date(item.wayback_timestamp),
            html=item.html,
            fallback=item.fallback,
            options=self.options,
            history=self.histories.of(item.publication),
        )
        apply_page(item, result.article_fields(item.final_url or item.url))
        for problem in result.problems:
            item.note(problem)
        for key, n in result.counters():
            self.count.inc(key, n)
        return item
