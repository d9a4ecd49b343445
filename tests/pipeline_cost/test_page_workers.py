"""Page workers (``SACORPUS_PAGE_WORKERS``): the same stored articles as an in-process crawl, nothing
lost when a worker dies, and no worker left behind when the crawl ends however it ends.

The crawls are real ``scrapy crawl demo`` runs against the demo site served by the test on loopback;
the crash is a real SIGKILL of a worker process (``sacorpus.testing.worker_faults``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from crawlkit import FAST, REPO, SCRAPY, run_crawl

from sacorpus import settings
from sacorpus.demo.server import SiteServer
from sacorpus.demo.site import build_site
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow

ORDERED = ["-s", "CONCURRENT_REQUESTS=1"]  # the order pages reach the page stage is the run's own
# the time of the fetch (and the server's Date header), and which of two feeds listing an article was read
# first (requests run concurrently)
VARYING = {"fetched_at", "headers", "source", "source_url"}


@pytest.fixture(scope="module")
def demo_site():
    with SiteServer(build_site()) as server:
        yield server


def stored(workdir: Path, varying: set[str] = VARYING) -> dict[str, dict[str, Any]]:
    store = SQLiteStore(str(workdir / "corpus.sqlite"))
    store.open()
    try:
        return {a["url"]: {k: v for k, v in a.items() if k not in varying} for a in store.iter_articles()}
    finally:
        store.close()


def stats_of(log: str) -> dict[str, int]:
    """The ``sacorpus/workers/*`` counters Scrapy dumps at the end of the crawl."""
    return {name: int(n) for name, n in re.findall(r"'(sacorpus/workers/[a-z_]+)': (\d+)", log)}


@pytest.fixture(scope="module")
def in_process(demo_site, tmp_path_factory):
    run = run_crawl(
        "demo", tmp_path_factory.mktemp("inproc"), "-a", f"base_url={demo_site.base_url}", *ORDERED
    )
    assert run.returncode == 0, run.log[-3000:]
    return stored(run.workdir)


def test_workers_store_exactly_what_the_crawls_process_stores(demo_site, in_process, tmp_path):
    run = run_crawl(
        "demo", tmp_path, "-a", f"base_url={demo_site.base_url}", *ORDERED, "-s", "SACORPUS_PAGE_WORKERS=2"
    )
    assert run.returncode == 0, run.log[-3000:]
    got = stored(tmp_path)
    articles = in_process
    assert len(articles) >= 25
    assert got.keys() == articles.keys()
    for url, article in articles.items():
        assert got[url] == article, url
    stats = stats_of(run.log)
    # every article went through a worker (a page whose history answers went stale went again)
    assert stats["sacorpus/workers/pages"] == len(got)
    assert "sacorpus/workers/in_process" not in stats


def test_a_killed_worker_loses_nothing(demo_site, in_process, tmp_path):
    run = run_crawl(
        "demo",
        tmp_path,
        "-a",
        f"base_url={demo_site.base_url}",
        *ORDERED,
        "-s",
        "SACORPUS_PAGE_WORKERS=1",
        "-s",
        "EXTENSIONS="
        + json.dumps({**settings.EXTENSIONS, "sacorpus.testing.worker_faults.KillPageWorker": 0}),
        "-s",
        "KILL_PAGE_WORKER_AFTER=3",
    )
    assert "killing page worker process" in run.log, run.log[-3000:]
    stats = stats_of(run.log)
    assert stats["sacorpus/workers/crashed"] >= 1
    assert run.log.count("page worker 0 stopped (BrokenProcessPool)") == stats["sacorpus/workers/crashed"]
    assert "Traceback" not in run.log
    got = stored(tmp_path)
    assert got == in_process  # the pages in flight were computed here, the rest by a new worker


def _children(pid: int) -> set[int]:
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids |= {int(k) for k in (task / "children").read_text().split()}
        except OSError:
            continue
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited (its parent or init reaps it)


def _workers_of(pid: int) -> set[int]:
    found = set()
    for kid in _children(pid):
        try:
            cmdline = Path(f"/proc/{kid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            found.add(kid)
    return found


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=["term", "int", "kill"])
def test_no_worker_outlives_the_crawl(demo_site, tmp_path, how):
    cmd = [
        *SCRAPY,
        "crawl",
        "demo",
        *FAST,
        "-a",
        f"base_url={demo_site.base_url}",
        "-s",
        f"SACORPUS_SQLITE_PATH={tmp_path / 'corpus.sqlite'}",
        "-s",
        f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}",
        "-s",
        "SACORPUS_PAGE_WORKERS=2",
        *ORDERED,
        "-s",
        "DOWNLOAD_DELAY=0.5",  # a crawl long enough to be stopped in the middle
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_REDIS_URL")}
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            workers |= _workers_of(proc.pid)
            time.sleep(0.2)
        assert len(workers) == 2, "the crawl never started its two workers"
        proc.send_signal(how)
        if how != signal.SIGKILL:
            proc.send_signal(how)  # twice: Scrapy's forced stop, as an impatient user or systemd does
        proc.wait(timeout=120)
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)], "a page worker outlived its crawl"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
