"""The spider walks sitemap indexes through the one code path (sources.sitemap_index.next_sitemaps):
a self-reference and a cycle between two indexes cost one request each, and a child sitemap whose
URL names a month outside the run's window is never requested."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.demo.site import BUSINESS_SITEMAP, NEWS_SITEMAP_GZ, XML, build_site

pytestmark = pytest.mark.slow

OLD_MONTH = "/sitemaps/business-2013-05.xml"  # outside since=2026-01-01: must not be requested
LOOP = "/sitemaps/loop-index.xml"  # lists the root index again: a cycle


def _index(*paths: str) -> Resource:
    rows = "".join(f"<sitemap><loc>{{base}}{p}</loc></sitemap>" for p in paths)
    body = f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{rows}</sitemapindex>'
    return Resource(body.encode(), XML)


def test_sitemap_index_walk_guards_cycles_and_prunes_by_window(crawl):
    site = build_site()
    site["/sitemap_index.xml"] = _index("/sitemap_index.xml", NEWS_SITEMAP_GZ, LOOP, OLD_MONTH)
    site[LOOP] = _index("/sitemap_index.xml", BUSINESS_SITEMAP)
    site[OLD_MONTH] = site[BUSINESS_SITEMAP]
    with SiteServer(site) as server:
        run = crawl(
            "demo",
            "-a",
            f"base_url={server.base_url}",
            "-a",
            "sources=sitemaps",
            "-a",
            "since=2026-01-01",
            "-s",
            "ROBOTSTXT_OBEY=False",
        )
        gets = Counter(p for m, p in server.requests if m == "GET")
    assert run.returncode == 0, run.log[-3000:]
    assert gets["/sitemap_index.xml"] == 1 and gets[LOOP] == 1, gets
    assert gets[NEWS_SITEMAP_GZ] == 1 and gets[BUSINESS_SITEMAP] == 1, gets
    assert gets[OLD_MONTH] == 0, "a child sitemap of a month outside the window was fetched"
    skipped = re.search(r"'sacorpus/source/sitemap/children_skipped': (\d+)", run.log)
    assert skipped and int(skipped.group(1)) == 3, run.log[-3000:]  # self, loop back, old month
    assert run.items, "the sitemaps' articles were crawled"
