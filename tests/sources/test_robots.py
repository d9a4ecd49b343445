"""robots.txt helpers, and the rule that sources/ stays free of Scrapy."""

from __future__ import annotations

import subprocess
import sys

from sacorpus.sources.robots import Robots, decode_robots

ROBOTS = """User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: Mozilla
Disallow: /nobrowser/
Disallow: /private/

Sitemap: /sitemap.xml
"""
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"


def test_allowed_for_all_agents():
    robots = Robots.parse(ROBOTS)
    assert robots.allowed("https://x.org/news/a", ["sacorpus", BROWSER])
    assert not robots.allowed("https://x.org/nobrowser/a", ["sacorpus", BROWSER])
    assert robots.allowed("https://x.org/nobrowser/a", ["sacorpus"])
    assert not robots.allowed("https://x.org/private/a", ["sacorpus"])
    assert robots.crawl_delay("sacorpus") == 2.0
    assert robots.sitemaps("https://x.org/robots.txt") == ["https://x.org/sitemap.xml"]


def test_decoding_boms():
    assert decode_robots(ROBOTS.encode("utf-16")) == ROBOTS
    assert decode_robots(b"\xef\xbb\xbf" + ROBOTS.encode()) == ROBOTS
    assert Robots.parse(ROBOTS.encode("utf-16")).allowed("https://x.org/private/", ["a"]) is False


def test_garbage_allows_everything():
    robots = Robots.parse(b"\x00\xff garbage <html>")
    assert robots.allowed("https://x.org/anything", ["sacorpus"])


def test_sources_do_not_import_scrapy():
    code = (
        "import sys\n"
        "import sacorpus.sources.feeds, sacorpus.sources.sitemaps, sacorpus.sources.wayback\n"
        "import sacorpus.sources.urls, sacorpus.sources.pollstate, sacorpus.sources.robots\n"
        "import sacorpus.testing.wayback_replay\n"
        "print('scrapy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"
