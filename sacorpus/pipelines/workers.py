"""The crawl's side of ``SACORPUS_PAGE_WORKERS``: page workers, the order pages commit in, their results.

Why: the page core, language identification and tokenization are pure and cost most of a crawl's CPU;
in worker processes a crawl on several cores scales, and the big models live there. What spans pages
stays here: the publications' line histories (committed in the order pages reach the page stage, so
the output equals an in-process crawl's, see :mod:`sacorpus.text.page_work`), the dedup index and the
store. Each worker is an executor of one spawned process, so the crawl knows what each replica has
been told (``told``: the commits since that worker's last task) and a new worker gets a snapshot.
Tasks and results are pickled between the crawl's process and its own children, never through a
shared queue. A worker that dies is one log line and ``sacorpus/workers/crashed``; its pages are
computed in the crawl's process, none is lost.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

from sacorpus.items import Article
from sacorpus.page_worker import PageTask, WorkerSetup, run_task, start_worker
from sacorpus.pipelines._common import Counter
from sacorpus.publications import Publication
from sacorpus.text.boilerplate import PublicationHistories
from sacorpus.text.page_work import Event, PageWork

logger = logging.getLogger(__name__)


class PageWorkers:
    """``count`` worker processes, each its own single-process executor (started on first use)."""

    def __init__(self, count: int, setup: WorkerSetup, stats: Any = None, context: str = "spawn") -> None:
        self.setup = setup
        self.publications: list[Publication] = list(setup.publications)  # the spider's, added when it opens
        self.context = multiprocessing.get_context(context)
        self.count = Counter(stats, "sacorpus/workers")
        self.executors: list[ProcessPoolExecutor | None] = [None] * count
        self.pending = [0] * count
        self.sent = [0] * count  # how far into the commit log each replica has been told
        self.log: list[tuple[str, list[Event]]] = []
        self.log_start = 0  # the commit number of log[0]

    def submit(self, item: Article, histories: PublicationHistories) -> tuple[int, Future[PageWork]]:
        """Send an article to the least busy worker, with what its replica has not been told yet.

        Among workers equally busy one not started yet goes first: the crawl asked for this many
        workers, and a fast worker would otherwise take every page while the others never start.
        """
        i = min(range(len(self.executors)), key=lambda k: (self.pending[k], self.executors[k] is not None))
        executor = self.executors[i]
        snapshot = None
        if executor is None:
            executor = self.executors[i] = self._start()
            snapshot = pickle.dumps(histories, protocol=pickle.HIGHEST_PROTOCOL)
            self.sent[i] = self.log_start + len(self.log)
        told = self.log[self.sent[i] - self.log_start :]
        self.sent[i] = self.log_start + len(self.log)
        self._trim()
        self.pending[i] += 1
        try:
            return i, executor.submit(run_task, PageTask(item, told, snapshot))
        except BrokenProcessPool as exc:
            # the worker died before any page waiting on it noticed: this page meets the death as a
            # page in flight would (one line, the counter, computed in the crawl's process)
            failed: Future[PageWork] = Future()
            failed.set_exception(exc)
            return i, failed

    #: how often a page waiting on its worker checks that the worker is alive
    watch_seconds = 1.0

    async def outcome(self, executor: ProcessPoolExecutor | None, future: Future[PageWork]) -> PageWork:
        """The worker's result; BrokenProcessPool when the worker died, even where the executor would
        wait for ever.

        Why the watch: a worker killed while it writes a result leaves part of a message in the result
        pipe, and the executor's thread then waits for the rest of it for ever (the crawl's process holds
        the pipe's other end open too): the page, and the crawl, never finish. While the page waits, a
        dead worker makes the crawl close its copy of that end, so the executor reads the end of the pipe
        and breaks the pool as it does for any dead worker.
        """
        wrapped = asyncio.wrap_future(future)
        while True:
            done, _ = await asyncio.wait({wrapped}, timeout=self.watch_seconds)
            if done:
                return wrapped.result()
            unstick(executor)

    def done(self, i: int) -> None:
        self.pending[i] -= 1

    def committed(self, publication: str, told: list[Event]) -> None:
        """A page's observations, committed to the crawl's history: every replica is told them next."""
        if told:
            self.log.append((publication or "", told))

    def crashed(self, i: int, error: BaseException, executor_seen: Any) -> None:
        """A worker died (or its pool broke): one line, a counter, a new worker on the next task."""
        if self.executors[i] is not executor_seen or executor_seen is None:
            return  # already replaced after an earlier page of the same worker
        self.count.inc("crashed")
        logger.error(
            "page worker %d stopped (%s); its pages in flight are computed in the crawl's process",
            i,
            type(error).__name__,
        )
        self.executors[i] = None
        executor_seen.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop every worker after its last page (the crawl's pages are all committed by then)."""
        for executor in self.executors:
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
        self.executors = [None] * len(self.executors)

    def pids(self) -> list[int]:
        """The worker processes' ids (for checks that none outlives the crawl)."""
        return [pid for ex in self.executors if ex is not None for pid in (ex._processes or {})]

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self.context,
            initializer=start_worker,
            initargs=(replace(self.setup, publications=tuple(self.publications)), os.getpid()),
        )

    def _trim(self) -> None:
        """Forget commits every running replica has been told."""
        running = [self.sent[k] for k, ex in enumerate(self.executors) if ex is not None]
        drop = min(running, default=self.log_start + len(self.log)) - self.log_start
        if drop > 0:
            del self.log[:drop]
            self.log_start += drop


def unstick(executor: ProcessPoolExecutor | None) -> None:
    """Close the crawl's end of the result pipe's writer when a worker of ``executor`` has died (the
    executor's own reader then ends; see :meth:`PageWorkers.outcome`). CPython closes the call queue's
    writer the same way on Windows (gh-107219); the result queue is only read in this process."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    if not any(p.exitcode is not None for p in processes):
        return
    writer = getattr(getattr(executor, "_result_queue", None), "_writer", None)
    if writer is not None and not writer.closed:
        writer.close()


__all__ = ["PageWorkers", "unstick"]
