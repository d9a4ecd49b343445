"""Fingerprints of the rebuild's next articles, computed in worker processes while the main process labels.

Why: labelling is sequential (each article is compared with the index of the articles before it), but
an article's fingerprint (its normalised text, text hash, sentence hashes and SimHashes) depends on the
article alone, and computing it was about a third of ``scrapy dedup --rebuild``. So while the main
process labels one chunk of articles, workers fingerprint the next; the labels are the same because
:func:`sacorpus.text.dedup.fingerprint` is a pure function of the same arguments. Why processes, not
threads: the normalising and hashing is Python and numpy on small arrays, which hold the GIL.

A worker that dies is not fatal: the chunk is fingerprinted in the main process, with one warning, and
so is every later chunk.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import NamedTuple

from sacorpus.text.dedup import fingerprint
from sacorpus.text.dedup_scoring import DedupConfig, Fingerprint

logger = logging.getLogger(__name__)


class FingerprintArgs(NamedTuple):
    """What :func:`sacorpus.text.dedup.fingerprint` is called with for one article."""

    url: str
    text: str
    canonical_url: str | None
    sentences: Sequence[Sequence[int]] | None
    slug: str | bool | None
    order: str | None


def compute(args: FingerprintArgs, config: DedupConfig) -> Fingerprint:
    return fingerprint(
        args.url,
        args.text,
        canonical_url=args.canonical_url,
        sentences=args.sentences,
        config=config,
        slug=args.slug,
        order=args.order,
    )


def _compute_all(jobs: list[FingerprintArgs], config: DedupConfig) -> list[Fingerprint]:
    """A worker's share of a chunk (module level: it is sent to the worker by name)."""
    return [compute(job, config) for job in jobs]


def _ignore_interrupts() -> None:
    """Ctrl-C reaches every process of the terminal's group: the command decides how to stop (its
    workers are shut down on the way out), so a worker prints no traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _workers_start_deaf() -> Iterator[None]:
    """Workers are started (by the pool, on a submit) with Ctrl-C ignored from their first instruction:
    an ignored signal stays ignored across the exec of a spawned worker, whose imports then cannot be
    interrupted with a traceback before :func:`_ignore_interrupts` runs. Only the main thread may set
    a handler; elsewhere (the crawl's dedup thread) the initializer alone applies."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def default_workers() -> int:
    """One worker where the machine has a second core: the fingerprints are about a third of the work,
    so one worker keeps ahead of the labelling; none on a single core, where it would only add copying."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 1 if cores > 1 else 0


class Ahead:
    """The fingerprints of one chunk, in the chunk's order (None where the article has no text)."""

    def __init__(
        self,
        owner: FingerprintsAhead,
        jobs: list[FingerprintArgs | None],
        parts: list[Future[list[Fingerprint]]] | None,
    ) -> None:
        self.owner, self.jobs, self.parts = owner, jobs, parts  # parts None: computed here

    def result(self) -> list[Fingerprint | None]:
        done: list[Fingerprint] | None = None
        if self.parts is not None:
            try:
                done = [fp for part in self.parts for fp in part.result()]
            except BrokenProcessPool as exc:
                self.owner.broken(exc)
        if done is None:
            done = [compute(job, self.owner.config) for job in self.jobs if job is not None]
        it = iter(done)
        return [None if job is None else next(it) for job in self.jobs]


class FingerprintsAhead:
    """``workers`` processes that fingerprint a chunk while the caller works on the one before.

    With ``workers`` 0 nothing is computed ahead: :meth:`submit` returns None and the labelling
    fingerprints each article itself, as at ingest.
    """

    def __init__(self, config: DedupConfig, workers: int) -> None:
        self.config = config
        self.workers = max(0, workers)
        self.pool: ProcessPoolExecutor | None = None
        if self.workers:
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
            )
            # every worker starts now, deaf (a pool of spawned workers starts one on a submit that finds
            # none idle, and none has finished a task yet): a later submit starts none, so Ctrl-C is never
            # ignored while the command labels (a submit that started a worker dropped a Ctrl-C
            # that came meanwhile)
            with _workers_start_deaf():
                for _ in range(self.workers):
                    self.pool.submit(int)

    @property
    def active(self) -> bool:
        """Whether chunks are fingerprinted ahead (workers asked for, none died)."""
        return self.pool is not None

    def submit(self, jobs: list[FingerprintArgs | None]) -> Ahead | None:
        if self.pool is None:
            return None
        todo = [job for job in jobs if job is not None]
        size = -(-len(todo) // self.workers) or 1
        try:
            parts = [
                self.pool.submit(_compute_all, todo[i : i + size], self.config)
                for i in range(0, len(todo), size)
            ]
        except BrokenProcessPool as exc:
            self.broken(exc)
            return Ahead(self, jobs, None)
        return Ahead(self, jobs, parts)

    def broken(self, exc: BaseException) -> None:
        """A worker died: fingerprint in this process from here on."""
        if self.pool is None:
            return
        logger.warning(
            "dedup --rebuild: a fingerprint worker stopped (%s); fingerprinting in this process", exc
        )
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def __enter__(self) -> FingerprintsAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["FingerprintArgs", "FingerprintsAhead", "compute", "default_workers"]
