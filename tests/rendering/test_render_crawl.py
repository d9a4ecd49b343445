"""Article pages whose text a script builds are rendered in Chromium; every other page is not.

Real parts: the fixture site (sacorpus.testing.jssite) is served on loopback by SiteServer, the crawl is
a real ``scrapy crawl`` from a copy of the project holding the publication file, and the browser is
Debian's Chromium driven by scrapy-playwright.
"""

from __future__ import annotations

import os
import re

import pytest
from crawlkit import REPO, run_crawl

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.testing import jssite

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module", autouse=True)
def chromium_installed():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run scripts/setup.sh --dev (it installs it)")


def stats_of(log: str) -> dict[str, int]:
    """The integer stats of the crawl's final stats dump."""
    return {
        k: int(v)
        for k, v in re.findall(r"'([\w/.-]+)': (\d+)[,}]", log.rsplit("Dumping Scrapy stats", 1)[-1])
    }


def crawl_site(tmp_path, live: int, plain: int, *args: str, render: bool = True, pages=None):
    project = jssite.make_project(REPO, tmp_path / "project", render=render)
    with SiteServer(pages or jssite.site(live, plain)) as server:
        run = run_crawl(
            jssite.SLUG, tmp_path / "run", "-a", f"base_url={server.base_url}", *args, project=project
        )
        served = list(server.requests)
    return run, served


def test_script_built_text_is_extracted_and_plain_pages_skip_the_browser(tmp_path):
    pages = jssite.site(2, 2)
    # served as Latin-1 while the script inserts characters Latin-1 lacks: the rendered body is UTF-8
    pages["/live/1.html"] = Resource(jssite.live_page(1), "text/html; charset=iso-8859-1")
    run, served = crawl_site(tmp_path, 2, 2, pages=pages)
    assert run.returncode == 0, run.log[-3000:]
    by_path = {item["url"].split("jsnews.sacorpus.invalid", 1)[1]: item for item in run.items}
    assert sorted(by_path) == ["/live/0.html", "/live/1.html", "/news/0.html", "/news/1.html"], run.log[
        -3000:
    ]
    for n in range(2):
        live, plain = by_path[f"/live/{n}.html"], by_path[f"/news/{n}.html"]
        for paragraph in jssite.paragraphs(n):
            assert paragraph in live["text"], (live["text"], run.log[-2000:])
            assert paragraph in plain["text"]
        assert "Loading" not in live["text"]
        assert live["rendered"] == "playwright" and plain["rendered"] is None
        assert "charset=utf-8" in live["headers"]["content-type"] and "content-length" not in live["headers"]
    stats = stats_of(run.log)
    assert stats["playwright/page_count"] == 2  # one browser page per rendered article, none for the rest
    assert stats["playwright/page_count/closed"] == 2
    assert stats["sacorpus/render/playwright/requests"] == 2
    # the script on a link-local address was never requested by the browser
    assert stats["sacorpus/render/refused/internal_address"] >= 2
    assert stats.get("playwright/request_count/aborted", 0) >= 2
    assert ("GET", "/live/0.html") in served


def test_a_publication_without_render_rules_starts_no_browser(tmp_path):
    run, _ = crawl_site(tmp_path, live=2, plain=1, render=False)
    assert run.returncode == 0, run.log[-3000:]
    assert len(run.items) == 3
    stats = stats_of(run.log)
    assert not [k for k in stats if k.startswith(("playwright/", "sacorpus/render/"))], stats
    assert "scrapy-playwright" not in run.log  # the handler was not even installed
    live = next(i for i in run.items if "/live/0.html" in i["url"])
    assert jssite.paragraphs(0)[0] not in (live["text"] or "")  # unrendered: the script's text is absent
    assert live["rendered"] is None


def test_no_browser_starts_when_no_page_matches_the_render_rules(tmp_path):
    run, _ = crawl_site(tmp_path, 0, 2)
    assert run.returncode == 0, run.log[-3000:]
    assert len(run.items) == 2 and all(i["rendered"] is None for i in run.items)
    stats = stats_of(run.log)
    assert "playwright/browser_count" not in stats and "playwright/page_count" not in stats, stats
    assert "Launching browser" not in run.log


def test_missing_chromium_stops_the_crawl_with_one_line(tmp_path):
    run, served = crawl_site(tmp_path, 1, 0, "-s", f"SACORPUS_CHROMIUM_PATH={tmp_path}/no-chromium")
    assert run.returncode == 2
    last = run.log.strip().splitlines()[-1]
    assert "Chromium" in last and "scripts/setup.sh" in last and "Traceback" not in run.log
    assert served == []


def test_a_rendered_page_cannot_navigate_the_browser_off_the_publication(tmp_path):
    pages = jssite.site(1, 0)
    # another host on loopback: were the guard to let it through, no packet would leave 127.0.0.0/8
    script = b"<script>location.href = 'http://127.0.0.2:' + location.port + '/landing';</script>"
    pages["/live/away.html"] = Resource(
        jssite.live_page(7).replace(b"</body>", script + b"</body>"), "text/html"
    )
    pages["/feed.xml"] = Resource(jssite.feed(["/live/0.html", "/live/away.html"]), "application/rss+xml")
    run, served = crawl_site(tmp_path, 0, 0, pages=pages)
    assert run.returncode == 0, run.log[-3000:]
    stats = stats_of(run.log)
    assert stats["sacorpus/render/refused/offsite"] >= 1, run.log[-3000:]
    assert "browser request refused http://127.0.0.2:" in run.log
    assert ("GET", "/landing") not in served
    assert sorted(i["url"].rsplit("/", 1)[1] for i in run.items) == ["0.html", "away.html"]


def test_a_wait_for_selector_that_never_appears_keeps_the_page(tmp_path):
    render = "\n[render]\nall = true\nwait_for = '#never-there'\ntimeout = 4\n"
    project = jssite.make_project(REPO, tmp_path / "project", render=False, extra=render)
    with SiteServer(jssite.site(1, 0)) as server:
        run = run_crawl(jssite.SLUG, tmp_path / "run", "-a", f"base_url={server.base_url}", project=project)
    assert run.returncode == 0, run.log[-3000:]
    assert [i["rendered"] for i in run.items] == ["playwright"]
    assert jssite.paragraphs(0)[0] in run.items[0]["text"]  # rendered all the same, nothing lost
    assert stats_of(run.log)["sacorpus/render/playwright/wait_for_missed"] == 1
    assert "wait_for selector did not appear" in run.log
