"""What `scrapy crawl` tells cron: one clean line for a bad argument, non-zero when the run failed."""

from __future__ import annotations

import pytest
from crawlkit import free_port

from sacorpus.verdict import REFUSED, run_failures

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "argument,message",
    [
        ("since=notadate", "argument since='notadate' is not a date (YYYY-MM-DD)"),
        ("sources=feeds,bogus", "unknown source kind(s) ['bogus']"),
        ("wayback_mode=sideways", "wayback_mode='sideways'"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(crawl, argument, message):
    run = crawl("demo", "-a", argument, export=False)
    assert run.returncode == 2
    assert message in run.log and "Traceback" not in run.log


def test_an_empty_date_window_is_refused(crawl):
    run = crawl("demo", "-a", "since=2026-05-01", "-a", "until=2026-01-01", export=False)
    assert run.returncode == 2 and "the window is empty" in run.log and "Traceback" not in run.log


def test_a_run_whose_every_source_failed_exits_1(crawl):
    dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    run = crawl("demo", "-a", f"base_url={dead}", "-s", "RETRY_ENABLED=False", export=False)
    assert run.returncode == 1, run.log[-2000:]
    assert "every source failed" in run.log


def test_a_normal_run_exits_0(crawl):
    run = crawl("demo", export=False)
    assert run.returncode == 0, run.log[-2000:]


def test_verdict_reasons():
    assert run_failures({}) == []
    assert run_failures({"sacorpus/source/feed/failed": 2, "sacorpus/source/feed/documents": 1}) == []
    assert "every source failed" in run_failures({"sacorpus/source/feed/failed": 2})[0]
    assert (
        "spilled to data/spill/x.jsonl"
        in run_failures({"sacorpus/store/spilled": 3, "sacorpus/store/spill_path": "data/spill/x.jsonl"})[0]
    )
    assert "LOST" in run_failures({"sacorpus/store/lost": 1})[0]
    assert run_failures({REFUSED: "store down"}) == ["run refused: store down"]
    assert run_failures({"downloader/request_count": 3})[0].startswith("fetched nothing: 3 requests")
    assert run_failures({"downloader/request_count": 3, "downloader/response_count": 3}) == []
    wanted = {"downloader/request_count": 9, "downloader/response_count": 9, "sacorpus/article/requested": 5}
    assert run_failures({**wanted, "finish_reason": "finished"})[0].startswith("stored nothing: 5 new")
    assert run_failures({**wanted, "finish_reason": "finished", "item_scraped_count": 1}) == []
    assert run_failures({**wanted, "finish_reason": "shutdown"}) == []  # stopped by hand: not judged
    assert "lock was lost" in run_failures({"sacorpus/run/lock_lost": 1})[0]
