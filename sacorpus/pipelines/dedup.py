"""Stage 600: label near-duplicates at ingest (sacorpus.text.dedup against the store's index).

Why its own store instance and one worker thread: index lookups and updates block (sqlite3,
pymongo) and must be serialised so that article n+1 sees article n in the index, exactly as
``scrapy dedup --rebuild`` replays them. Nothing is dropped: the item gets ``text_hash``,
``dedup_label`` (duplicate | similar | unique) and ``dedup_evidence`` ([{url, score, shared, kind}]).
The earliest published copy of a story is the ``unique`` one: when an original arrives after copies
of it, the copies are relabelled (``sacorpus/dedup/relabelled``), in the store once their rows are
written. Items without text are passed on unlabelled (``sacorpus/dedup/no_text``); a store failure leaves
the item unlabelled with the problem ``dedup:store-error`` (``sacorpus/dedup/errors``). An index that a
``dedup --rebuild`` left incomplete is rebuilt when the crawl opens (``sacorpus/dedup/index_rebuilt``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from itemadapter import ItemAdapter

from sacorpus import settings as defaults
from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, enabled_store
from sacorpus.pipelines.store import SerialWorker
from sacorpus.publications import PublicationRegistry
from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.storage.shared import SharedStore
from sacorpus.storage.spill import UPDATE_KEY
from sacorpus.storage.spill_lines import write_spill
from sacorpus.text.dedup import DedupConfig, DedupResult
from sacorpus.text.dedup_labels import Labeller, label_unlabelled
from sacorpus.text.dedup_rebuild import finish_unfinished_rebuild

logger = logging.getLogger(__name__)


class _CoolingOff(Exception):
    """Raised on the worker thread for an item queued while the index was found unreachable."""


def apply_result(item: Any, result: DedupResult) -> None:
    adapter = ItemAdapter(item)
    adapter["text_hash"] = result.fingerprint.text_hash
    adapter["dedup_label"] = result.label
    adapter["dedup_evidence"] = result.evidence


class DedupPipeline:
    def __init__(
        self, shared: SharedStore, config: DedupConfig, stats: Any = None, cooloff: float = 30.0
    ) -> None:
        assert shared.store is not None
        self.shared = shared
        self.store: ArticleStore = shared.store
        self.config = config
        self.cooloff = cooloff
        self.count = Counter(stats, "sacorpus/dedup")
        self.crawler: Any = None
        self._worker = SerialWorker("sacorpus-dedup")
        self._down_until = 0.0  # after a store error: items pass unlabelled at once until then
        self.publications = PublicationRegistry()  # each item's id_pattern gives its slug evidence
        self._labeller: Labeller | None = None  # made on the worker thread with the opened store
        self._deferred = 0

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
        cooloff = crawler.settings.getfloat(
            "SACORPUS_STORE_COOLOFF_SECONDS", defaults.SACORPUS_STORE_COOLOFF_SECONDS
        )
        pipe = cls(shared, config, crawler.stats, cooloff)
        pipe.publications = PublicationRegistry.from_settings(crawler.settings)
        pipe.crawler = crawler
        return pipe

    async def open_spider(self) -> None:
        """Label what earlier runs left unlabelled (an outage, a spill re-import) before new items."""
        await self._catch_up("open")

    async def _catch_up(self, when: str) -> None:
        try:
            labels = await self._worker.run(self._label_unlabelled, when == "open")
        except StorageError as exc:
            # the shared store reports an unusable store (and stops the run at the start)
            logger.debug("dedup catch-up at %s not possible: %s", when, exc)
            return
        if labels:
            self.count.inc("caught_up", sum(labels.values()))
            logger.info(
                "dedup: labelled %d stored articles that had no label (%s)",
                sum(labels.values()),
                ", ".join(f"{k} {v}" for k, v in labels.most_common()),
            )

    def _label_unlabelled(self, opening: bool) -> Any:
        """When the crawl opens, an index a ``dedup --rebuild`` left incomplete is rebuilt first (labels
        given against it could call a copy ``unique``; only then: at close a rebuild seen running may
        be another process's); then the rows without a label are labelled."""
        store = self.shared.open()
        settings = self.crawler.settings if self.crawler is not None else None
        if opening and finish_unfinished_rebuild(store, self.config, settings):
            self.count.inc("index_rebuilt")
        return label_unlabelled(store, self.config, self.publications)

    async def process_item(self, item: Any) -> Any:
        if isinstance(item, Comment):
            return item  # comments are not near-duplicates of articles; they are kept by their url
        if time.monotonic() < self._down_until:
            return self._defer(item)
        try:
            result = await self._worker.run(self._label, item)
        except _CoolingOff:
            return self._defer(item)
        except StorageError as exc:
            self._down_until = time.monotonic() + self.cooloff
            self._deferred += 1
            self.count.inc("errors")
            if hasattr(item, "note"):
                item.note("dedup:store-error")
            logger.warning("dedup of %s failed (labelled later): %s", ItemAdapter(item).get("url"), exc)
            return item
        if result is None:
            self.count.inc("no_text")
            return item
        apply_result(item, result)
        self.count.inc(result.label)
        return item

    def _defer(self, item: Any) -> Any:
        """The index was unreachable a moment ago: do not make every item wait for a timeout; the row
        is labelled when the index is back (at close, or when the store next opens)."""
        self._deferred += 1
        self.count.inc("deferred")
        if hasattr(item, "note"):
            item.note("dedup:deferred")
        return item

    def _labeller_for(self, store: ArticleStore) -> Labeller:
        if self._labeller is None or self._labeller.store is not store:
            self._labeller = Labeller(store, self.config, self.publications)
        return self._labeller

    def _label(self, item: Any) -> DedupResult | None:
        if time.monotonic() < self._down_until:
            # queued behind the call that failed: each queued item would wait for its own timeout
            raise _CoolingOff
        try:
            labeller = self._labeller_for(self.shared.open())
            before = labeller.relabelled
            result = labeller.label(item, keep_unchanged=True)
        except StorageError:
            # set here, on the worker thread: the items queued behind this one are deferred at once
            # (one warning per outage, not one per queued item)
            self._down_until = time.monotonic() + self.cooloff
            raise
        if labeller.relabelled > before:
            self.count.inc("relabelled", labeller.relabelled - before)
        moves, labeller.moves = labeller.moves, []
        for old, new in moves:  # the label counts say how the articles stand now, not how they arrived
            self.count.inc(old, -1)
            self.count.inc(new)
        return result

    async def close_spider(self) -> None:
        if self._deferred or (self._labeller is not None and self._labeller.pending):
            await self._wait_for_stored_items()
        if self._labeller is not None and self._labeller.pending:
            await self._worker.run(self._write_pending)
        if self._deferred:
            await self._catch_up("close")
        self._worker.stop()  # the shared store is closed by SharedStore when the spider has closed

    def _write_pending(self) -> None:
        """Relabels of copies whose rows were not written (spilled in an outage) go to the spill file,
        after those rows, so the re-import restores the copy and then its new label."""
        assert self._labeller is not None
        self._labeller.flush_pending()
        pending = self._labeller.pending
        if not pending or not self.store.spill_path:
            return
        updates = [{"url": url, UPDATE_KEY: fields} for url, fields in pending.items()]
        try:
            write_spill(self.store.spill_path, updates)
        except OSError as exc:
            self.count.inc("relabels_lost", len(updates))
            logger.error("LOST %d relabels (run scrapy dedup --rebuild): %s", len(updates), exc)
            return
        self.count.inc("relabels_spilled", len(updates))
        pending.clear()

    async def _wait_for_stored_items(self) -> None:
        """The store stage (900) closes after this one: flush it first so the deferred rows exist."""
        from sacorpus.pipelines.store import StorePipeline

        store_stage = self.crawler.get_item_pipeline(StorePipeline) if self.crawler is not None else None
        if store_stage is not None:
            await store_stage.flush()
