"""A page worker that dies while no page waits on it must not cost the next page.

The executor's own thread sees the death first and marks the pool broken, so the next page's
submission itself raises BrokenProcessPool. That page meets the death as a page in flight does: the
pool is reported broken through its outcome (one line, ``sacorpus/workers/crashed``, the page computed
in the crawl's process), a new worker takes the page after it, and nothing escapes to Scrapy (which
would log a traceback and drop the item).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from sacorpus.items import Article
from sacorpus.pipelines._common import Counter
from sacorpus.pipelines.workers import PageWorkers
from sacorpus.text.boilerplate import PublicationHistories


def _pid() -> int:
    return os.getpid()


class _PlainWorkers(PageWorkers):
    """Workers without the page models (the test is about the pool, not the page)."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.stats = _Stats()
        self.count = Counter(self.stats, "sacorpus/workers")
        self.executors = [None]
        self.pending = [0]
        self.sent = [0]
        self.log = []
        self.log_start = 0
        self.watch_seconds = 0.2

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=1, mp_context=self.context)


class _Stats:
    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def inc_value(self, key: str, n: int = 1) -> None:
        self.seen[key] = self.seen.get(key, 0) + n


def test_a_pool_found_broken_at_submission_is_a_death_in_flight(caplog):
    workers = _PlainWorkers()
    histories = PublicationHistories()
    article = Article(url="http://demo.sacorpus.invalid/a", publication="demo")
    executor = workers._start()
    workers.executors[0] = executor
    try:
        pid = executor.submit(_pid).result(timeout=60)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not executor._broken and time.monotonic() < deadline:
            time.sleep(0.05)
        assert executor._broken, "the executor's thread marks the pool broken"

        i, future = workers.submit(article, histories)  # raised BrokenProcessPool before
        with pytest.raises(BrokenProcessPool):
            asyncio.run(workers.outcome(executor, future))
        workers.crashed(i, BrokenProcessPool("dead"), executor)
        workers.done(i)
        assert workers.stats.seen == {"sacorpus/workers/crashed": 1}
        assert "page worker 0 stopped (BrokenProcessPool)" in caplog.text
        assert workers.executors[0] is None and workers.pending == [0]

        i, future = workers.submit(article, histories)  # a new worker
        assert workers.executors[0] is not None and workers.executors[0] is not executor
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        for ex in workers.executors:
            if ex is not None:
                ex.shutdown(wait=True, cancel_futures=True)
