"""A shared Redis is not a way into the workers: no code from the queue, no password in the log.

Real crawls of the demo publication against a real redis-server on loopback; the tampered entries are
what someone with write access to Redis could put there.
"""

from __future__ import annotations

import json
import os
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from crawlkit import free_port, run_crawl
from test_distributed_crawl import EXPECTED, worker_args

pytestmark = pytest.mark.slow

QUEUE = "sacorpus:demo:requests"


class _RunsCode:
    """Unpickling this creates a file: proof that a worker ran code from the queue."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {self.path}",))


def _json_entry(**request: Any) -> bytes:
    base = {"url": "http://demo.sacorpus.invalid/", "method": "GET", "headers": {}, "body": "", "meta": {}}
    base.update(request)
    return json.dumps({"v": 1, "req": json.dumps(base)}).encode()


def _stat(log: str, name: str) -> int:
    match = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(match.group(1)) if match else 0


@pytest.mark.parametrize("signing_key", [None, "shared-worker-key"])
def test_tampered_queue_entries_never_run(tmp_path: Path, redis_db, demo_site, signing_key: str | None):
    marker = tmp_path / "code-ran"
    client = redis_db.client()
    tampered = {
        pickle.dumps({"url": "http://demo.sacorpus.invalid/", "meta": _RunsCode(marker)}): -1000,
        _json_entry(callback="closed"): -999,
    }
    # a well-formed request for an internal address: refused as unsigned when the workers share a key,
    # else taken from the queue and stopped by the address guard before it is sent
    internal = {_json_entry(url=f"http://127.0.0.1:{free_port()}/admin", callback="parse_article"): -998}
    if signing_key:
        tampered.update(internal)
    client.zadd(QUEUE, {**tampered, **internal})
    args = worker_args(redis_db.url, demo_site.base_url)
    env = {"SACORPUS_REDIS_SIGNING_KEY": signing_key} if signing_key else None
    run = run_crawl("demo", tmp_path / "run", *args, env=env, timeout=180)
    assert run.returncode == 0, run.log[-3000:]
    assert not marker.exists(), "a queued pickle ran code on the worker"
    assert _stat(run.log, "sacorpus/redis/rejected_entries") == len(tampered), run.log[-3000:]
    assert run.log.count("refused a queued entry") == len(tampered)
    if not signing_key:
        assert _stat(run.log, "sacorpus/guard/offsite_candidates") >= 1, run.log[-3000:]
    assert {item["url"] for item in run.items} == EXPECTED
    assert "Traceback" not in run.log


def test_redis_password_never_reaches_the_log(tmp_path: Path, redis_db, demo_site):
    client = redis_db.client()
    client.config_set("requirepass", "right-horse-battery")
    try:
        wrong = f"redis://:wrong-staple-42@127.0.0.1:{redis_db.port}/0"
        run = run_crawl("demo", tmp_path / "wrong", *worker_args(wrong, demo_site.base_url), timeout=120)
        dead = f"redis://corpus:dead-staple-43@127.0.0.1:{free_port()}/0"
        gone = run_crawl("demo", tmp_path / "gone", *worker_args(dead, demo_site.base_url), timeout=120)
    finally:
        import redis

        redis.Redis(host="127.0.0.1", port=redis_db.port, password="right-horse-battery").config_set(
            "requirepass", ""
        )
    for result, secret in ((run, "wrong-staple-42"), (gone, "dead-staple-43")):
        assert result.returncode != 0
        assert secret not in result.log, result.log[-3000:]
        assert "***@127.0.0.1" in result.log, result.log[-3000:]
        assert not result.items


def test_mongodb_password_never_reaches_the_log(tmp_path: Path, demo_site):
    uri = f"mongodb://corpus:mongo-staple-44@127.0.0.1:{free_port()}/?serverSelectionTimeoutMS=1500"
    run = run_crawl(
        "demo", tmp_path, "-a", f"base_url={demo_site.base_url}", env={"MONGO_URI": uri}, timeout=120
    )
    assert run.returncode != 0
    assert "mongo-staple-44" not in run.log, run.log[-3000:]
