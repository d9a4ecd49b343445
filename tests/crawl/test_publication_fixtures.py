"""Every publication's spider crawls a fixture site modelled on that publication's real markup.

``tests/sites/<slug>/`` holds the site (feeds/sitemaps at the publication's real source paths, a few
synthetic articles in its layout) and ``expected.json`` the metadata extraction must produce. The
spider's sources are pointed at the loopback server with ``-a base_url=``; stored URLs keep the
publication's own host. A publication with no fixture site (and no Wayback fixture) fails here.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from crawlkit import REPO

from sacorpus.demo.server import SiteServer
from sacorpus.publications import load_all, publication_slugs

pytestmark = pytest.mark.slow

SITES = REPO / "tests" / "sites"
WAYBACK_FIXTURES = REPO / "tests" / "wayback"  # Wayback-only publications are crawled from a CDX replay there
LIVE = [
    s
    for s, p in load_all().items()
    if s != "demo"
    and (p.sources.feeds or p.sources.sitemaps or p.sources.news_sitemaps or p.sources.start_urls)
]


def test_every_publication_has_a_spider_file_and_a_fixture():
    spider_files = {p.stem for p in (REPO / "sacorpus" / "spiders").glob("*.py")} - {
        "__init__",
        "base",
        "arguments",
    }
    assert set(publication_slugs()) == spider_files
    missing = []
    for slug in publication_slugs():
        if slug == "demo":
            continue
        has_site = (SITES / slug / "expected.json").is_file()
        has_wayback = any(WAYBACK_FIXTURES.glob(f"{slug}*")) if WAYBACK_FIXTURES.is_dir() else False
        if not (has_site or has_wayback):
            missing.append(slug)
    assert not missing, f"publications without a fixture test: {missing}"


@pytest.mark.parametrize("slug", LIVE)
def test_publication_crawls_its_fixture_site(slug, crawl):
    expected = json.loads((SITES / slug / "expected.json").read_text(encoding="utf-8"))
    with SiteServer.from_directory(SITES / slug) as server:
        run = crawl(slug, "-a", f"base_url={server.base_url}", "-s", "ROBOTSTXT_OBEY=False")
    assert run.returncode == 0, run.log[-3000:]
    got = {urlsplit(item["url"]).path: item for item in run.items}
    home_host = urlsplit(load_all()[slug].home).netloc
    for item in run.items:
        assert urlsplit(item["url"]).netloc == home_host, "stored URLs keep the publication's own host"
    articles = _expected_articles(expected)
    assert articles, f"{slug}: expected.json lists no article"
    for path, want in articles.items():
        assert path in got, f"{slug}: {path} not crawled; crawled {sorted(got)}\n{run.log[-2000:]}"
        item = got[path]
        assert item["text"] and len(item["text"]) > 200, (slug, path)
        if "title_clean" in want:
            assert item["title_clean"] == want["title_clean"], (slug, path)
        if "authors" in want:
            assert item["authors"] == want["authors"], (slug, path)
        if want.get("published"):
            assert (item["published_at"] or "")[:10] == want["published"][:10], (slug, path)
        if want.get("language"):
            assert item["language"] == want["language"], (slug, path)
        for absent in want.get("absent", []):
            assert absent not in item["text"], (slug, path, absent)


def _expected_articles(expected: dict) -> dict[str, dict]:
    """expected.json maps URL paths to expectations (optionally under an "articles" key)."""
    table = expected.get("articles", expected)
    return {path: want for path, want in table.items() if isinstance(want, dict)}
