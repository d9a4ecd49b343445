"""The disk-backed seen filter and the JOBDIR run bookkeeping, without a crawl."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap

from scrapy.http import Request

from sacorpus.frontier import jobstate
from sacorpus.frontier.dupefilter import DiskDupeFilter
from sacorpus.frontier.seen import SeenStore


def fp(i: int) -> bytes:
    return hashlib.sha1(str(i).encode()).digest()


def test_seen_store_adds_once_and_persists(tmp_path):
    with SeenStore(tmp_path / "seen.sqlite", cache_size=10, flush_every=7) as seen:
        assert [seen.add(fp(i)) for i in range(50)] == [True] * 50
        assert not any(seen.add(fp(i)) for i in range(50))
        assert fp(3) in seen and fp(99) not in seen
        assert len(seen) == 50
    with SeenStore(tmp_path / "seen.sqlite") as again:
        assert fp(0) in again and fp(49) in again and not again.add(fp(10))
        again.clear()
        assert fp(0) not in again and len(again) == 0


def test_seen_store_ram_stays_bounded(tmp_path):
    with SeenStore(tmp_path / "seen.sqlite", cache_size=1000, flush_every=500) as seen:
        for i in range(20_000):
            seen.add(fp(i))
            assert seen.ram_entries <= 1500
        assert len(seen) == 20_000
        assert fp(5) in seen  # long evicted from the cache, found on disk


def test_seen_store_without_path_is_temporary():
    seen = SeenStore(None).open()
    path = seen.path
    assert seen.add(b"x") and not seen.add(b"x")
    seen.close()
    assert not path.exists()


def test_seen_store_survives_sigkill_beyond_the_last_batch(tmp_path):
    db = tmp_path / "seen.sqlite"
    code = textwrap.dedent(f"""
        import hashlib, os, signal, sys
        from sacorpus.frontier.seen import SeenStore
        s = SeenStore({str(db)!r}, flush_every=100).open()
        for i in range(1050):
            s.add(hashlib.sha1(str(i).encode()).digest())
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", code], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    with SeenStore(db) as seen:
        assert len(seen) == 1000  # everything but the last unflushed batch of 50
        assert fp(999) in seen and fp(1049) not in seen


def test_jobstate_tells_fresh_paused_and_killed_runs_apart(tmp_path):
    first = jobstate.begin(tmp_path)
    assert not first.resumed and first.recovered is None
    jobstate.end(tmp_path, first, "shutdown")  # Ctrl-C / CLOSESPIDER_*: paused
    resumed = jobstate.begin(tmp_path)
    assert resumed.resumed and resumed.run == first.run
    # no end(): killed
    recovering = jobstate.begin(tmp_path)
    assert recovering.recovered == first.run and recovering.run != first.run and not recovering.resumed
    jobstate.end(tmp_path, recovering, "finished")
    fresh = jobstate.begin(tmp_path)
    assert not fresh.resumed and fresh.recovered is None and fresh.run != recovering.run


def test_dupefilter_keys_by_article_url_and_lets_redirects_through(tmp_path):
    df = DiskDupeFilter(str(tmp_path))
    df.begin_run("r1", fresh=True)
    a = Request("http://archive/web/2013id_/http://x.co.za/a", meta={"sacorpus_seen_key": "http://x.co.za/a"})
    b = Request("http://archive/web/2014id_/http://x.co.za/a", meta={"sacorpus_seen_key": "http://x.co.za/a"})
    assert not df.request_seen(a)
    assert df.request_seen(b), "the same article through another capture is a duplicate"
    redirected = b.replace(url="http://archive/web/20130105id_/http://x.co.za/a")
    redirected.meta["redirect_urls"] = [b.url]
    assert not df.request_seen(redirected)
    plain = Request("http://x.co.za/feed")
    assert not df.request_seen(plain) and df.request_seen(Request("http://x.co.za/feed"))
    df.close("shutdown")
    df = DiskDupeFilter(str(tmp_path))
    df.begin_run("r1", fresh=False)  # a resumed run keeps its seen set
    assert df.request_seen(a)
    df.close("finished")
    df = DiskDupeFilter(str(tmp_path))
    df.begin_run("r2", fresh=True)  # a new run starts empty: the store decides what is fetched again
    assert not df.request_seen(a)
    df.close("finished")
    assert (tmp_path / "requests.seen.sqlite").exists() and not os.path.exists(tmp_path / "requests.seen")
