"""A hostile site cannot make the crawler fetch internal addresses or other hosts.

The demo publication is crawled from a copy of its site with hostile additions: a ``Sitemap:`` line
and a sitemap-index entry on another host, redirects of article URLs to a loopback service and to
``localhost``, and ``file://`` entries. Everything that would slip through lands on a loopback
recorder (a server that only logs what it is asked), so a failing guard shows up as a recorded hit,
never as traffic leaving the machine.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawlkit import run_crawl

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.demo.site import article_paths, build_site

pytestmark = pytest.mark.slow

HOME = "http://demo.sacorpus.invalid"
REDIRECTED = "/news/2026/11/20/redirected-story-77777"
REDIRECTED_LOCAL = "/business/2026/11/20/redirected-story-77778"
REDIRECTED_METADATA = "/news/2026/11/20/redirected-story-77779"
REDIRECTED_PRIVATE = "/business/2026/11/20/redirected-story-77780"
# Hostile names the run allows as hosts but that resolve (through SACORPUS_HOSTS, the guard's only
# resolver here) to a link-local and a private address; Scrapy's own resolver for the run maps every
# name to 127.0.0.1, so a request the guard let through would land on the recorder.
FAKE_HOSTS = {"metadata.hostile.test": "169.254.169.254", "intranet.hostile.test": "10.11.12.13"}
RESOLVER = [
    "-s",
    "DNS_RESOLVER=sacorpus.testing.resolver.LoopbackResolver",
    "-s",
    "SACORPUS_HOSTS_ONLY=True",
    "-s",
    "SACORPUS_HOSTS=" + json.dumps(FAKE_HOSTS),
    "-s",
    "SACORPUS_ALLOWED_HOSTS=hostile.test",
]
XML = "application/xml; charset=utf-8"


def _urlset(urls: list[str]) -> bytes:
    body = "".join(f"<url><loc>{u}</loc><lastmod>2026-11-20</lastmod></url>" for u in urls)
    return f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>'.encode()


def hostile_site(recorder: str) -> dict[str, Resource]:
    site = build_site()
    robots = site["/robots.txt"]
    site["/robots.txt"] = Resource(
        robots.body + f"Sitemap: {recorder}/robots-sitemap.xml\nSitemap: file:///etc/passwd\n".encode(),
        robots.content_type,
    )
    index = site["/sitemap_index.xml"]
    extra = (
        f"<sitemap><loc>{recorder}/evil-sitemap.xml</loc></sitemap>"
        "<sitemap><loc>{base}/extra-sitemap.xml</loc></sitemap>"
        "<sitemap><loc>file:///etc/hostname</loc></sitemap></sitemapindex>"
    )
    site["/sitemap_index.xml"] = Resource(
        index.body.replace(b"</sitemapindex>", extra.encode()), index.content_type
    )
    site["/extra-sitemap.xml"] = Resource(
        _urlset(
            ["{base}" + p for p in (REDIRECTED, REDIRECTED_LOCAL, REDIRECTED_METADATA, REDIRECTED_PRIVATE)]
            + ["file:///etc/passwd"]
        ),
        XML,
    )
    return site


@pytest.fixture
def recorder() -> Iterator[SiteServer]:
    server = SiteServer({}).start()
    try:
        yield server
    finally:
        server.stop()


def _stats(log: str, name: str) -> int:
    match = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(match.group(1)) if match else 0


def test_hostile_site_fetches_nothing_internal(tmp_path: Path, recorder: SiteServer) -> None:
    rec_port = recorder.base_url.rsplit(":", 1)[1]
    with SiteServer(build_site()) as clean_site:
        started = time.monotonic()
        clean = run_crawl("demo", tmp_path / "clean", "-a", f"base_url={clean_site.base_url}")
        clean_seconds = time.monotonic() - started
    assert clean.returncode == 0, clean.log[-3000:]

    with SiteServer(hostile_site(recorder.base_url)) as site:
        site.add_redirect(REDIRECTED, f"{recorder.base_url}/admin/secret-1")
        site.add_redirect(REDIRECTED_LOCAL, f"http://localhost:{rec_port}/internal/logs")
        site.add_redirect(REDIRECTED_METADATA, f"http://metadata.hostile.test:{rec_port}/latest/meta-data")
        site.add_redirect(REDIRECTED_PRIVATE, f"http://intranet.hostile.test:{rec_port}/admin")
        started = time.monotonic()
        run = run_crawl("demo", tmp_path / "hostile", "-a", f"base_url={site.base_url}", *RESOLVER)
        seconds = time.monotonic() - started
    print(f"clean run {clean_seconds:.1f} s, hostile run {seconds:.1f} s")

    assert recorder.requests == [], f"internal service was reached: {recorder.requests}"
    stored = {item["url"] for item in run.items}
    expected = {HOME + path for path in article_paths()}
    assert stored == expected == {item["url"] for item in clean.items}
    assert not any("secret" in u or "internal" in u or u.startswith("file:") for u in stored)
    assert _stats(run.log, "sacorpus/guard/offsite_candidates") >= 3, run.log[-4000:]
    assert "candidate on another host, not fetched" in run.log
    assert _stats(run.log, "sacorpus/guard/internal_address") == 2, run.log[-4000:]
    assert "metadata.hostile.test is a private address (169.254.169.254)" in run.log
    assert "intranet.hostile.test is a private address (10.11.12.13)" in run.log
    assert "Traceback" not in run.log
