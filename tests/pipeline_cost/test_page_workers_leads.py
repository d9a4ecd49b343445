"""Page workers on a site whose pages show their description as a lead: every page goes through a worker.

The page stage asks its history whether a shown lead repeats on other pages after it told the history
the page's headlines; the replay refused every such record, so each of those pages went to the worker
twice and was then computed in the crawl's process. Real crawls of a loopback site of our own (a
publication read from ``SACORPUS_PUBLICATIONS_DIR``), one page at a time, without workers and with one:
the same stored articles, every page taken from the worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from crawlkit import feed_publication, run_crawl

from sacorpus.demo.server import SiteServer

from .test_history_replay import _page
from .test_page_workers import stats_of, stored

pytestmark = pytest.mark.slow

PAGES = 10
ORDERED = ["-s", "CONCURRENT_REQUESTS=1", "-s", "ROBOTSTXT_OBEY=False"]
# the fetch's time and headers; and the near-duplicate labels: the pages here share sentences and state
# no date, so the copy fetched first (by the second) is the original, and two crawls (with workers or
# without) fetch them in different seconds
VARYING = {"fetched_at", "headers", "source", "source_url", "dedup_label", "dedup_evidence"}


def test_pages_with_leads_are_all_taken_from_the_worker(tmp_path: Path) -> None:
    pages = {f"news/story-{n}": (f"Story {n}", _page(n)) for n in range(PAGES)}
    site, env = feed_publication(tmp_path, "karoocourier", "Karoo Courier", "courier.example", pages)
    with SiteServer.from_directory(site) as server:
        base = ["-a", f"base_url={server.base_url}", *ORDERED]
        here = run_crawl("karoocourier", tmp_path / "here", *base, env=env)
        workers = run_crawl("karoocourier", tmp_path / "w", *base, "-s", "SACORPUS_PAGE_WORKERS=1", env=env)
    assert here.returncode == 0, here.log[-3000:]
    assert workers.returncode == 0, workers.log[-3000:]
    expected, got = stored(tmp_path / "here", VARYING), stored(tmp_path / "w", VARYING)
    assert len(expected) == PAGES
    assert got == expected
    led = [a for a in expected.values() if (a.get("text") or "").startswith("Residents of ward")]
    assert len(led) == PAGES // 2, "every second page's lead is part of its story"
    stats = stats_of(workers.log)
    assert stats.get("sacorpus/workers/pages") == PAGES
    assert "sacorpus/workers/in_process" not in stats
