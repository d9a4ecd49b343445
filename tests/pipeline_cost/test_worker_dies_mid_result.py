"""A page worker killed while it writes its result must not hang the crawl.

The worker's task writes the start of a result message into the executor's result pipe and dies with
SIGKILL, exactly what a kill in the middle of sending a large result leaves. CPython's executor then
waits for the rest of the message for ever; the page's wait sees the dead worker and the pool breaks
(BrokenProcessPool: the crawl computes the page itself), within seconds.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import signal
import struct
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from sacorpus.pipelines.workers import PageWorkers, unstick


def _die_mid_result() -> None:
    """In the worker: half a message on the result pipe (header of 1 MB, 10 bytes of it), then SIGKILL."""
    queues = [q for q in gc.get_objects() if isinstance(q, multiprocessing.queues.SimpleQueue)]
    assert queues, "the worker's result queue"
    fd = queues[0]._writer.fileno()
    os.write(fd, struct.pack("!i", 1_000_000) + b"0123456789")
    os.kill(os.getpid(), signal.SIGKILL)


def _outcome(watch: bool) -> BaseException | None:
    executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    workers = PageWorkers.__new__(PageWorkers)
    workers.watch_seconds = 0.2 if watch else 3600.0

    async def wait() -> None:
        await asyncio.wait_for(workers.outcome(executor, executor.submit(_die_mid_result)), timeout=20)

    try:
        asyncio.run(wait())
    except (BrokenProcessPool, TimeoutError) as exc:
        return exc
    finally:
        # a hung executor's thread is unblocked first (shutdown forgets the pipe), so the test process
        # can exit: Python joins executor threads at exit
        unstick(executor)
        executor.shutdown(wait=False, cancel_futures=True)
    return None


def test_a_worker_killed_mid_result_breaks_the_pool_instead_of_hanging():
    assert isinstance(_outcome(watch=True), BrokenProcessPool)


@pytest.mark.slow
def test_without_the_watch_the_executor_waits_for_ever():
    """The premise: without the watch the same death hangs (here until the 20 s timeout)."""
    assert isinstance(_outcome(watch=False), TimeoutError)
