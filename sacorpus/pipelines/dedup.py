"""Stage 600: label near-duplicates at ingest (sacorpus.text.dedup against the store's index).

Why its own store instance and one worker thread: index lookups and updates block (sqlite3,
pymongo) and must be serialised so that article n+1 sees article n in the index, exactly as
``scrapy dedup --rebuild`` replays them. Nothing is dropped: the item gets ``text_hash``,
``dedup_label`` (duplicate | similar | unique) and ``dedup_evidence`` ([{url, score, shared, kind}]).
Items without text are passed on unlabelled (``sacorpus/dedup/no_text``); a store failure leaves
the item unlabelled with the problem ``dedup:store-error`` (``sacorpus/dedup/errors``).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from itemadapter import ItemAdapter

from sacorpus.pipelines._common import Counter, enabled_store
from sacorpus.pipelines.store import SerialWorker
from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.storage.shared import SharedStore
from sacorpus.text.dedup import DedupConfig, DedupResult
from sacorpus.text.dedup_labels import RECENT_LABELS, dedup_record

logger = logging.getLogger(__name__)


def apply_result(item: Any, result: DedupResult) -> None:
    adapter = ItemAdapter(item)
    adapter["text_hash"] = result.fingerprint.text_hash
    adapter["dedup_label"] = result.label
    adapter["dedup_evidence"] = result.evidence


class DedupPipeline:
    def __init__(self, shared: SharedStore, config: DedupConfig, stats: Any = None) -> None:
        assert shared.store is not None
        self.shared = shared
        self.store: ArticleStore = shared.store
        self.config = config
        self.count = Counter(stats, "sacorpus/dedup")
        self.crawler: Any = None
        self._worker = SerialWorker("sacorpus-dedup")
        self._store_ok = False
        self._recent: OrderedDict[str, tuple[str | None, str, list]] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Any) -> DedupPipeline:
        shared = enabled_store(crawler, "dedup", "dedup needs a store")
        store = shared.store
        assert store is not None
        config = DedupConfig.from_settings(crawler.settings)
        if config.max_articles_per_sentence >= store.dedup_max_ids:
            logger.warning(
                "SACORPUS_DEDUP_MAX_ARTICLES_PER_SENTENCE=%d >= SACORPUS_DEDUP_MAX_IDS=%d: raise the latter",
                config.max_articles_per_sentence,
                store.dedup_max_ids,
            )
        pipe = cls(shared, config, crawler.stats)
        pipe.crawler = crawler
        return pipe

    async def open_spider(self) -> None:
        try:
            await self._worker.run(self.shared.open)
            self._store_ok = True
        except StorageError as exc:
            logger.error(
                "dedup store %r cannot be opened; items pass unlabelled until it can: %s", self.store, exc
            )

    async def process_item(self, item: Any) -> Any:
        try:
            result = await self._worker.run(self._label, item)
        except StorageError as exc:
            self.count.inc("errors")
            adapter = ItemAdapter(item)
            if hasattr(item, "note"):
                item.note("dedup:store-error")
            logger.warning("dedup of %s failed: %s", adapter.get("url"), exc)
            return item
        if result is None:
            self.count.inc("no_text")
            return item
        apply_result(item, result)
        self.count.inc(result.label)
        return item

    def _label(self, item: Any) -> DedupResult | None:
        if not self._store_ok:
            self.shared.open()
            self._store_ok = True
        result = dedup_record(self.store, item, self.config, keep_unchanged=True, recent=self._recent)
        if result is not None:
            url = ItemAdapter(item).get("url")
            self._recent[url] = (result.fingerprint.text_hash, result.label, result.evidence)
            self._recent.move_to_end(url)
            while len(self._recent) > RECENT_LABELS:
                self._recent.popitem(last=False)
        return result

    async def close_spider(self) -> None:
        self._worker.stop()  # the shared store is closed by SharedStore when the spider has closed
