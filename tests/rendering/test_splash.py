"""The Splash renderer against a loopback server speaking Splash's render.html API with real Chromium.

Not Splash itself (it is not installable here): sacorpus.testing.splash answers the HTTP contract as
Splash documents it, so what is proven is the middleware's side of that contract: the POST it sends,
HTTP Basic credentials taken from SPLASH_URL (and kept out of the log), the rendered DOM mapped back
to the article's own URL, and Splash errors counted instead of crashing the crawl.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from crawlkit import REPO, free_port, run_crawl, stop_process, wait_until_listening
from test_render_crawl import CHROMIUM, stats_of

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.testing import jssite

pytestmark = pytest.mark.slow

PASSWORD = "s3cret-Spl4sh"


@pytest.fixture(scope="module")
def splash(tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run scripts/setup.sh --dev (it installs it)")
    port = free_port()
    log = tmp_path_factory.mktemp("splash") / "splash.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sacorpus.testing.splash",
                "--port",
                str(port),
                "--auth",
                f"crawler:{PASSWORD}",
            ],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_listening(port, proc, "fake splash", timeout=60, log=log)
        yield port, log
    finally:
        stop_process(proc, timeout=20)


def splash_calls(log) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def crawl(tmp_path, splash_url: str, live: int = 2, plain: int = 1, pages=None, routes=()):
    project = jssite.make_project(REPO, tmp_path / "project")
    with SiteServer(pages or jssite.site(live, plain)) as server:
        for prefix, answer in routes:
            server.add_route(prefix, answer)
        run = run_crawl(
            jssite.SLUG,
            tmp_path / "run",
            "-a",
            f"base_url={server.base_url}",
            "-s",
            f"SPLASH_URL={splash_url}",
            "-s",
            "RETRY_TIMES=1",
            project=project,
        )
        return run, server.base_url, list(server.requests)


def test_pages_rendered_by_splash_are_extracted_under_their_own_url(tmp_path, splash):
    port, log = splash
    before = len(splash_calls(log))
    run, base, _served = crawl(tmp_path, f"http://crawler:{PASSWORD}@127.0.0.1:{port}")
    assert run.returncode == 0, run.log[-3000:]
    assert PASSWORD not in run.log
    by_path = {item["url"].split("jsnews.sacorpus.invalid", 1)[1]: item for item in run.items}
    assert sorted(by_path) == ["/live/0.html", "/live/1.html", "/news/0.html"], run.log[-3000:]
    for n in range(2):
        item = by_path[f"/live/{n}.html"]
        assert item["rendered"] == "splash"
        for paragraph in jssite.paragraphs(n):
            assert paragraph in item["text"]
    assert by_path["/news/0.html"]["rendered"] is None
    calls = splash_calls(log)[before:]
    assert sorted(c["url"] for c in calls) == [f"{base}/live/0.html", f"{base}/live/1.html"]
    assert all(c["wait"] > 0 for c in calls)  # wait_for without wait: SACORPUS_SPLASH_WAIT
    stats = stats_of(run.log)
    assert stats["sacorpus/render/splash/requests"] == 2
    assert not [k for k in stats if k.startswith("playwright/")]  # no browser of our own
    assert "scrapy-playwright" not in run.log


def test_wrong_credentials_and_a_dead_splash_fail_loudly_not_silently(tmp_path, splash):
    port, _ = splash
    run, _, _ = crawl(tmp_path / "a", f"http://crawler:Wr0ngPass@127.0.0.1:{port}", live=1, plain=1)
    assert "Wr0ngPass" not in run.log and "Traceback" not in run.log
    assert [i["url"] for i in run.items] == ["http://jsnews.sacorpus.invalid/news/0.html"]
    stats = stats_of(run.log)
    assert stats["sacorpus/render/splash/requests"] == 1
    assert stats.get("downloader/response_status_count/401", 0) >= 1

    dead = free_port()
    run, _, _ = crawl(tmp_path / "b", f"http://127.0.0.1:{dead}", live=1, plain=1)
    assert "Traceback" not in run.log
    assert [i["url"] for i in run.items] == ["http://jsnews.sacorpus.invalid/news/0.html"]
    assert stats_of(run.log).get("sacorpus/article/failed", 0) == 1


def test_a_page_splash_cannot_load_is_a_counted_render_error_and_retried(tmp_path, splash):
    port, _ = splash
    pages = jssite.site(0, 1)
    pages["/feed.xml"] = Resource(jssite.feed(["/live/broken.html", "/news/0.html"]), "application/rss+xml")

    def drop_connection(_path, _headers):  # the browser inside Splash gets an empty answer
        raise ConnectionAbortedError("the site drops the connection")

    run, _, _ = crawl(
        tmp_path,
        f"http://crawler:{PASSWORD}@127.0.0.1:{port}",
        pages=pages,
        routes=[("/live/", drop_connection)],
    )
    assert "Traceback" not in run.log
    assert [i["url"] for i in run.items] == ["http://jsnews.sacorpus.invalid/news/0.html"]
    stats = stats_of(run.log)
    assert stats["sacorpus/render/splash/errors/502"] == 2  # the first try and one retry (RETRY_TIMES=1)
    assert "Splash could not render http://127.0.0.1:" in run.log and "RenderError" in run.log
