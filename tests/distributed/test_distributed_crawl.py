"""Real distributed crawls: `scrapy crawl demo` subprocesses sharing one redis-server and one store.

The demo site is served once by the test (SiteServer logs every request it answers), so "fetched
exactly once" is counted where it happens, at the site, as well as in each worker's export.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from crawlkit import CrawlRun, free_port, run_crawl
from scrapy.utils.project import get_project_settings

from sacorpus.demo.site import article_paths
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow

ADDON = "sacorpus.distributed.RedisFrontierAddon"
HOME = "http://demo.sacorpus.invalid"
EXPECTED = {HOME + path for path in article_paths()}
# Slow enough that one worker alone needs several seconds, so the two overlap for real.
PACED = ["-s", "DOWNLOAD_DELAY=0.3", "-s", "CONCURRENT_REQUESTS=2", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]


def worker_args(redis_url: str, base_url: str) -> list[str]:
    args = ["-s", f"SACORPUS_REDIS_URL={redis_url}", "-a", f"base_url={base_url}", *PACED]
    if ADDON not in get_project_settings().getdict("ADDONS"):  # until settings.py lists the add-on
        args += ["-s", json.dumps({ADDON: 100}).join(["ADDONS=", ""])]
    return args


def fetched_urls(run: CrawlRun) -> list[str]:
    return [item["url"] for item in run.items]


def article_fetches(site) -> Counter[str]:
    paths = set(article_paths())
    return Counter(path for method, path in site.requests if method == "GET" and path in paths)


def stored(store) -> list[str]:
    store.open()
    try:
        return [a["url"] for a in store.iter_articles()]
    finally:
        store.close()


def test_two_workers_share_one_frontier(tmp_path: Path, redis_db, mongo_server, demo_site):
    database = f"{mongo_server.database}_distributed"
    env = {"MONGO_URI": mongo_server.uri, "MONGO_DATABASE": database}
    args = worker_args(redis_db.url, demo_site.base_url)

    def worker(n: int) -> CrawlRun:
        time.sleep(0.3 * n)
        return run_crawl("demo", tmp_path / f"worker{n}", *args, env=env, timeout=120)

    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(worker, (0, 1)))
    for run in runs:
        assert run.returncode == 0, run.log[-3000:]
        assert "distributed crawl: worker" in run.log, run.log[-3000:]
    one, two = (fetched_urls(r) for r in runs)
    print(f"articles fetched per worker: {len(one)} and {len(two)}")
    assert one and two, f"both workers must fetch articles: {len(one)} and {len(two)}"
    assert not set(one) & set(two), "an article was fetched by both workers"
    assert len(one) + len(two) == len(EXPECTED) and set(one) | set(two) == EXPECTED
    fetches = article_fetches(demo_site)
    assert set(fetches) == set(article_paths()) and set(fetches.values()) == {1}, fetches
    store = MongoStore(mongo_server.uri, database)
    urls = stored(store)
    assert sorted(urls) == sorted(EXPECTED), "every article stored exactly once"
    client = redis_db.client()
    assert client.zcard("sacorpus:demo:requests") == 0
    assert not client.exists("sacorpus:demo:seen"), "the last worker ends the crawl generation"
    assert not client.exists("sacorpus:demo:workers")
    store.open()
    store.drop()
    store.close()


def url_path(url: str) -> str:
    return urlsplit(url).path


def queued_urls(client) -> set[str]:
    entries = client.zrange("sacorpus:demo:requests", 0, -1)
    return {json.loads(json.loads(raw)["req"])["url"] for raw in entries}  # plain JSON, never pickle


def test_stopped_crawl_resumes_from_the_redis_queue(tmp_path: Path, redis_db, demo_site):
    client = redis_db.client()
    args = worker_args(redis_db.url, demo_site.base_url)
    shared = ["-s", f"SACORPUS_SQLITE_PATH={tmp_path / 'shared.sqlite'}"]
    first = run_crawl(
        "demo", tmp_path / "first", *args, *shared, "-s", "CLOSESPIDER_ITEMCOUNT=8", timeout=120
    )
    assert first.returncode == 0, first.log[-3000:]
    assert "'finish_reason': 'closespider_itemcount'" in first.log
    waiting = queued_urls(client)
    assert waiting, "the stopped crawl leaves its queue in Redis"
    assert client.scard("sacorpus:demo:seen") > 0, "and its seen-set"
    assert not (tmp_path / "first" / "jobs").exists(), "no JOBDIR in distributed mode"

    second = run_crawl("demo", tmp_path / "second", *args, *shared, timeout=120)
    assert second.returncode == 0, second.log[-3000:]
    assert f"({len(waiting)} requests queued)" in second.log
    one, two = fetched_urls(first), fetched_urls(second)
    assert len(one) >= 8 and two
    assert not set(one) & set(two), "the restarted crawl fetched an article again"
    assert set(one) | set(two) == EXPECTED, "an article was lost between the runs"
    queued_articles = {HOME + path for path in map(url_path, waiting) if path in set(article_paths())}
    assert queued_articles, "articles were waiting in the queue"
    assert queued_articles <= set(two), "queued articles are fetched by the restarted crawl"
    assert set(article_fetches(demo_site).values()) == {1}
    assert sorted(stored(SQLiteStore(str(tmp_path / "shared.sqlite")))) == sorted(EXPECTED)
    assert client.zcard("sacorpus:demo:requests") == 0 and not client.exists("sacorpus:demo:seen")


def test_unreachable_redis_stops_the_crawl_with_a_clear_message(tmp_path: Path, demo_site):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    run = run_crawl("demo", tmp_path, *worker_args(dead, demo_site.base_url), timeout=120)
    assert run.returncode != 0
    assert "is not reachable" in run.log and "SACORPUS_REDIS_URL" in run.log, run.log[-3000:]
    assert not run.items
    assert not article_fetches(demo_site)
