"""The source-candidate extension: other sites' feeds and sitemaps that crawled pages link to.

Why an extension on ``item_scraped`` and ``spider_closed``: every stored article has passed the page
core by then, so its decoded HTML is on the item, and the sightings of a whole run are merged into the
crawl's store in one batch at the end, while the store is still open (connected before the shared
store's ``spider_closed``, as the health record is). Nothing is fetched: candidates are only recorded,
for ``scrapy sources --candidates``. A run holds at most ``SACORPUS_CANDIDATES_MAX`` distinct ones;
sightings past that are counted, not kept.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus.sources.candidates import find_candidates
from sacorpus.sources.dates import utc_now_iso
from sacorpus.storage.base import StorageError
from sacorpus.storage.shared import SharedStore

logger = logging.getLogger(__name__)

STATS = "sacorpus/candidates"


class SourceCandidates:
    def __init__(self, crawler: Any, limit: int) -> None:
        self.crawler = crawler
        self.limit = limit
        self.sightings: dict[str, dict[str, Any]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> SourceCandidates:
        if not crawler.settings.getbool("SACORPUS_CANDIDATES_ENABLED"):
            raise NotConfigured("SACORPUS_CANDIDATES_ENABLED is off")
        ext = cls(crawler, crawler.settings.getint("SACORPUS_CANDIDATES_MAX"))
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def item_scraped(self, item: Any, spider: Any) -> None:
        adapter = ItemAdapter(item)
        html = adapter.get("html") if "html" in adapter.field_names() else None
        url = str(adapter.get("url") or "")
        publication = getattr(spider, "publication", None)
        if not html or not url or publication is None:
            return
        now = utc_now_iso()
        for candidate in find_candidates(str(html), url, publication.owns):
            seen = self.sightings.get(candidate.url)
            if seen is not None:
                seen["count"] += 1
                seen["last_seen"] = now
                continue
            if len(self.sightings) >= self.limit:
                self.crawler.stats.inc_value(f"{STATS}/over_limit")
                continue
            self.crawler.stats.inc_value(f"{STATS}/{candidate.kind}")
            self.sightings[candidate.url] = {
                "url": candidate.url,
                "kind": candidate.kind,
                "host": candidate.host,
                "count": 1,
                "first_seen": now,
                "last_seen": now,
                "seen_on": url,
                "publication": publication.slug,
            }

    def spider_closed(self, spider: Any) -> None:
        """One batch into the crawl's store (in place: one write at the end, as the health record)."""
        if not self.sightings:
            return
        try:
            shared = SharedStore.of(self.crawler)
        except NotConfigured:
            return  # an export-only crawl keeps no store
        if not shared.needed():
            return
        try:
            shared.open().add_source_candidates(list(self.sightings.values()))
        except StorageError as exc:
            logger.error("%d source candidates of this run were not recorded: %s", len(self.sightings), exc)
            self.crawler.stats.set_value(f"{STATS}/not_written", len(self.sightings))
            return
        self.crawler.stats.set_value(f"{STATS}/recorded", len(self.sightings))


__all__ = ["SourceCandidates"]
