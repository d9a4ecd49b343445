"""Issue 3's Wayback backfill, end to end: `scrapy crawl thenewage -a wayback_from=... -a wayback_to=...`.

The crawl runs against a loopback replay of the CDX API and ``id_`` mementos (plain and JSON
answers, resume-key paging, a 429 with Retry-After). Each test checks what lands in the store:
every 2013 article once, under its original URL, with the capture it came from and the rule set
for that capture date; windows finished before are not queried again.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from thenewage_captures import linked_from_homepages

from sacorpus.publications import load_publication
from sacorpus.sources.wayback import parse_memento_url, wayback_date
from sacorpus.sources.wayback_windows import window_key
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow

YEAR = ["-a", "wayback_from=2013-01-01", "-a", "wayback_to=2013-12-31"]


def wayback_args(replay, *extra: str, rate: float = 20) -> list[str]:
    return [
        *YEAR,
        "-s",
        f"SACORPUS_WAYBACK_BASE={replay.base_url}",
        "-s",
        f"SACORPUS_WAYBACK_CDX_RATE={rate}",
        *extra,
    ]


def stored(workdir: Path) -> list[dict]:
    with SQLiteStore(str(workdir / "corpus.sqlite")) as store:
        return list(
            store.iter_articles(
                fields=[
                    "url",
                    "wayback_timestamp",
                    "final_url",
                    "title",
                    "text",
                    "rule_version",
                    "source",
                    "page_type",
                ]
            )
        )


def store_state(workdir: Path, key: str) -> dict | None:
    with SQLiteStore(str(workdir / "corpus.sqlite")) as store:
        return store.get_state(key)


def assert_year_stored_once(articles: list[dict], stories: list) -> None:
    urls = [a["url"] for a in articles]
    assert len(urls) == len(set(urls)), "an article is stored twice"
    assert set(urls) == {s.url for s in stories}, sorted(set(urls) ^ {s.url for s in stories})
    pub = load_publication("thenewage")
    by_url = {s.url: s for s in stories}
    for a in articles:
        story = by_url[a["url"]]
        assert a["source"] == "wayback"
        assert a["wayback_timestamp"] in story.captured, (a["url"], a["wayback_timestamp"])
        memento = parse_memento_url(a["final_url"])
        assert memento and memento[0] == a["wayback_timestamp"] and "id_/" in a["final_url"]
        assert a["title"] and story.title in a["title"]
        assert a["text"] and story.paragraphs[0][:60] in a["text"]
        assert "Share this article" not in a["text"]
        assert a["rule_version"] == pub.rules_for(wayback_date(a["wayback_timestamp"])).version


def test_backfill_a_year_json_both_methods(crawl, thenewage_replay, tmp_path):
    replay, stories = thenewage_replay
    run = crawl("thenewage", *wayback_args(replay))
    assert run.returncode == 0, run.log[-3000:]
    assert_year_stored_once(stored(tmp_path), stories)
    cdx = replay.cdx_requests()
    assert cdx[0].status == 429 and all(r.status == 200 for r in cdx[1:]), "429 is retried after Retry-After"
    # the retry of the refused query waited for Retry-After: 1 (another window's query may be on its way
    # already when the 429 arrives: its order against the retry is up to the scheduler)
    retry = next(r for r in cdx[1:] if r.query == cdx[0].query)
    assert retry.at - cdx[0].at >= 0.9, "the retry waited for Retry-After: 1"
    queries = [parse_qs(r.query) for r in cdx[1:]]
    assert all(
        q["filter"] == ["statuscode:200", "mimetype:text/html"] and q["output"] == ["json"] for q in queries
    )
    kinds = {(q["url"][0], q.get("matchType", ["exact"])[0]) for q in queries}
    assert kinds == {("thenewage.co.za", "domain"), ("http://www.thenewage.co.za/", "exact")}
    assert len(queries) == 24, "12 monthly windows x (domain listing + homepage walk-back)"
    mementos = [r for r in replay.log if r.path.startswith("/web/")]
    assert not any("/gallery/" in r.path or ".jpg" in r.path or "removed-story" in r.path for r in mementos)
    # the walk-back visits each distinct homepage version once (not the unchanged next-day captures)
    homepages = [r.path for r in mementos if r.path.endswith("id_/http://www.thenewage.co.za/")]
    assert len(homepages) == len(set(homepages)) == 24
    assert all(p.split("/")[2].endswith("060000id_") for p in homepages)
    assert {p.split("/")[2][6:8] for p in homepages} == {"01", "15"}
    # every window is recorded done
    state = store_state(tmp_path, "wayback:thenewage")
    assert len(state["done"]) == 24 and not state["resume_keys"]


def test_cdx_rate_limit_is_respected(crawl, thenewage_replay):
    replay, _ = thenewage_replay
    replay.rate_limit_left = 0
    run = crawl("thenewage", *wayback_args(replay, "-a", "wayback_mode=cdx", rate=4))
    assert run.returncode == 0, run.log[-3000:]
    times = [r.at for r in replay.cdx_requests()]
    assert len(times) == 12, "one CDX call per month"
    gaps = [b - a for a, b in pairwise(times)]
    # 4 per second at most. The crawler starts each call 0.25 s after the one before and only once that
    # one is answered (one at a time); the server sees arrival times, and a call that spends long between
    # its start and the wire (seen: over 1 s on 2 busy cores) shortens the gap after it (seen: 0.078 s).
    # Only the first call's own delay can shorten the whole run's span, so the span is what is checked:
    # 11 intervals of 0.25 s, less a generous 1.5 s for that delay. Without the limit it is milliseconds.
    assert times[-1] - times[0] >= 11 * 0.25 - 1.5, gaps
    # and the setting, not the 1 s default slot delay, is what spaces them
    assert sorted(gaps)[len(gaps) // 2] < 0.8, gaps


def test_homepage_walk_back_alone_finds_the_linked_articles(crawl, thenewage_replay, tmp_path):
    replay, stories = thenewage_replay
    run = crawl(
        "thenewage", *wayback_args(replay, "-a", "wayback_mode=homepage", "-a", "wayback_output=plain")
    )
    assert run.returncode == 0, run.log[-3000:]
    cdx = [parse_qs(r.query) for r in replay.cdx_requests() if r.status == 200]
    assert all(q["url"] == ["http://www.thenewage.co.za/"] and "output" not in q for q in cdx)
    # the homepage capture times differ from the article captures: the replay redirected to the
    # nearest one, and the item carries the capture actually fetched
    linked = linked_from_homepages(stories)
    assert 0 < len(linked) < len(stories)
    assert_year_stored_once(stored(tmp_path), linked)


def test_resume_after_interrupt_skips_finished_windows(crawl, thenewage_replay, tmp_path):
    replay, stories = thenewage_replay
    # Plain CDX answers, 3 captures per page: months are paged with resume keys.
    args = wayback_args(
        replay,
        "-a",
        "wayback_mode=cdx",
        "-a",
        "wayback_output=plain",
        "-s",
        "SACORPUS_WAYBACK_CDX_LIMIT=3",
        "-s",
        "CONCURRENT_REQUESTS=2",
    )
    first = crawl("thenewage", *args, "-s", "CLOSESPIDER_ITEMCOUNT=6")
    assert first.returncode == 0, first.log[-3000:]
    done_first = set(store_state(tmp_path, "wayback:thenewage")["done"])
    stored_first = {a["url"] for a in stored(tmp_path)}
    assert 0 < len(stored_first) < len(stories), "the first run was interrupted part way"
    assert any("resumeKey" in r.query for r in replay.cdx_requests()), "CDX pages were followed by resume key"

    n_before = len(replay.log)
    second = crawl("thenewage", *args)
    assert second.returncode == 0, second.log[-3000:]
    assert_year_stored_once(stored(tmp_path), stories)
    second_cdx = [parse_qs(r.query) for r in replay.log[n_before:] if r.path.startswith("/cdx/")]
    queried = {window_key("domain:thenewage.co.za", _window(q)) for q in second_cdx}
    assert not queried & done_first, "a window finished in the first run was queried again"
    fetched = {
        parse_memento_url("http://x" + r.path)[1] for r in replay.log[n_before:] if r.path.startswith("/web/")
    }
    assert not fetched & stored_first, "an article stored in the first run was fetched again"

    # a third run after the finished one lists nothing and fetches nothing
    n_before = len(replay.log)
    third = crawl("thenewage", *args)
    assert third.returncode == 0, third.log[-3000:]
    assert not [r for r in replay.log[n_before:] if r.path.startswith(("/cdx/", "/web/"))]
    assert len(stored(tmp_path)) == len(stories)


def _window(q: dict) -> tuple:
    from datetime import date

    f, t = q["from"][0], q["to"][0]
    return (date(int(f[:4]), int(f[4:6]), int(f[6:8])), date(int(t[:4]), int(t[4:6]), int(t[6:8])))


def test_sigkill_during_backfill_then_recover(thenewage_replay, tmp_path):
    """Killed mid-backfill: the recovering run lists the killed run's finished windows again, so the
    captures queued when it died are not lost, and the store keeps every article once."""
    import json
    import os
    import signal
    import sqlite3
    import subprocess
    import time

    from crawlkit import FAST, REPO, SCRAPY

    replay, stories = thenewage_replay
    replay.rate_limit_left = 0
    db = tmp_path / "corpus.sqlite"
    cmd = [
        *SCRAPY,
        "crawl",
        "thenewage",
        *FAST,
        "-s",
        f"SACORPUS_SQLITE_PATH={db}",
        "-s",
        f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}",
        "-s",
        "SACORPUS_STORE_BATCH_SIZE=2",
        "-s",
        "SACORPUS_STORE_FLUSH_SECONDS=1",
        "-s",
        "CONCURRENT_REQUESTS=1",
        "-s",
        "DOWNLOAD_DELAY=0.15",
        *wayback_args(replay, "-a", "wayback_mode=cdx", rate=50),
    ]
    env = {k: v for k, v in os.environ.items() if k != "MONGO_URI"}

    def count() -> int:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                return con.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
        except sqlite3.Error:
            return 0

    with (tmp_path / "crawl.log").open("w") as log:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while count() < 6:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "crawl.log").read_text()[
                -2000:
            ]
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    before = {a["url"] for a in stored(tmp_path)}
    assert 0 < len(before) < len(stories)
    assert store_state(tmp_path, "wayback:thenewage")["done"], "the killed run had finished some windows"
    assert (
        json.loads((tmp_path / "jobs" / "thenewage" / "sacorpus-job.json").read_text())["status"] == "running"
    )

    n_before = len(replay.log)
    with (tmp_path / "crawl.log").open("a") as log:
        again = subprocess.run(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    assert again.returncode == 0, (tmp_path / "crawl.log").read_text()[-3000:]
    assert_year_stored_once(stored(tmp_path), stories)
    fetched = {
        parse_memento_url("http://x" + r.path)[1] for r in replay.log[n_before:] if r.path.startswith("/web/")
    }
    assert not fetched & before, "an article stored before the kill was fetched again"
    assert "Wayback windows listed again" in (tmp_path / "crawl.log").read_text()
