"""The crawl-health extension: at the end of each run, one health record per publication in the
store and a summary with its alarms in the log.

Why an extension on ``spider_closed`` connected before the shared store's: the record must be written
while the crawl's one store is still open (the item pipelines have flushed by then), and the log
summary must appear once per run whatever stages are switched off. The write is one small record at
the end of the run, so it is made in place rather than queued.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus.health.alarms import alarms
from sacorpus.health.record import health_record, overdue_feeds
from sacorpus.storage.base import StorageError
from sacorpus.storage.shared import SharedStore
from sacorpus.verdict import REFUSED

logger = logging.getLogger(__name__)

NOT_WRITTEN = "sacorpus/health/not_written"


class CrawlHealth:
    def __init__(self, crawler: Any, short_chars: int, short_share: float, history: int) -> None:
        self.crawler = crawler
        self.short_chars = short_chars
        self.short_share = short_share
        self.history = history
        self.short_texts = 0
        self.problems: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlHealth:
        settings = crawler.settings
        if not settings.getbool("SACORPUS_HEALTH_ENABLED"):
            raise NotConfigured("SACORPUS_HEALTH_ENABLED is off")
        ext = cls(
            crawler,
            settings.getint("SACORPUS_HEALTH_SHORT_TEXT_CHARS"),
            settings.getfloat("SACORPUS_HEALTH_SHORT_SHARE"),
            settings.getint("SACORPUS_HEALTH_HISTORY_RUNS"),
        )
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def item_scraped(self, item: Any) -> None:
        """Count empty or very short texts (a bot wall or paywall page) and problems by kind."""
        adapter = ItemAdapter(item)
        text = adapter.get("text") if "text" in adapter.field_names() else None
        if len(str(text or "").strip()) < self.short_chars:
            self.short_texts += 1
        for problem in adapter.get("problems") or () if "problems" in adapter.field_names() else ():
            self.problems[":".join(str(problem).split(":")[:2])] += 1

    def _store(self) -> Any:
        """The crawl's store when this run writes one (not for an export-only crawl), else None."""
        try:
            shared = SharedStore.of(self.crawler)
        except NotConfigured:
            return None
        return shared.open() if shared.needed() else None

    def spider_closed(self, spider: Any, reason: str) -> None:
        stats = dict(self.crawler.stats.get_stats())
        if stats.get(REFUSED):  # refused (another run is running, the store is unusable): no run to report
            return
        stats.setdefault("finish_reason", reason)
        stats.setdefault("finish_time", datetime.now(UTC))
        publication = getattr(getattr(spider, "publication", None), "slug", None) or spider.name
        feeds = getattr(getattr(getattr(spider, "publication", None), "sources", None), "feeds", ())
        items = {"short_texts": self.short_texts, "problems": dict(self.problems)}
        try:
            store = self._store()
            states = {url: store.get_state(f"poll:{url}") or {} for url in feeds} if store else {}
            now = datetime.now(UTC)
            record = health_record(
                stats,
                publication=publication,
                spider=spider.name,
                items=items,
                feeds=overdue_feeds(states, now),
            )
            earlier = store.run_records(publication, self.history) if store else []
            if store is not None:
                store.add_run_record(record)
        except StorageError as exc:
            logger.error("the health record of this run could not be written: %s", exc)
            self.crawler.stats.set_value(NOT_WRITTEN, str(exc))
            record = health_record(stats, publication=publication, spider=spider.name, items=items)
            earlier = []
        self.report(record, earlier)

    def report(self, record: dict[str, Any], earlier: list[dict[str, Any]]) -> None:
        logger.info("%s", summary(record))
        found = alarms(record, earlier, short_share=self.short_share)
        self.crawler.stats.set_value("sacorpus/health/alarms", len(found))
        for line in found:
            logger.warning("health alarm for %s: %s", record["publication"], line)


def _counts(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in sorted(values.items())) or "none"


def summary(record: dict[str, Any]) -> str:
    """The health summary of one run, as the log shows it."""
    return "\n".join(
        [
            f"crawl health of {record['publication']} ({record['finish_reason']})",
            f"  requests: {record['requests']}  responses: {record['responses']} "
            f"({_counts(record['responses_by_status'])})  download errors: {record['fetch_errors']}",
            f"  articles: new {record['articles_new']}, updated {record['articles_updated']}, "
            f"unchanged {record['articles_unchanged']} (new entries in sources: {record['new_entries']})",
            f"  dropped: {_counts(record['dropped'])}",
            f"  extraction problems: {_counts(record['extraction_problems'])}",
            f"  rules distrusted: {_counts(record['rules_distrusted'])}",
            f"  empty or short texts: {record['short_texts']}  duplicates: {record['duplicates']}"
            f"  similar: {record['similar']}",
            f"  overdue feeds: {', '.join(f['url'] for f in record['overdue_feeds']) or 'none'}",
        ]
    )


__all__ = ["NOT_WRITTEN", "CrawlHealth", "summary"]
