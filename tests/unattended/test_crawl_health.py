"""Crawl health over real demo crawls: the record each run leaves in the store, the log summary and
its alarms, ``scrapy health``, and the exit status of runs that fetched nothing or got no article."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from crawlkit import REPO, free_port

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.demo.site import HTML, build_site
from sacorpus.health.alarms import alarms
from sacorpus.health.record import overdue_feeds
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow


def records(run) -> list[dict]:
    with SQLiteStore(str(run.sqlite_path)) as store:
        return store.run_records("demo")


def health(run, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "health", "-s", f"SACORPUS_SQLITE_PATH={run.sqlite_path}", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_two_demo_runs_leave_two_records_and_the_second_finding_nothing_new_exits_0(crawl, tmp_path):
    first = crawl("demo", export=False)
    assert first.returncode == 0, first.log[-3000:]
    second = crawl("demo", export=False)
    assert second.returncode == 0, second.log[-3000:]
    assert "crawl health of demo" in second.log
    newest, oldest = records(second)
    assert oldest["articles_new"] == oldest["articles_stored"] > 0
    assert oldest["responses_by_status"].get("200") == oldest["responses"] > 0
    assert oldest["duplicates"] >= 1 and oldest["short_texts"] == 0 and oldest["failures"] == []
    assert newest["articles_new"] == 0 and newest["requests"] > 0 and newest["failures"] == []
    shown = health(second, "--publication", "demo", "--runs", "5", "--plot", str(tmp_path / "h.png"))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("finished (UTC)") and sum(" demo " in line for line in lines) == 2
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert health(second, "--publication", "nobody").stdout.strip() == "no runs recorded for nobody"


def test_an_offline_run_fetched_nothing_and_exits_1(crawl):
    dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    run = crawl("demo", "-a", f"base_url={dead}", "-s", "RETRY_ENABLED=False", export=False)
    assert run.returncode == 1, run.log[-3000:]
    assert "sacorpus: demo: fetched nothing:" in run.log and "Traceback" not in run.log
    (record,) = records(run)
    assert record["responses"] == 0 and record["requests"] > 0
    assert any(line.startswith("fetched nothing") for line in record["failures"])


def test_a_bot_wall_raises_an_alarm_and_missing_articles_fail_the_run(crawl, tmp_path):
    site = build_site()
    articles = [path for path in site if path.count("/") >= 4 and not path.endswith((".xml", ".gz", "/"))]
    walled = dict(site)
    for path in articles:  # every article answers with a short challenge page instead of the story
        walled[path] = Resource(
            b"<html><body><p>Checking your browser before access.</p></body></html>", HTML
        )
    with SiteServer(walled) as server:
        run = crawl("demo", "-a", f"base_url={server.base_url}", export=False, workdir=tmp_path / "wall")
    assert run.returncode == 0, run.log[-3000:]
    assert "health alarm for demo:" in run.log and "empty or very short: a bot wall or a paywall?" in run.log
    (record,) = records(run)
    assert record["short_texts"] == record["articles_scraped"] > 0

    gone = {path: res for path, res in site.items() if path not in articles}
    with SiteServer(gone) as server:
        run = crawl("demo", "-a", f"base_url={server.base_url}", export=False, workdir=tmp_path / "gone")
    assert run.returncode == 1, run.log[-3000:]
    assert "sacorpus: demo: stored nothing:" in run.log


def test_a_feed_silent_for_much_longer_than_its_pace_is_overdue():
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)
    hourly = [(now - timedelta(hours=10 + k)).isoformat() for k in range(6)]  # last item 10 h ago
    quiet = [(now - timedelta(days=3 * k + 1)).isoformat() for k in range(6)]  # every 3 days, last 1 d ago
    states = {
        "https://x.example/hourly": {"history": hourly, "empty_polls": 2},
        "https://x.example/quiet": {"history": quiet, "empty_polls": 2},
        "https://x.example/young": {"history": hourly[:2], "empty_polls": 2},  # too little history
        "https://x.example/found": {"history": hourly, "empty_polls": 0},  # this poll found something
    }
    (late,) = overdue_feeds(states, now)
    assert late["url"] == "https://x.example/hourly" and late["usual_gap_seconds"] == 3600
    found = alarms({"overdue_feeds": [late], "articles_new": 0})
    assert found == [
        "no new items from https://x.example/hourly for 10 h, usually every 1 h: a moved feed or a block?"
    ]


def test_no_new_articles_alarms_only_against_a_publication_that_usually_has_some():
    busy = [{"articles_new": n} for n in (12, 9, 15)]
    assert any("no new articles" in a for a in alarms({"articles_new": 0}, busy))
    assert alarms({"articles_new": 0}, [{"articles_new": 0}] * 3) == []
    assert alarms({"articles_new": 0}, busy[:2]) == []  # too few earlier runs to judge
    blocked = {"responses_by_status": {"403": 8, "200": 2}, "articles_new": 1}
    assert alarms(blocked) == ["most responses were refusals or server errors (403: 8 of 10): blocked?"]
