"""The child side of ``SACORPUS_PAGE_WORKERS``: a process that runs stages 300-500 of one article at a time.

Why a module of its own: a spawned worker imports only this and the pure core (no Scrapy, no Twisted,
no store), and holds the big models (the language model, trafilatura, the tokenizer) so the crawl's
process need not. Tasks and results cross the process boundary pickled, between the crawl's process
and the children it started itself (``concurrent.futures``); nothing is unpickled from a shared queue
or a file. A worker ignores SIGINT (the crawl's process decides how a Ctrl-C ends the crawl, and
finishes or abandons its pages) and dies with its parent: the kernel kills it when the parent goes
(``PR_SET_PDEATHSIG`` on Linux), and a watchdog thread ends it when its parent changes elsewhere.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

from sacorpus.allocator import PeriodicRelease, tune
from sacorpus.collector import set_thresholds
from sacorpus.items import Article
from sacorpus.publications import Publication, PublicationRegistry
from sacorpus.sources.wayback import wayback_date
from sacorpus.text.boilerplate import PublicationHistories
from sacorpus.text.page import PageOptions
from sacorpus.text.page_work import Event, PageWork, RecordingHistory, learn, work_page

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0


@dataclass(frozen=True)
class WorkerSetup:
    """What every worker of a crawl is started with."""

    options: PageOptions
    stages: tuple[bool, ...]  # (language, tokenize, source candidates) switched on
    max_paragraphs: int
    publications: tuple[Publication, ...] = ()
    publications_dir: str | None = None  # the SACORPUS_PUBLICATIONS_DIR setting: the rules by slug
    log_level: str = "INFO"
    log_format: str = "%(asctime)s [%(name)s] %(levelname)s: %(message)s"
    #: (mmap threshold KB, trim every N pages), as the crawl's process (sacorpus.allocator)
    allocator: tuple[int, int] = (0, 0)
    #: the cyclic garbage collector's thresholds, as the crawl's process (sacorpus.collector)
    collector: tuple[int, ...] = ()


@dataclass
class PageTask:
    """One article, what the crawl committed to the history since this worker's last task
    (``told``: (publication, observations) in commit order), and for a new worker the history itself."""

    item: Article
    told: list[tuple[str, list[Event]]] = field(default_factory=list)
    snapshot: bytes | None = None  # pickled PublicationHistories, from the crawl's process only


class _Worker:
    def __init__(self, setup: WorkerSetup) -> None:
        self.setup = setup
        self.publications = PublicationRegistry(setup.publications_dir)
        for publication in setup.publications:
            self.publications.add(publication)
        self.histories = PublicationHistories()
        self.release: PeriodicRelease | None = None


_worker: _Worker | None = None  # this process's state; a worker process is its only owner


def start_worker(setup: WorkerSetup, parent: int) -> None:
    """The initializer of a worker process: signals, death with the parent, logging, the models."""
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    logging.basicConfig(level=setup.log_level, format=setup.log_format, stream=sys.stderr)
    _worker = _Worker(setup)
    _worker.release = tune(*setup.allocator)
    set_thresholds(setup.collector)
    _warm_up(setup)


def run_task(task: PageTask) -> PageWork:
    """Stages 300-500 of one article against this worker's replica of the crawl's history."""
    if _worker is None:
        raise RuntimeError("page worker not started")
    if task.snapshot is not None:
        _worker.histories = pickle.loads(task.snapshot)  # sent by our own parent process
    for slug, told in task.told:
        learn(_worker.histories.of(slug), told)
    item = task.item
    setup = _worker.setup
    if _worker.release is not None:
        _worker.release.tick()
    return work_page(
        item,
        _worker.publications.get(item.publication),
        wayback_date(item.wayback_timestamp),
        setup.options,
        RecordingHistory(_worker.histories.of(item.publication)),
        setup.stages,
        setup.max_paragraphs,
    )


def _die_with(parent: int) -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watchdog alone
        pass
    if os.getppid() != parent:  # the parent went before the request took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _warm_up(setup: WorkerSetup) -> None:
    """Load the models before the first page, so the first pages of a crawl do not all wait on them."""
    from sacorpus.text.analysis import language_fields, token_fields

    if setup.stages[0]:
        language_fields("Warm-up text for the language model.")
    if setup.stages[1]:
        token_fields("Warm-up text. Two sentences.", "en")


__all__ = ["PageTask", "WorkerSetup", "run_task", "start_worker"]
