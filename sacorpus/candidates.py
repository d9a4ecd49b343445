"""The source-candidate extension: other sites' feeds and sitemaps that crawled pages link to.

Why an extension on ``item_scraped`` and ``spider_closed``: every stored article has passed the page
core by then, so its decoded HTML is on the item, and the sightings of a whole run are merged into the
crawl's store in one batch at the end, while the store is still open (connected before the shared
store's ``spider_closed``, as the health record is). Nothing is fetched: candidates are only recorded,
for ``scrapy sources --candidates``. A run holds at most ``SACORPUS_CANDIDATES_MAX`` distinct ones;
sightings past that are counted, not kept. When the store cannot take them, they are appended to
``<the store's spill file>.candidates`` and merged, exactly once, by the next run that can write.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus.precomputed import Precomputed
from sacorpus.sources.candidates import find_candidates, not_owned
from sacorpus.sources.dates import utc_now_iso
from sacorpus.storage.base import RunState, StorageError
from sacorpus.storage.shared import SharedStore
from sacorpus.storage.spill_lines import decode_spill_record, write_spill

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
        own = _owner(spider, publication)
        links = Precomputed.of(self.crawler).source_links(item, html)  # a page worker's reading of it
        found = not_owned(links, own) if links is not None else find_candidates(str(html), url, own)
        for candidate in found:
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
        try:
            shared = SharedStore.of(self.crawler)
        except NotConfigured:
            return  # an export-only crawl keeps no store
        if not shared.needed():
            return
        spill = f"{shared.store.spill_path}.candidates" if shared.store and shared.store.spill_path else None
        outcome, n = record_candidates(shared.open, list(self.sightings.values()), spill)
        if n:
            self.crawler.stats.set_value(f"{STATS}/{outcome}", n)


def _owner(spider: Any, publication: Any) -> Callable[[str], bool]:
    """Hosts that are the publication's own: its domains, and the mirror a run fetches it from
    (``base_url``: the mirror's pages link to the mirror)."""
    base = getattr(spider, "source_base", None)
    mirror = (urlsplit(base).hostname or "").lower() if base else None
    return lambda host: host == mirror or bool(publication.owns(host))


def record_candidates(
    open_store: Callable[[], RunState], sightings: list[dict[str, Any]], spill: str | None
) -> tuple[str, int]:
    """Merge ``sightings`` and those an earlier run spilled into the store; on a storage failure append
    this run's to the spill file. Returns (``recorded`` | ``spilled`` | ``lost``, how many)."""
    earlier = _read_spill(spill)
    batch: list[Mapping[str, Any]] = [*earlier, *sightings]
    if not batch:
        return "recorded", 0
    try:
        open_store().add_source_candidates(batch)
    except StorageError as problem:
        try:
            if spill is None:
                raise OSError("the store has no spill file") from None
            write_spill(spill, sightings)
        except OSError as exc:
            logger.error("%d source candidates were lost (%s; spill: %s)", len(sightings), problem, exc)
            return "lost", len(sightings)
        logger.error("%d source candidates spilled to %s: %s", len(sightings), spill, problem)
        return "spilled", len(sightings)
    if earlier and spill:
        os.replace(spill, f"{spill}.imported-{int(time.time())}")
        logger.info("merged %d source candidates spilled by an earlier run", len(earlier))
    return "recorded", len(batch)


def _read_spill(path: str | None) -> list[dict[str, Any]]:
    """Sightings an earlier run spilled; a damaged line is skipped and counted in the log."""
    if not path or not os.path.isfile(path):
        return []
    out, bad = [], 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                out.append(decode_spill_record(line))
            except ValueError:
                bad += 1
    if bad:
        logger.warning("%s: %d damaged lines skipped", path, bad)
    return out


__all__ = ["SourceCandidates", "record_candidates"]
