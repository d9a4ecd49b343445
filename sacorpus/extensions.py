"""Crawl-level extensions.

CrawlSummary ends every crawl with a short account of what was fetched and stored, grouped from the
``sacorpus/...`` stats the stages count, so a user sees at a glance how many articles landed, in which
languages, with which dedup labels, and which problems were met (and counted, never crashed on).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)


def summarize(stats: dict[str, Any]) -> str:
    """A plain-text summary of a crawl's stats (pure, so it is testable and reusable)."""
    groups: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for key, value in sorted(stats.items()):
        if not key.startswith("sacorpus/"):
            continue
        parts = key.split("/", 2)
        groups[parts[1]].append(("/".join(parts[2:]) or parts[1], value))
    lines = [
        "sacorpus crawl summary",
        f"  requests: {stats.get('downloader/request_count', 0)}  responses: {stats.get('downloader/response_count', 0)}"
        f"  articles scraped: {stats.get('item_scraped_count', 0)}  dropped: {stats.get('item_dropped_count', 0)}",
    ]
    for group, items in groups.items():
        shown = ", ".join(f"{name}={value}" for name, value in items)
        lines.append(f"  {group}: {shown}")
    return "\n".join(lines)


DISTRUSTED = "sacorpus/extract/rules-distrusted"


def distrusted_rules(stats: dict[str, Any]) -> list[str]:
    """Rules the page core did not trust on some pages (they would have removed most of the text)."""
    return [
        f"{key[len(DISTRUSTED) + 1 :]} on {value} page(s)"
        for key, value in sorted(stats.items())
        if key.startswith(DISTRUSTED) and value
    ]


class CrawlSummary:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlSummary:
        if not crawler.settings.getbool("SACORPUS_SUMMARY_ENABLED"):
            raise NotConfigured("SACORPUS_SUMMARY_ENABLED is off")
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_closed(self, spider: Any, reason: str) -> None:
        stats = self.crawler.stats.get_stats()
        logger.info("%s\n  finished: %s", summarize(stats), reason)
        distrusted = distrusted_rules(stats)
        if distrusted:
            logger.warning(
                "publication rules distrusted (the text without them was kept; fix the rule): %s",
                "; ".join(distrusted),
            )
