"""Crash safety (issue 3, item 8): a crawl killed with SIGKILL half way resumes without losing or
duplicating an article.

After SIGKILL Scrapy's disk queue has no index (active.json is written on close only) and its seen
file lists requests that were queued but never answered; the ResumableScheduler notices the
unclean stop, starts a recovering run, the spider lists its sitemaps again and the store's
already-stored check skips what was saved before the kill.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import time

import pytest
from conftest import article_path, generated_site, start_crawl

from sacorpus.demo.server import SiteServer

pytestmark = pytest.mark.slow
N = 200


def stored_urls(path) -> list[str]:
    if not path.exists():
        return []
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return [r[0] for r in db.execute("SELECT url FROM articles")]
    except sqlite3.Error:  # the schema may not exist yet
        return []


def article_gets(server: SiteServer, start: int = 0) -> list[str]:
    return [p for _, p in server.requests[start:] if "-story-" in p]


def test_sigkill_half_way_then_resume(tmp_path):
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
        "DOWNLOAD_DELAY=0.04",
        "-s",
        "SACORPUS_DEDUP_ENABLED=False",
    ]
    with SiteServer(generated_site(N)) as server:
        args += ["-a", f"base_url={server.base_url}"]
        proc = start_crawl("demo", tmp_path, *args)
        deadline = time.monotonic() + 90
        try:
            while len(stored_urls(db)) < N // 3:
                assert proc.poll() is None, (tmp_path / "crawl.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "the crawl did not store a third of the site in time"
                time.sleep(0.1)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
        before_kill = set(stored_urls(db))
        assert N // 3 <= len(before_kill) < N, "killed half way"
        job = json.loads((tmp_path / "jobs" / "demo" / "sacorpus-job.json").read_text())
        assert job["status"] == "running", "the killed run never closed"

        mark = len(server.requests)
        resumed = start_crawl("demo", tmp_path, *args)
        assert resumed.wait(timeout=120) == 0, (tmp_path / "crawl.log").read_text()[-3000:]
        log = (tmp_path / "crawl.log").read_text()
        refetched = {p for p in article_gets(server, mark)} & {u.split("invalid", 1)[1] for u in before_kill}
        assert not refetched, f"articles stored before the kill were fetched again: {sorted(refetched)[:5]}"

    urls = stored_urls(db)
    assert len(urls) == len(set(urls)), "an article stored twice"
    expected = {f"http://demo.sacorpus.invalid{article_path(i)}" for i in range(N)}
    assert set(urls) == expected, f"lost: {sorted(expected - set(urls))[:5]}"
    assert "did not close cleanly" in log
    job = json.loads((tmp_path / "jobs" / "demo" / "sacorpus-job.json").read_text())
    assert job["status"] == "finished" and job["recovered"]
