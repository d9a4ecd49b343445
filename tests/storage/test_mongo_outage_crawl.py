"""A real crawl of 200 articles into a MongoDB-wire server that goes down mid-crawl and comes back.

The fault benchmark (benchmarks/faults.py) does this and more on 1,000+ articles; this is the short
version kept in the suite: the stages spill while the server is down, the crawl goes on and exits
non-zero, the next run re-imports the spill file exactly, and in the end nothing is lost, nothing is
stored twice, every row is labelled and fingerprinted and every original is ``unique``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sacorpus.demo.bigsite import build_big_site
from sacorpus.demo.server import SiteServer
from sacorpus.storage.mongo import MongoStore
from sacorpus.testing.mongo import RestartableMongo

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent.parent
PUBLIC = "http://demo.sacorpus.invalid"


def wait_for(
    cond: Callable[[], bool], proc: subprocess.Popen[bytes], what: str, timeout: float = 600
) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert proc.poll() is None, f"the crawl ended before {what}"
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.3)


def count(uri: str) -> int:
    try:
        with MongoStore(uri, "outage", timeout_ms=2000) as store:
            return store.count()
    except Exception:
        return -1


def test_outage_mid_crawl_spills_and_the_next_run_reimports_exactly(tmp_path: Path) -> None:
    site = build_big_site(200, seed=3)
    server = SiteServer(site.resources).start()
    mongo = RestartableMongo(str(tmp_path))
    mongo.start()
    spill = tmp_path / "spill"
    cmd = [
        sys.executable, "-m", "scrapy", "crawl", "demo", "-a", f"base_url={server.base_url}",
        "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO",
        "-s", f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}", "-s", f"SACORPUS_STORE_SPILL_DIR={spill}",
        "-s", "SACORPUS_STORE_RETRIES=1", "-s", "SACORPUS_STORE_RETRY_BACKOFF=0.2",
    ]  # fmt: skip
    env = {**os.environ, "MONGO_URI": mongo.uri, "MONGO_DATABASE": "outage"}
    try:
        with open(tmp_path / "run1.log", "wb") as log:
            proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
            wait_for(lambda: count(mongo.uri) >= 40, proc, "40 articles were stored")
            mongo.stop()
            wait_for(lambda: any(spill.glob("mongodb-*.jsonl")), proc, "the store stage spilled")
            mongo.start()
            assert proc.wait(600) != 0, "a run that spilled exits non-zero"
        second = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
        assert second.returncode == 0, second.stderr[-3000:]
        assert not list(spill.glob("mongodb-*.jsonl")) and list(spill.glob("mongodb-*.jsonl.imported-*"))
        with MongoStore(mongo.uri, "outage") as store:
            rows = list(store.iter_articles(fields=["text", "dedup_label"]))
            urls = [r["url"] for r in rows]
            assert {PUBLIC + a.path for a in site.articles} == set(urls), "nothing lost"
            assert len(urls) == len(set(urls)), "nothing stored twice"
            assert store.unlabelled_urls() == [], "every row labelled, none reset"
            assert store.dedup_fingerprints(urls).keys() == set(urls), "every row fingerprinted"
            labels = {r["url"]: r["dedup_label"] for r in rows}
        by_id = {a.id: PUBLIC + a.path for a in site.articles}
        assert all(labels[by_id[o]] == "unique" for o in site.copies.values())
        assert all(labels[by_id[c]] == "duplicate" for c in site.copies)
    finally:
        mongo.stop()
        server.stop()
