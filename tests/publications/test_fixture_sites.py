"""The per-publication fixture sites match their toml: sources served at the real paths, the articles
served come out of the crawl's page core with the expected title, authors, date and no furniture, and
the files are up to date with the builder."""

from __future__ import annotations

import json
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from build_fixture_sites import build, build_all
from pubtest_helpers import SITES_DIR
from rule_fixtures import FixturePage, extract, failures

from sacorpus.demo.server import SiteServer
from sacorpus.publications import load_all

PUBS = load_all()
WAYBACK_ONLY = {
    s
    for s, p in PUBS.items()
    if not (p.sources.feeds or p.sources.sitemaps or p.sources.news_sitemaps or p.sources.start_urls)
}
FIXTURE_SLUGS = sorted(set(PUBS) - WAYBACK_ONLY - {"demo"})
BUILT_SLUGS = sorted(build_all())


def test_every_live_publication_has_a_fixture_site() -> None:
    missing = [s for s in FIXTURE_SLUGS if not (SITES_DIR / s / "expected.json").is_file()]
    assert not missing, f"publications without tests/sites/<slug>/expected.json: {missing}"
    assert "thenewage" in WAYBACK_ONLY


@pytest.mark.parametrize("slug", BUILT_SLUGS)
def test_fixture_files_are_up_to_date(slug: str) -> None:
    for rel, data in build(slug).items():
        path = SITES_DIR / slug / rel
        assert path.is_file() and path.read_bytes() == data, f"{path} is stale: run build_fixture_sites.py"


def _source_paths(slug: str) -> list[tuple[str, bool]]:
    """(path, is it XML): feeds and sitemaps, then the start pages (HTML)."""
    src = PUBS[slug].sources
    out = []
    for urls, xml in (((*src.feeds, *src.sitemaps, *src.news_sitemaps), True), (src.start_urls, False)):
        for url in urls:
            parts = urlsplit(url)
            out.append((parts.path + (f"?{parts.query}" if parts.query else ""), xml))
    return out


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


@pytest.mark.parametrize("slug", FIXTURE_SLUGS)
def test_fixture_site_serves_sources_and_articles_matching_the_rules(slug: str) -> None:
    pub = PUBS[slug]
    expected = json.loads((SITES_DIR / slug / "expected.json").read_text("utf-8"))["articles"]
    assert 2 <= len(expected) <= 3
    with SiteServer.from_directory(SITES_DIR / slug) as server:
        served_sources = []
        for path, xml in _source_paths(slug):
            try:
                body = _get(server.url(path))
            except urllib.error.HTTPError:
                continue
            served_sources.append(path)
            if xml and not path.endswith(".gz"):
                ET.fromstring(body)  # feeds and sitemaps are well-formed XML
                assert server.base_url.encode() in body and b"{base}" not in body
        assert served_sources, f"{slug}: none of its toml sources is in tests/sites/{slug}/"
        for path, want in expected.items():
            body = _get(server.url(path))
            for absent in want.get("absent", []):
                assert absent in body.decode("utf-8"), f"{slug}{path}: 'absent' text must be in the raw page"
            page = FixturePage(slug, path, pub.home.rstrip("/") + path, body, None, want)
            bad = failures(extract(page, pub), want)
            assert not bad, f"{slug}{path}: {bad}"
            if pub.urls.deny:
                import re

                assert not any(re.search(p, path) for p in pub.urls.deny), f"{slug}: article {path} denied"


def test_fixture_dir_names_are_publications() -> None:
    dirs = {p.name for p in Path(SITES_DIR).iterdir() if p.is_dir()}
    assert dirs <= set(PUBS), f"fixture dirs without a publication: {sorted(dirs - set(PUBS))}"
