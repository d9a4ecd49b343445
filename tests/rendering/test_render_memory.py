"""200 rendered pages: never more browser pages open than the limit, and memory does not grow.

The crawl (a real ``scrapy crawl`` subprocess with Chromium) is watched from outside: the resident
memory of its whole process tree (crawler, Playwright driver, every Chromium process) is sampled while
the site counts the rendered pages it has served. Memory is compared as the peak over a window of
pages, not one sample (a renderer process comes and goes with each page), with a wide margin: the claim
is "bounded", not a number, and the machine is shared.
"""

from __future__ import annotations

import os
import time

import pytest
from crawlkit import REPO
from test_render_crawl import CHROMIUM, stats_of

from sacorpus.demo.server import SiteServer
from sacorpus.testing import jssite

pytestmark = pytest.mark.slow

PAGES = 200
MAX_PAGES = 3


def test_two_hundred_rendered_pages_stay_within_the_page_limit_and_bounded_memory(tmp_path):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run scripts/setup.sh --dev (it installs it)")
    project = jssite.make_project(REPO, tmp_path / "project")
    samples: list[tuple[int, int]] = []  # (rendered pages served so far, RSS of the crawl's process tree)
    with SiteServer(jssite.site(PAGES, 0)) as server:
        proc = jssite.start_crawl(
            project, tmp_path / "run", server.base_url, f"SACORPUS_RENDER_MAX_PAGES={MAX_PAGES}", "JOBDIR="
        )
        deadline = time.monotonic() + 900
        while proc.poll() is None and time.monotonic() < deadline:
            served = sum(1 for _m, path in list(server.requests) if path.startswith("/live/"))
            samples.append((served, jssite.tree_rss(proc.pid)))
            time.sleep(0.25)
        if proc.poll() is None:
            proc.kill()
            pytest.fail("the crawl of 200 rendered pages did not finish in 15 minutes")
    log = (tmp_path / "run" / "crawl.log").read_text()
    stats = stats_of(log)
    assert proc.returncode == 0, log[-3000:]
    assert stats["playwright/page_count"] == PAGES, log[-3000:]
    assert stats["playwright/page_count/closed"] == PAGES  # every page closed after use
    assert stats["playwright/page_count/max_concurrent"] <= MAX_PAGES
    assert stats["playwright/context_count"] == 1  # one context, reused
    assert stats["playwright/browser_count"] == 1
    assert stats["item_scraped_count"] == PAGES

    early = max(rss for served, rss in samples if 25 <= served <= 75)
    late = max(rss for served, rss in samples if served >= PAGES - 50)
    mb = 1024 * 1024
    print(f"peak RSS of the process tree: pages 25-75 {early / mb:.0f} MB, last 50 pages {late / mb:.0f} MB")
    assert late <= early * 1.5 + 100 * mb, (early / mb, late / mb)
