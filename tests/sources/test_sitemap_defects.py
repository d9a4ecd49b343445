"""Sitemaps as real sites serve them: cut-off documents and robots.txt files that name no sitemap."""

from __future__ import annotations

import gzip

import pytest

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.sources.sitemaps import parse_sitemap, standard_sitemaps

HEAD = b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'


def test_a_loc_cut_off_by_a_truncated_document_is_dropped_and_counted():
    body = (
        HEAD + b"<url><loc>https://www.iol.co.za/news/a-1</loc></url><url><loc>https://www.iol.co.za/news/som"
    )
    result = parse_sitemap(body, "https://www.iol.co.za/sitemap.xml")
    assert result.urls == ["https://www.iol.co.za/news/a-1"]
    assert result.truncated_locs == 1 and "truncated <loc>" in result.problem


def test_a_complete_document_loses_nothing():
    body = HEAD + b"<url><loc>https://www.iol.co.za/news/a-1</loc></url></urlset>"
    result = parse_sitemap(gzip.compress(body), "https://www.iol.co.za/sitemap.xml.gz")
    assert result.urls == ["https://www.iol.co.za/news/a-1"] and result.truncated_locs == 0


def test_standard_locations_skip_those_the_publication_lists():
    urls = standard_sitemaps("https://www.iol.co.za/", ["https://www.iol.co.za/sitemap.xml"])
    assert "https://www.iol.co.za/sitemap.xml" not in urls
    assert (
        "https://www.iol.co.za/sitemap_index.xml" in urls and "https://www.iol.co.za/news-sitemap.xml" in urls
    )


@pytest.mark.slow
def test_robots_without_sitemap_lines_leads_to_the_standard_locations(crawl):
    host = "http://demo.sacorpus.invalid"
    page = (
        "<html><head><title>Water back in Soweto</title></head><body><article><h1>Water back in Soweto</h1>"
        + "".join(
            f"<p>Residents of ward {n} queued for water on Tuesday as supply returned.</p>" for n in range(8)
        )
        + "</article></body></html>"
    ).encode()
    sitemap = (
        HEAD + f"<url><loc>{host}/news/2026/11/20/water-back-in-soweto-10001</loc></url></urlset>".encode()
    )
    site = SiteServer(
        {
            "/robots.txt": Resource(b"User-agent: *\nAllow: /\n", "text/plain"),
            "/sitemap_index.xml": Resource(sitemap, "application/xml"),
            "/news/2026/11/20/water-back-in-soweto-10001": Resource(page, "text/html; charset=utf-8"),
        }
    )
    with site as server:
        run = crawl(
            "demo", "-a", f"base_url={server.base_url}", "-a", "sources=robots", "-s", "ROBOTSTXT_OBEY=False"
        )
    assert run.returncode == 0, run.log[-3000:]
    assert [item["url"] for item in run.items] == [f"{host}/news/2026/11/20/water-back-in-soweto-10001"]
