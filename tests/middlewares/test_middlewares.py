"""The downloader middlewares in a real Scrapy crawl against a loopback site."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import pytest

from sacorpus.middlewares.retry import backoff_delay, retry_after_seconds

FETCH = "sacorpus/fetch/probe"


def test_retry_after_parsing():
    now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert retry_after_seconds("120") == 120.0
    assert retry_after_seconds(b"7") == 7.0
    assert retry_after_seconds("Thu, 01 Jan 2026 12:00:30 GMT", now=now) == 30.0
    assert retry_after_seconds("Thu, 01 Jan 2026 11:00:00 GMT", now=now) == 0.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds(None) is None and retry_after_seconds("") is None


def test_backoff_delay_grows_and_is_capped():
    delays = [backoff_delay(n, base=1.0, cap=10.0, jitter=0) for n in range(6)]
    assert delays == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert all(0.75 <= backoff_delay(0, 1.0, 10.0) <= 1.25 for _ in range(50))


def test_gzip_without_content_encoding_is_inflated(site, crawl):
    result = crawl(site, ["/gz/page", "/plain"])
    assert result.items["/gz/page"]["body"].startswith("<html>")
    assert result.items["/gz/page"]["type"] == "HtmlResponse"
    assert result.stats[f"{FETCH}/gzip_undeclared"] == 1
    assert result.items["/plain"]["body"].startswith("<html>")


def test_gzip_sniff_can_be_switched_off(site, crawl):
    result = crawl(site, ["/gz/page"], "SACORPUS_GZIP_SNIFF_ENABLED=0")
    assert result.items["/gz/page"]["body"].startswith("\x1f\x8b")


def test_403_retried_once_with_browser_ua_unless_robots_forbid(site, crawl):
    pages = ["/blocked/page", "/nobrowser/page", "/forbidden/page"]
    result = crawl(site, pages, "SACORPUS_BROWSER_UA_RETRY=1")
    blocked = result.items["/blocked/page"]
    assert blocked["status"] == 200 and "Mozilla/5.0" in blocked["ua"]
    assert [ua.startswith("sacorpus-test") for _, ua in site.hits["/blocked/page"]] == [True, False]
    # robots.txt forbids /nobrowser/ for browsers: exactly one request, with our own UA.
    assert result.items["/nobrowser/page"]["status"] == 403
    assert len(site.hits["/nobrowser/page"]) == 1
    assert result.stats[f"{FETCH}/browser_ua_retry"] == 1
    assert result.stats[f"{FETCH}/browser_ua_skipped_robots"] == 1
    assert "/forbidden/page" not in site.hits  # robots obeyed at all, and counted
    assert result.stats[f"{FETCH}/robots_forbidden"] == 1


def test_browser_ua_retry_is_off_by_default(site, crawl):
    for settings in ((), ("SACORPUS_BROWSER_UA_RETRY=0",)):
        site.hits.clear()
        result = crawl(site, ["/blocked/page"], *settings)
        assert result.items["/blocked/page"]["status"] == 403
        assert len(site.hits["/blocked/page"]) == 1, "a site that refuses bots is not worked around"


def test_retry_after_honoured_and_backoff(site, crawl):
    result = crawl(site, ["/flaky", "/backoff"], "SACORPUS_RETRY_BACKOFF_BASE=0.3", "RETRY_TIMES=3")
    assert result.items["/flaky"]["status"] == 200
    (t1, _), (t2, _) = site.hits["/flaky"]
    assert t2 - t1 >= 0.95  # waited for Retry-After: 1
    assert result.items["/backoff"]["status"] == 200
    times = [t for t, _ in site.hits["/backoff"]]
    assert len(times) == 3
    first_gap, second_gap = times[1] - times[0], times[2] - times[1]
    assert first_gap >= 0.2 and second_gap >= 0.4  # 0.3 * 2**n, +/- 25% jitter
    assert result.stats[f"{FETCH}/retry_503"] == 1
    assert result.stats[f"{FETCH}/retry_502"] == 2


def test_too_long_retry_after_gives_up_at_once(site, crawl):
    result = crawl(site, ["/ratelimited"])
    assert len(site.hits["/ratelimited"]) == 1
    assert result.items["/ratelimited"]["status"] == 429
    assert result.stats[f"{FETCH}/retry_after_too_long"] == 1
    assert result.stats[f"{FETCH}/http_429"] == 1
    assert result.seconds < 30


def test_redirect_loop_is_cut_and_counted(site, crawl):
    result = crawl(site, ["/loop/a"])
    assert "/loop/a" not in result.items
    assert result.stats[f"{FETCH}/redirect_loop"] == 1
    assert len(site.hits["/loop/a"]) == 1 and len(site.hits["/loop/b"]) == 1


@pytest.mark.slow
def test_failures_counted_per_publication(site, crawl):
    result = crawl(
        site, ["/missing", "/slow", "/big"],
        "DOWNLOAD_TIMEOUT=1", "RETRY_TIMES=1", "SACORPUS_RETRY_BACKOFF_BASE=0.1", "DOWNLOAD_MAXSIZE=100000",
    )  # fmt: skip
    assert result.stats[f"{FETCH}/http_404"] == 1
    assert result.stats[f"{FETCH}/timeout"] == 1
    assert result.stats[f"{FETCH}/too_large"] == 1
    assert "/slow" not in result.items and "/big" not in result.items


def test_robots_enforced_for_every_request_waiting_on_robots_txt(site, crawl):
    paths = [f"/forbidden/{i}" for i in range(6)] + ["/open/1", "/open/2"]
    result = crawl(site, paths)
    assert not [p for p in site.hits if p.startswith("/forbidden/")]
    assert result.stats[f"{FETCH}/robots_forbidden"] == 6
    assert set(result.items) == {"/open/1", "/open/2"}


def test_scrapy_robots_middleware_alone_has_the_race(site, crawl):
    """Documents why sacorpus.middlewares.robots exists; when Scrapy fixes it, this test says so."""
    paths = [f"/forbidden/{i}" for i in range(6)]
    settings = (
        'DOWNLOADER_MIDDLEWARES={"sacorpus.middlewares.robots.RobotsTxtMiddleware": null, '
        '"scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": 100}'
    )
    crawl(site, paths, settings)
    leaked = [p for p in site.hits if p.startswith("/forbidden/")]
    assert leaked, "Scrapy's RobotsTxtMiddleware no longer leaks; sacorpus.middlewares.robots can go"


def test_429_slows_the_whole_host_until_it_recovers(site, crawl):
    paths = [f"/rl/{i}" for i in range(4)]
    result = crawl(site, paths, "CONCURRENT_REQUESTS_PER_DOMAIN=1", "DOWNLOAD_DELAY=0.05")
    assert set(result.items) == set(paths)
    hits = sorted((t, p) for p, ts in site.hits.items() if p.startswith("/rl/") for t, _ in ts)
    assert len(hits) == 5  # one refused, then four successes
    refused_at = hits[0][0]
    # At most the request already in flight when the 429 came goes out during the Retry-After second
    # (without the slot slow-down all four go out at once and only the retry waits).
    assert len([t for t, _ in hits if t - refused_at < 0.9]) <= 2
    gaps = [b[0] - a[0] for a, b in pairwise(hits)]
    assert gaps[-1] < 0.9  # and the host sped up again once the wait was over


def test_browser_ua_retry_follows_the_publication_file():
    from dataclasses import replace

    from scrapy.utils.test import get_crawler

    from sacorpus.middlewares.browser_ua import BrowserUserAgentRetryMiddleware
    from sacorpus.publications import load_publication
    from sacorpus.spiders.demo import DemoSpider

    crawler = get_crawler(DemoSpider)
    crawler.spider = DemoSpider()
    middleware = BrowserUserAgentRetryMiddleware.from_crawler(crawler)
    assert not middleware.wanted(), "off for a publication that does not ask for it"
    crawler.spider.publication = replace(load_publication("demo"), browser_ua_retry=True)
    assert middleware.wanted()
