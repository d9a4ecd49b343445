"""Stage 300: main text, metadata, anchors and page type (calls :func:`sacorpus.text.extract.extract_article`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from sacorpus.items import Article
from sacorpus.pipelines._common import Counter, publication_of, require_enabled, rules_for_item
from sacorpus.text.extract import extract_article


class ExtractPipeline:
    """Fills text (C), title (T), title_clean, authors, dates (D), section, tags, description,
    canonical_url, page_type, extractor, and ``fallback["anchors"]``: ``[anchor text, absolute href]``
    of the main content in order, which the tokenize stage turns into offsets (L). Nothing is dropped: galleries, videos, live
    blogs and short pages are labelled and counted as ``sacorpus/extract/page_type/<type>``."""

    def __init__(self, crawler: Any = None, preclean: bool = True) -> None:
        self.crawler = crawler
        self.preclean = preclean
        self.count = Counter(getattr(crawler, "stats", None), "sacorpus/extract")

    @classmethod
    def from_crawler(cls, crawler: Any) -> ExtractPipeline:
        require_enabled(crawler, "extract")
        return cls(crawler, preclean=crawler.settings.getbool("SACORPUS_PRECLEAN_ENABLED", True))

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article):
            return item
        if item.html is None:
            self.count.inc(f"page_type/{item.page_type}")
            return item
        publication = publication_of(self.crawler)
        rules = rules_for_item(publication, item)
        item.rule_version = item.rule_version or rules.version
        ex = extract_article(
            item.html,
            item.url,
            rules,
            item.fallback,
            site_name=getattr(publication, "name", None),
            preclean=self.preclean,
        )
        item.text = ex.text or None
        item.title = ex.title
        item.title_clean = ex.title_clean
        item.authors = ex.authors
        item.published_at, item.published_raw, item.modified_at = ex.published_at, ex.published_raw, ex.modified_at
        item.section, item.tags, item.description = ex.section, ex.tags, ex.description
        item.canonical_url = item.canonical_url or ex.canonical_url
        item.page_type = ex.page_type
        item.extractor = ex.extractor
        base = item.final_url or item.url
        item.fallback["anchors"] = [[text, urljoin(base, href) if base else href] for text, href in ex.anchors]
        for problem in ex.problems:
            item.note(f"extract:{problem}")
            self.count.inc(problem)
        if self.preclean:
            self.count.inc("hidden_removed", ex.hidden_removed)
            self.count.inc("filtered_removed", ex.filtered_removed)
        self.count.inc(f"page_type/{ex.page_type}")
        return item
