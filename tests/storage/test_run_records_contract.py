"""The run-state contract both backends pass: health records per run and the one-run-per-spider lock."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore


def other_handle(store: ArticleStore) -> ArticleStore:
    """A second connection to the same store, as another crawl would open it."""
    if isinstance(store, SQLiteStore):
        return SQLiteStore(store.path)
    assert isinstance(store, MongoStore)
    return MongoStore(store.uri, store.database)


def test_health_records_come_back_newest_first_per_publication(store: ArticleStore) -> None:
    for day, pub, new in [(1, "a", 5), (3, "a", 0), (2, "b", 7), (2, "a", 4)]:
        store.add_run_record(
            {"publication": pub, "finished_at": f"2026-11-0{day}T10:00:00+00:00", "articles_new": new}
        )
    a = store.run_records("a")
    assert [r["articles_new"] for r in a] == [0, 4, 5]
    assert [r["publication"] for r in store.run_records(limit=2)] == ["a", "a"]
    assert store.run_records("a", limit=1)[0]["finished_at"].startswith("2026-11-03")
    assert store.run_records("nobody") == []


def test_a_run_lock_has_one_holder_and_is_given_back(store: ArticleStore) -> None:
    other = other_handle(store)
    with other:
        assert store.acquire_run_lock("run:demo", "first", 60) is None
        assert store.acquire_run_lock("run:demo", "first", 60) is None  # already ours
        assert "first" in (other.acquire_run_lock("run:demo", "second", 60) or "")
        assert other.acquire_run_lock("run:other", "second", 60) is None  # another spider
        assert store.renew_run_lock("run:demo", "first", 60)
        store.release_run_lock("run:demo", "first")
        assert other.acquire_run_lock("run:demo", "second", 60) is None
        other.release_run_lock("run:demo", "second")
        other.release_run_lock("run:other", "second")


def test_a_lock_of_a_killed_process_does_not_stay_stuck(store: ArticleStore) -> None:
    """A process takes the lock and dies by SIGKILL: the lock is free at once (a file lock) or when its
    lease, which nobody renews any more, expires (a lease document)."""
    if isinstance(store, SQLiteStore):
        open_args = f"SQLiteStore({store.path!r})"
        module = "sacorpus.storage.sqlite import SQLiteStore"
    else:
        assert isinstance(store, MongoStore)
        open_args = f"MongoStore({store.uri!r}, {store.database!r})"
        module = "sacorpus.storage.mongo import MongoStore"
    code = (
        f"from {module}\nimport os, sys\ns = {open_args}\ns.open()\n"
        "assert s.acquire_run_lock('run:demo', 'doomed', 1.0) is None\nprint('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        assert store.acquire_run_lock("run:demo", "next", 60) is not None  # the holder is alive
        proc.kill()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 30
    while store.acquire_run_lock("run:demo", "next", 60) is not None:
        assert time.monotonic() < deadline, "the dead holder's lock stayed stuck"
        time.sleep(0.2)
    assert not store.renew_run_lock("run:demo", "doomed", 60)
    store.release_run_lock("run:demo", "next")


def test_an_expired_lease_is_not_renewed(store: ArticleStore) -> None:
    if not isinstance(store, MongoStore):
        pytest.skip("file locks have no lease to expire")
    other = other_handle(store)
    with other:
        assert store.acquire_run_lock("run:x", "slow", 0.2) is None
        time.sleep(0.5)
        assert other.acquire_run_lock("run:x", "taker", 60) is None
        assert not store.renew_run_lock("run:x", "slow", 60)
        other.release_run_lock("run:x", "taker")
