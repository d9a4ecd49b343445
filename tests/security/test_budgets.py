"""One huge source cannot stall or starve a crawl: budgets per source, newest first, interleaved.

Unit checks of the pure budget, then a real crawl of the demo publication whose feed also lists
100,000 items and whose sitemap index fans out 8 ways at every level: the normal articles are all
stored, soon after a clean run would have stored them, and what the budget left out is counted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from crawlkit import run_crawl

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.demo.site import article_paths, build_site
from sacorpus.sources.budget import INTERLEAVE_BLOCK, SourceBudget, interleave_priority, newest_first
from sacorpus.sources.feeds import cut_items, parse_feed

HOME = "http://demo.sacorpus.invalid"
XML = "application/xml; charset=utf-8"


def test_entries_over_the_budget_are_the_newest() -> None:
    candidates = [
        ("a", {"published": "2026-11-01T06:00:00+00:00"}),
        ("b", {}),
        ("c", {"lastmod": "2026-11-03T06:00:00+00:00"}),
        ("d", {"published": "2026-11-02T06:00:00+00:00"}),
    ]
    assert [u for u, _ in newest_first(candidates)] == ["c", "d", "a", "b"]
    taken, left = SourceBudget(max_entries=2).entries(candidates)
    assert [u for u, _ in taken] == ["c", "d"] and left == 2, "the newest two"
    taken, left = SourceBudget(max_entries=3).entries(candidates)
    assert [u for u, _ in taken] == ["a", "c", "d"] and left == 1, "kept in the document's order"
    taken, left = SourceBudget().entries(candidates)
    assert len(taken) == 4 and left == 0


def test_sitemap_documents_are_limited_per_index_and_per_run() -> None:
    budget = SourceBudget(max_children=3, max_documents=5)
    urls = [f"s{i}" for i in range(6)]
    kept, left = budget.children(urls, {"s5": "2026-11-05", "s1": "2026-11-01"})
    assert kept == ["s5", "s1", "s0"] and left == 3
    kept, left = budget.children(urls)
    assert kept == ["s0", "s1"] and left == 4, "the run's fifth document is the last"
    assert budget.children(urls) == ([], 6)


def test_sources_are_interleaved_in_blocks() -> None:
    assert interleave_priority(0) == interleave_priority(INTERLEAVE_BLOCK - 1) == 0
    assert interleave_priority(INTERLEAVE_BLOCK) == -1
    assert interleave_priority(10**6) == interleave_priority(10**7), "few distinct priorities"


def _rss_items(n: int, start: int = 0) -> str:
    return "".join(
        f"<item><title>Flood {i}</title><link>{{base}}/news/2026/11/01/flood-story-{i:06d}</link>"
        f"<pubDate>Sun, 01 Nov 2026 06:00:00 GMT</pubDate><guid>flood-{i}</guid></item>"
        for i in range(start, start + n)
    )


def test_a_feed_is_read_up_to_its_item_limit_and_stays_well_formed() -> None:
    doc = f'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>{_rss_items(50)}</channel></rss>'
    body, cut = cut_items(doc.encode(), 20)
    assert cut == 30 and body.endswith(b"</item></channel></rss>")
    result = parse_feed(doc.encode(), HOME + "/rss.xml", max_items=20)
    assert len(result.entries) == 20 and result.entries[0].title == "Flood 0"
    assert "30 items past the first 20 not read" in (result.problem or "")
    assert "SAXParseException" not in (result.problem or ""), "the cut document is well-formed"
    assert cut_items(doc.encode(), 50) == (doc.encode(), 0)


def _fanout(site: dict[str, Resource], prefix: str, depth: int, levels: int) -> None:
    """An index that lists 8 indexes that list 8 ... ; the last level lists one (missing) article each."""
    if depth == levels:
        body = f"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><url><loc>{{base}}/news/2026/11/02/fan{prefix.replace('/', '-')}-1</loc></url></urlset>"
    else:
        children = "".join(f"<sitemap><loc>{{base}}{prefix}-{i}.xml</loc></sitemap>" for i in range(8))
        body = f"<sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{children}</sitemapindex>"
        for i in range(8):
            _fanout(site, f"{prefix}-{i}", depth + 1, levels)
    site[f"{prefix}.xml"] = Resource(body.encode(), XML)


def hostile_site() -> dict[str, Resource]:
    site = build_site()
    rss = site["/rss.xml"]
    site["/rss.xml"] = Resource(
        rss.body.replace(b"</channel>", _rss_items(100_000).encode() + b"</channel>"), rss.content_type
    )
    index = site["/sitemap_index.xml"]
    site["/sitemap_index.xml"] = Resource(
        index.body.replace(
            b"</sitemapindex>", b"<sitemap><loc>{base}/fan/0.xml</loc></sitemap></sitemapindex>"
        ),
        index.content_type,
    )
    _fanout(site, "/fan/0", 0, 4)
    return site


def _stat(log: str, name: str) -> int:
    match = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(match.group(1)) if match else 0


@pytest.mark.slow
def test_huge_feed_and_sitemap_fanout_do_not_starve_the_crawl(tmp_path: Path) -> None:
    expected = {HOME + p for p in article_paths()}
    with SiteServer(hostile_site()) as site:
        run = run_crawl("demo", tmp_path / "hostile", "-a", f"base_url={site.base_url}", timeout=600)
        fan_documents = sum(1 for _, path in site.requests if path.startswith("/fan/"))
        gets = [path for method, path in site.requests if method == "GET"]
    normal = set(article_paths())
    last_normal = max(i for i, path in enumerate(gets) if path in normal)
    flood_before = sum(1 for path in gets[:last_normal] if "flood-story" in path)
    flood_all = sum(1 for path in gets if "flood-story" in path)
    print(f"flood articles fetched before the last normal one: {flood_before} of {flood_all}")
    print(f"fan-out sitemap documents fetched: {fan_documents} (of 585 indexes and 4096 leaves)")
    assert {i["url"] for i in run.items} >= expected, "a normal article was not stored"
    assert _stat(run.log, "sacorpus/budget/sitemaps_left_out") > 0, run.log[-4000:]
    assert fan_documents <= 500, "the run's sitemap document budget was not kept"
    assert re.search(r"\d{5} items past the first 1000 not read", run.log), run.log[-4000:]
    # the order of fetches, not wall time (a loaded machine stretches a crawl unevenly): the
    # normal articles are not queued behind the flood the feed and the sitemaps offer
    assert flood_all > 0, "the hostile feed's stories were not offered at all"
    assert flood_before <= flood_all // 4, (
        f"{flood_before} of {flood_all} flood stories were fetched before the last normal article"
    )
