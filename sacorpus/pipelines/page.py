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

import asyncio
import logging
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from scrapy import signals

from sacorpus import settings as defaults
from sacorpus.allocator import allocator_settings
from sacorpus.collector import collector_thresholds
from sacorpus.items import Article
from sacorpus.page_worker import WorkerSetup
from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.pipelines.workers import PageWorkers
from sacorpus.precomputed import Precomputed
from sacorpus.publications import Publication, PublicationRegistry
from sacorpus.sources.wayback import wayback_date
from sacorpus.text.analysis import MAX_PARAGRAPHS
from sacorpus.text.boilerplate import LineHistory, PublicationHistories
from sacorpus.text.page import PageOptions
from sacorpus.text.page_work import PageWork, RecordingHistory, observations, page_stage, replay

logger = logging.getLogger(__name__)


class PagePipeline:
    """Fills body (decompressed), html (H), encoding, text (C), title (T), authors, dates (D), section,
    tags, canonical URL, page type, extractor and rule version; counts page types and problems.

    With ``SACORPUS_PAGE_WORKERS`` > 0 the work of this stage and of stages 400 and 500 runs in worker
    processes (:mod:`sacorpus.pipelines.workers`); pages still commit to the publications' histories in
    the order they reach this stage, so every stored field is the one an in-process crawl stores.
    """

    def __init__(
        self, options: PageOptions | None = None, stats: Any = None, workers: PageWorkers | None = None
    ) -> None:
        self.options = options or PageOptions()
        self.publications = PublicationRegistry()
        self.histories = PublicationHistories()  # per publication: lines it repeats across pages
        self.count = Counter(stats, "sacorpus")
        self.workers = workers
        self.precomputed = Precomputed()
        # the commits of the last pages sent to workers, oldest first: a page waits for the one this
        # many places before it, so the replicas stay a few pages behind (their answers then hold)
        self._inflight: deque[asyncio.Future[None]] = deque(
            maxlen=2 * len(workers.executors) if workers else 1
        )

    @classmethod
    def from_crawler(cls, crawler: Any) -> PagePipeline:
        require_enabled(crawler, "extract")
        settings = crawler.settings
        options = PageOptions(
            decompress=settings.getbool("SACORPUS_GZIP_ENABLED", defaults.SACORPUS_GZIP_ENABLED),
            preclean=settings.getbool("SACORPUS_PRECLEAN_ENABLED", defaults.SACORPUS_PRECLEAN_ENABLED),
            max_bytes=settings.getint("SACORPUS_GZIP_MAX_BYTES", defaults.SACORPUS_GZIP_MAX_BYTES),
            # the source-candidate extension reads them from this stage's parse, not one of its own
            source_links=settings.getbool(
                "SACORPUS_CANDIDATES_ENABLED", defaults.SACORPUS_CANDIDATES_ENABLED
            ),
        )
        pipeline = cls(options, crawler.stats, _workers(crawler, options))
        pipeline.publications = PublicationRegistry.from_settings(settings)
        pipeline.precomputed = Precomputed.of(crawler)
        crawler.signals.connect(pipeline.spider_opened, signal=signals.spider_opened)
        spider = getattr(crawler, "spider", None)
        if spider is not None:
            pipeline.spider_opened(spider)
        return pipeline

    def spider_opened(self, spider: Any) -> None:
        publication = getattr(spider, "publication", None)
        if isinstance(publication, Publication):
            self.publications.add(publication)
            if self.workers is not None:
                self.workers.publications.append(publication)

    def close_spider(self) -> None:
        if self.workers is not None:
            self.workers.close()

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article):
            return item
        if item.html is None and not item.body:
            self.count.inc(f"extract/page_type/{item.page_type}")
            return item
        if self.workers is not None:
            return self._offload(item)  # a coroutine: the pipeline awaits it (in-process stays synchronous)
        self._here(item, self.histories.of(item.publication))
        return item

    def _here(self, item: Article, history: LineHistory) -> None:
        """The page stage in this process."""
        publication = self.publications.get(item.publication)
        stage = page_stage(item, publication, wayback_date(item.wayback_timestamp), self.options, history)
        for key, n in stage.counters:
            self.count.inc(key, n)
        if stage.source_links is not None and item.html:
            self.precomputed.put_links(item, item.html, stage.source_links)

    async def _offload(self, item: Article) -> Article:
        """The page in a worker, committed after every page that reached this stage before it."""
        inflight = self._inflight
        previous = inflight[-1] if inflight else None
        gate = inflight[0] if len(inflight) == inflight.maxlen else None
        mine = asyncio.get_running_loop().create_future()
        inflight.append(mine)
        try:
            if gate is not None:
                await gate
            work = await self._in_worker(item)
            if previous is not None:
                await previous
            await self._commit(item, work)
        finally:
            mine.set_result(None)
        return item

    async def _in_worker(self, item: Article) -> PageWork | None:
        assert self.workers is not None
        i, future = self.workers.submit(item, self.histories)
        executor = self.workers.executors[i]
        try:
            return await self.workers.outcome(executor, future)
        except BrokenProcessPool as exc:  # the worker died
            self.workers.crashed(i, exc, executor)
        except Exception as exc:  # a page it could not take (a pickling error): the worker lives on
            logger.error(
                "page worker %d could not take %s (%s); computed here", i, item.url, type(exc).__name__
            )
            self.count.inc("workers/errors")
        except asyncio.CancelledError:
            if not future.cancelled():
                raise
            # cancelled when its dead worker was shut down: computed here like the others
        finally:
            self.workers.done(i)
        return None

    async def _commit(self, item: Article, work: PageWork | None) -> None:
        """The worker's result when the history gives every answer it used; else the page again, told
        every commit before it (then exact), else in this process. Nothing is lost either way."""
        assert self.workers is not None
        history = self.histories.of(item.publication)
        if work is not None and not replay(history, work.events):
            self.count.inc("workers/history_misses")
            work = await self._in_worker(item)
            if work is not None and not replay(history, work.events):
                work = None
        if work is None:
            self.count.inc("workers/in_process")
            recording = RecordingHistory(history, learns=True)
            self._here(item, recording)
            self.workers.committed(item.publication, observations(recording.events))
            return
        item.__dict__.update(work.item.__dict__)
        self.workers.committed(item.publication, observations(work.events))
        for key, n in work.counters:
            self.count.inc(key, n)
        self.count.inc("workers/pages")
        self.precomputed.put(item, work)


