"""One run per spider at a time: real ``scrapy crawl demo`` processes over a generated site.

A second run with the same JOBDIR, or with its own JOBDIR but the same store, refuses before fetching
anything (one line, exit 1) while the first completes and loses nothing; a run killed with SIGKILL does
not leave its locks stuck: the next run starts and resumes.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from email.message import Message
from pathlib import Path

import pytest
from crawlkit import FAST, REPO, SCRAPY

from sacorpus.demo.bigsite import BigSite, build_big_site
from sacorpus.demo.server import SiteServer

pytestmark = pytest.mark.slow
N = 120
# a held page must outwait the refused run, however slow the machine
SLOW = ["-s", "CONCURRENT_REQUESTS=2", "-s", "DOWNLOAD_DELAY=0.05", "-s", "SACORPUS_DEDUP_ENABLED=False"]
SLOW += ["-s", "DOWNLOAD_TIMEOUT=600"]


class GatedSite:
    """The big site with its article pages held back after the first ``free`` until the test opens the
    gate: the first run is certainly still running (or certainly unfinished when killed) however slow
    the machine is. A paced crawl was a race that a loaded machine lost."""

    def __init__(self, big: BigSite, free: int) -> None:
        self.held = {a.path: big.resources[a.path] for a in big.articles}
        self.resources = {p: r for p, r in big.resources.items() if p not in self.held}
        self.opened = threading.Event()
        self._free = free
        self._lock = threading.Lock()
        self.base = ""

    def serve(self) -> SiteServer:
        server = SiteServer(self.resources).start()
        self.base = server.base_url
        server.add_route("/", self.answer)
        return server

    def answer(self, raw_path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        resource = self.held.get(raw_path.split("?", 1)[0])
        if resource is None:
            return None
        with self._lock:
            self._free -= 1
            wait = self._free < 0
        if wait:
            self.opened.wait(timeout=300)
        body = resource.body.replace(b"{base}", self.base.encode())
        return 200, {"Content-Type": resource.content_type, **resource.headers}, body


def second_run_while_first_runs(
    site: GatedSite, first: subprocess.Popen, ready: Callable[[], object], args: list[str], workdir: Path
) -> subprocess.CompletedProcess[str]:
    """Once ``ready()`` returns, run a second crawl while the gate holds the first one, then let the
    first one finish (killed if anything fails on the way)."""
    try:
        ready()
        second = subprocess.run(
            [*SCRAPY, "crawl", "demo", *FAST, *args, "-a", f"base_url={site.base}", "-a", "sources=sitemaps"],
            cwd=REPO, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert first.poll() is None, "the first run ended before the second was tried"
        site.opened.set()
        assert first.wait(timeout=240) == 0, (workdir / "crawl.log").read_text()[-3000:]
        return second
    finally:
        site.opened.set()
        if first.poll() is None:
            first.kill()


def start(workdir: Path, base_url: str, *args: str, jobs: str = "jobs", log: str = "crawl.log"):
    cmd = [
        *SCRAPY, "crawl", "demo", *FAST,
        "-s", f"SACORPUS_SQLITE_PATH={workdir / 'corpus.sqlite'}",
        "-s", f"SACORPUS_JOBDIR_ROOT={workdir / jobs}",
        "-s", "SACORPUS_STORE_BATCH_SIZE=5", "-s", "SACORPUS_STORE_FLUSH_SECONDS=1",
        "-a", f"base_url={base_url}", "-a", "sources=sitemaps", *args,
    ]  # fmt: skip
    out = (workdir / log).open("a")
    return subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)


def stored(workdir: Path) -> list[str]:
    path = workdir / "corpus.sqlite"
    if not path.exists():
        return []
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return [r[0] for r in db.execute("SELECT url FROM articles")]
    except sqlite3.Error:
        return []


def wait_stored(workdir: Path, proc: subprocess.Popen, at_least: int) -> None:
    deadline = time.monotonic() + 120
    while len(stored(workdir)) < at_least:
        assert proc.poll() is None, (workdir / "crawl.log").read_text()[-3000:]
        assert time.monotonic() < deadline, "the first run stored too little in time"
        time.sleep(0.1)


@pytest.mark.parametrize("jobs", ["jobs", "other-jobs"], ids=["same-jobdir", "same-store"])
def test_a_second_run_refuses_while_the_first_completes(tmp_path, jobs):
    big = build_big_site(N)
    site = GatedSite(big, free=8)
    with site.serve() as server:
        first = start(tmp_path, server.base_url, *SLOW)
        served: list[int] = []

        def ready() -> None:
            wait_stored(tmp_path, first, 5)
            served.append(len(server.requests))

        args = ["-s", f"SACORPUS_SQLITE_PATH={tmp_path / 'corpus.sqlite'}"]
        args += ["-s", f"SACORPUS_JOBDIR_ROOT={tmp_path / jobs}"]
        second = second_run_while_first_runs(site, first, ready, args, tmp_path)
    served_before = served[0]
    log = second.stdout + second.stderr
    assert second.returncode == 1, log[-3000:]
    refusals = [
        line for line in log.splitlines() if "sacorpus: demo: run refused: another run of demo" in line
    ]
    assert len(refusals) == 1, log[-3000:]
    assert "Traceback" not in log
    # nothing fetched by the refused run: the first run's own requests only (robots.txt, sitemaps, articles)
    assert "downloader/request_count" not in log
    assert served_before > 0
    urls = stored(tmp_path)
    assert len(urls) == len(set(urls)) == len(big.articles), "an article was lost or stored twice"
    assert "run refused" not in (tmp_path / "crawl.log").read_text()
    job = json.loads((tmp_path / "jobs" / "demo" / "sacorpus-job.json").read_text())
    assert job["status"] == "finished", "the first run's job state was disturbed"
    if jobs == "other-jobs":  # the refused run left its own JOBDIR as it found it: no run to resume
        assert not (tmp_path / jobs / "demo" / "sacorpus-job.json").exists()


def test_a_killed_run_leaves_no_stuck_lock(tmp_path):
    big = build_big_site(N)
    site = GatedSite(big, free=N // 4 + 2)
    with site.serve() as server:
        first = start(tmp_path, server.base_url, *SLOW)
        try:
            wait_stored(tmp_path, first, N // 4)
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
        finally:
            site.opened.set()
            if first.poll() is None:
                first.kill()
        assert (tmp_path / "jobs" / "demo" / "run.lock").exists()
        assert len(stored(tmp_path)) < len(big.articles), "killed half way"
        resumed = start(tmp_path, server.base_url, "-s", "SACORPUS_DEDUP_ENABLED=False", log="resumed.log")
        assert resumed.wait(timeout=240) == 0, (tmp_path / "resumed.log").read_text()[-3000:]
    log = (tmp_path / "resumed.log").read_text()
    assert "run refused" not in log and "did not close cleanly" in log
    urls = stored(tmp_path)
    assert len(urls) == len(set(urls)) == len(big.articles), "the resumed run lost articles"


def test_redis_workers_take_no_lock():
    """Distributed workers share one run: the store lock is not configured for them."""
    code = (
        "from scrapy.crawler import Crawler\nfrom scrapy.exceptions import NotConfigured\n"
        "from scrapy.utils.project import get_project_settings\nfrom sacorpus.runlock import RunLock\n"
        "from sacorpus.spiders.demo import DemoSpider\n"
        "s = get_project_settings(); s.set('SACORPUS_REDIS_URL', 'redis://127.0.0.1:1/0')\n"
        "try:\n    RunLock.from_crawler(Crawler(DemoSpider, s))\nexcept NotConfigured as e:\n    print('exempt:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert "exempt: distributed workers share one run" in out.stdout, out.stdout + out.stderr


def test_a_second_run_on_the_same_mongodb_refuses(tmp_path, mongo_server):
    """Two machines cannot share a file lock: the MongoDB store holds a lease the running crawl renews."""
    from pymongo import MongoClient

    database = f"{mongo_server.database}_lease"
    mongo = ["-s", f"MONGO_URI={mongo_server.uri}", "-s", f"MONGO_DATABASE={database}"]
    client: MongoClient = MongoClient(mongo_server.uri, serverSelectionTimeoutMS=5000)
    articles = client[database]["articles"]
    big = build_big_site(N)
    try:
        site = GatedSite(big, free=8)
        with site.serve() as server:
            first = start(tmp_path, server.base_url, *SLOW, *mongo, "-s", "SACORPUS_RUN_LOCK_SECONDS=3")

            def ready() -> None:
                deadline = time.monotonic() + 120
                while articles.count_documents({}) < 5:
                    assert first.poll() is None, (tmp_path / "crawl.log").read_text()[-3000:]
                    assert time.monotonic() < deadline, "the first run stored too little in time"
                    time.sleep(0.2)
                time.sleep(3)  # longer than the lease: only its renewal keeps it

            jobs = ["-s", f"SACORPUS_JOBDIR_ROOT={tmp_path / 'second-jobs'}"]
            second = second_run_while_first_runs(site, first, ready, [*mongo, *jobs], tmp_path)
        log = second.stdout + second.stderr
        assert second.returncode == 1, log[-3000:]
        assert "sacorpus: demo: run refused: another run of demo is using MongoStore(" in log
        assert articles.count_documents({}) == len(big.articles)
        assert client[database]["run_locks"].count_documents({}) == 0, "the finished run gave its lease back"
    finally:
        client.drop_database(database)
        client.close()
