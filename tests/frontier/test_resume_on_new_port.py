"""A crawl interrupted with Ctrl-C resumes against a mirror on another port: the queue holds the
publication's URLs, and the run's base_url is applied when each request is downloaded."""

from __future__ import annotations

import signal
import sqlite3
import time

import pytest
from conftest import article_path, generated_site, start_crawl

from sacorpus.demo.server import SiteServer

pytestmark = pytest.mark.slow
N = 120


def stored(path) -> set[str]:
    if not path.exists():
        return set()
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return {r[0] for r in db.execute("SELECT url FROM articles")}
    except sqlite3.Error:
        return set()


def test_ctrl_c_then_resume_on_a_new_port(tmp_path):
    db = tmp_path / "corpus.sqlite"
    args = [
        "-a",
        "sources=sitemaps",
        "-s",
        "ROBOTSTXT_OBEY=False",
        "-s",
        "SACORPUS_STORE_BATCH_SIZE=5",
        "-s",
        "SACORPUS_STORE_FLUSH_SECONDS=1",
        "-s",
        "CONCURRENT_REQUESTS=2",
        "-s",
        "DOWNLOAD_DELAY=0.05",
        "-s",
        "SACORPUS_DEDUP_ENABLED=False",
    ]
    with SiteServer(generated_site(N)) as first:
        first_base = first.base_url
        proc = start_crawl("demo", tmp_path, *args, "-a", f"base_url={first_base}")
        deadline = time.monotonic() + 90
        try:
            while len(stored(db)) < N // 4:
                assert proc.poll() is None, (tmp_path / "crawl.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "the crawl did not get going"
                time.sleep(0.1)
            proc.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop that keeps the queue on disk
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    before = stored(db)
    assert N // 4 <= len(before) < N
    with SiteServer(generated_site(N)) as second:  # the same site, another port
        assert second.base_url != first_base
        resumed = start_crawl("demo", tmp_path, *args, "-a", f"base_url={second.base_url}")
        assert resumed.wait(timeout=120) == 0, (tmp_path / "crawl.log").read_text()[-3000:]
    log = (tmp_path / "crawl.log").read_text()
    assert "ConnectionRefused" not in log and "Connection was refused" not in log
    assert stored(db) == {f"http://demo.sacorpus.invalid{article_path(i)}" for i in range(N)}