def _workers(crawler: Any, options: PageOptions) -> PageWorkers | None:
    """The crawl's page workers, or None to work in this process (``SACORPUS_PAGE_WORKERS = 0``)."""
    settings = crawler.settings
    count = settings.getint("SACORPUS_PAGE_WORKERS", defaults.SACORPUS_PAGE_WORKERS)
    if count <= 0:
        return None
    setup = WorkerSetup(
        options=options,
        stages=(
            settings.getbool("SACORPUS_LANGUAGE_ENABLED", defaults.SACORPUS_LANGUAGE_ENABLED),
            settings.getbool("SACORPUS_TOKENIZE_ENABLED", defaults.SACORPUS_TOKENIZE_ENABLED),
            settings.getbool("SACORPUS_CANDIDATES_ENABLED", defaults.SACORPUS_CANDIDATES_ENABLED),
        ),
        max_paragraphs=MAX_PARAGRAPHS,
        publications_dir=settings.get("SACORPUS_PUBLICATIONS_DIR") or None,
        log_level=str(settings.get("LOG_LEVEL", "INFO")),
        log_format=str(settings.get("LOG_FORMAT")),
        allocator=allocator_settings(settings),
        collector=collector_thresholds(settings),
    )
    return PageWorkers(count, setup, crawler.stats, settings.get("SACORPUS_PAGE_WORKERS_START"))
