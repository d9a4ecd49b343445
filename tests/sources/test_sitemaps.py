"""Sitemap parsing on synthetic documents modelled on real sitemaps."""

from __future__ import annotations

import gzip
import time
from datetime import date

import pytest

from sacorpus.sources import sitemaps
from sacorpus.sources.dates import in_window, parse_day
from sacorpus.sources.sitemap_index import next_sitemaps
from sacorpus.sources.sitemaps import parse_sitemap, sitemaps_from_robots

URLSET = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.co.za/news/a-1</loc><lastmod>2023-05-01T10:00:00+02:00</lastmod></url>
  <url><loc><![CDATA[https://www.example.co.za/news/b-2?x=1&y=2]]></loc><lastmod>2023-05-02</lastmod></url>
  <url><loc>  https://www.example.co.za/news/c-3
  </loc><lastmod>garbage</lastmod></url>
  <url><loc>/news/relative-4</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>"""

INDEX = b"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.example.co.za/sitemap-2023-05.xml.gz</loc><lastmod>2023-05-31</lastmod></sitemap>
  <sitemap><loc><![CDATA[https://www.example.co.za/sitemap-2023-04.xml]]></loc></sitemap>
  <sitemap>https://www.example.co.za/sitemap-bare.xml</sitemap>
  <sitemap><loc>https://www.example.co.za/sitemap-2023-04.xml</loc></sitemap>
</sitemapindex>"""

NEWS = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://www.example.co.za/news/budget-2024-123</loc>
    <news:news>
      <news:publication><news:name>Example Times</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2024-02-21T14:30:00+02:00</news:publication_date>
      <news:title>Budget 2024: what changes</news:title>
    </news:news>
    <image:image><image:loc>https://img.example.co.za/1.jpg</image:loc></image:image>
  </url>
  <url><loc>https://www.example.co.za/news/no-news-tags</loc><news:news></news:news></url>
</urlset>"""

NO_NS = b"<urlset><url><loc>http://a.example.org/1</loc></url><url><loc>http://a.example.org/2</loc></url></urlset>"
GOOGLE_NS = b'<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>http://g.example.org/1</loc></url></urlset>'


def test_urlset_with_cdata_whitespace_relative_and_bad_dates():
    result = parse_sitemap(URLSET, "https://www.example.co.za/sitemap.xml")
    assert result.kind == "urlset"
    assert result.urls == [
        "https://www.example.co.za/news/a-1",
        "https://www.example.co.za/news/b-2?x=1&y=2",
        "https://www.example.co.za/news/c-3",
        "https://www.example.co.za/news/relative-4",
    ]
    assert result.entries[0].lastmod == "2023-05-01T08:00:00Z"
    assert result.entries[1].lastmod == "2023-05-02T00:00:00Z"
    assert result.entries[2].lastmod is None


def test_index_bare_text_cdata_and_duplicates():
    result = parse_sitemap(INDEX, "https://www.example.co.za/sitemap.xml")
    assert result.kind == "index"
    assert result.sitemaps == [
        "https://www.example.co.za/sitemap-2023-05.xml.gz",
        "https://www.example.co.za/sitemap-2023-04.xml",
        "https://www.example.co.za/sitemap-bare.xml",
    ]
    assert result.sitemap_lastmods == {
        "https://www.example.co.za/sitemap-2023-05.xml.gz": "2023-05-31T00:00:00Z"
    }
    assert result.entries == []


def test_google_news_sitemap():
    result = parse_sitemap(NEWS, "https://www.example.co.za/news-sitemap.xml")
    first, second = result.entries
    assert first.loc == "https://www.example.co.za/news/budget-2024-123"
    assert first.news_title == "Budget 2024: what changes"
    assert first.news_published == "2024-02-21T12:30:00Z"
    assert first.news_language == "en"
    assert first.news_publication == "Example Times"
    assert first.date == first.news_published
    assert second.news_title is None and second.loc.endswith("no-news-tags")


@pytest.mark.parametrize("body", [NO_NS, GOOGLE_NS])
def test_namespace_variants(body):
    result = parse_sitemap(body, "http://a.example.org/sitemap.xml")
    assert result.kind == "urlset" and len(result.entries) >= 1


def test_gzip_by_magic_bytes_not_by_name():
    result = parse_sitemap(gzip.compress(URLSET), "https://www.example.co.za/sitemap")
    assert result.kind == "urlset" and len(result.entries) == 4


def test_gzip_bomb_is_capped(monkeypatch):
    monkeypatch.setattr(sitemaps, "MAX_SITEMAP_BYTES", 100_000)
    body = b"<urlset>" + b"<url><loc>http://z.example.org/x</loc></url>" * 200_000 + b"</urlset>"
    result = parse_sitemap(gzip.compress(body), "http://z.example.org/s.xml.gz")
    assert "over" in result.problem
    assert 0 < len(result.entries) < 200_000


def test_text_sitemap_with_bom_and_junk():
    body = b"\xef\xbb\xbfhttp://t.example.org/1\r\n\r\nhttps://t.example.org/2\nnot a url\n"
    result = parse_sitemap(body, "http://t.example.org/sitemap.txt")
    assert result.kind == "text"
    assert result.urls == ["http://t.example.org/1", "https://t.example.org/2"]
    assert "1 non-URL" in result.problem


def test_gzipped_text_sitemap():
    result = parse_sitemap(
        gzip.compress(b"http://t.example.org/1\nhttp://t.example.org/2\n"), "http://t.example.org/s"
    )
    assert result.kind == "text" and len(result.entries) == 2


def test_leading_whitespace_and_utf8_bom_before_xml_declaration():
    result = parse_sitemap(b"\xef\xbb\xbf\n\n  " + URLSET, "https://www.example.co.za/sitemap.xml")
    assert result.kind == "urlset" and len(result.entries) == 4


def test_rss_used_as_sitemap():
    body = b"""<rss version="2.0"><channel><title>t</title>
    <item><link>http://r.example.org/1</link><pubDate>Mon, 01 May 2023 10:00:00 GMT</pubDate></item></channel></rss>"""
    result = parse_sitemap(body, "http://r.example.org/feed")
    assert result.kind == "feed"
    assert result.urls == ["http://r.example.org/1"]
    assert result.entries[0].lastmod == "2023-05-01T10:00:00Z"


def test_truncated_xml_still_yields_listed_urls():
    body = URLSET[: URLSET.index(b"<url><loc>  https")]
    result = parse_sitemap(body, "https://www.example.co.za/sitemap.xml")
    assert len(result.entries) == 2 and result.problem


def test_entity_bomb_not_expanded():
    body = b"""<?xml version="1.0"?><!DOCTYPE urlset [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
]><urlset><url><loc>http://e.example.org/&f;</loc></url><url><loc>http://e.example.org/ok</loc></url></urlset>"""
    start = time.monotonic()
    result = parse_sitemap(body, "http://e.example.org/sitemap.xml")
    assert time.monotonic() - start < 5
    assert "http://e.example.org/ok" in result.urls
    assert all(len(u) < 1000 for u in result.urls)


def test_external_entities_not_fetched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    body = (
        f'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY x SYSTEM "file://{secret}">]>'
        "<urlset><url><loc>http://e.example.org/&x;</loc></url></urlset>"
    ).encode()
    result = parse_sitemap(body, "http://e.example.org/sitemap.xml")
    assert not any("TOPSECRET" in u for u in result.urls)


@pytest.mark.parametrize("body", [b"", b"\x1f\x8bnot gzip", b"<html><p>hi</p></html>", b"\x00\x01\x02", b"<"])
def test_garbage_never_raises(body):
    result = parse_sitemap(body, "http://x.example.org/s.xml")
    assert result.entries == [] and result.sitemaps == []
    assert result.problem or result.kind == "unknown"


def test_sitemaps_from_robots():
    robots = (
        "\ufeffUser-agent: *\r\nDisallow: /private/\r\n"
        "Sitemap: https://www.example.co.za/sitemap.xml\r\n"
        "sitemap:/news-sitemap.xml  # relative, lower case\r\n"
        "User-agent: Googlebot\nSite-map: https://www.example.co.za/sitemap.xml\n"
        "# Sitemap: https://www.example.co.za/commented.xml\n"
    )
    assert sitemaps_from_robots(robots, "https://www.example.co.za/robots.txt") == [
        "https://www.example.co.za/sitemap.xml",
        "https://www.example.co.za/news-sitemap.xml",
    ]


def test_sitemaps_from_robots_utf16():
    body = "User-agent: *\nSitemap: http://u.example.org/s.xml\n".encode("utf-16")
    assert sitemaps_from_robots(body, "http://u.example.org/robots.txt") == ["http://u.example.org/s.xml"]


def test_in_window():
    since, until = date(2023, 5, 1), date(2023, 5, 31)
    assert in_window("2023-05-01T00:00:00Z", since, until)
    assert in_window("2023-05-31T23:59:59Z", since, until)
    assert not in_window("2023-04-30T23:59:59Z", since, until)
    assert not in_window("2023-06-01T00:00:00Z", since, until)
    assert in_window("Wed, 10 May 2023 10:00:00 GMT", since, until)
    assert in_window(None, since, until)  # undated entries are kept
    assert in_window("2020-01-01", None, None)
    assert not in_window("2020-01-01", since, None)
    assert in_window("2020-01-01", None, until)


def test_parse_day():
    assert parse_day("2013-01-01") == date(2013, 1, 1)
    assert parse_day("") is None and parse_day(None) is None
    with pytest.raises(ValueError):
        parse_day("01/01/2013")


def test_next_sitemaps_depth_cycles_and_window():
    index = parse_sitemap(
        b"""<sitemapindex>
        <sitemap><loc>https://s.example.org/sitemap-2013-05.xml</loc><lastmod>2013-06-01</lastmod></sitemap>
        <sitemap><loc>https://s.example.org/sitemap/2012/11.xml</loc></sitemap>
        <sitemap><loc>https://s.example.org/sitemap-old.xml</loc><lastmod>2010-01-01</lastmod></sitemap>
        <sitemap><loc>https://s.example.org/sitemap.xml</loc></sitemap>
        <sitemap><loc>https://s.example.org/sitemap-authors.xml</loc></sitemap>
        </sitemapindex>""",
        "https://s.example.org/sitemap.xml",
    )
    seen = {"https://s.example.org/sitemap.xml"}  # the index itself: a self-reference is a cycle
    urls, skipped = next_sitemaps(
        index, 0, seen, max_depth=4, since=date(2013, 1, 1), until=date(2013, 12, 31)
    )
    assert urls == ["https://s.example.org/sitemap-2013-05.xml", "https://s.example.org/sitemap-authors.xml"]
    assert len(skipped) == 3
    again, _ = next_sitemaps(index, 0, seen, max_depth=4)
    assert again == ["https://s.example.org/sitemap/2012/11.xml", "https://s.example.org/sitemap-old.xml"]
    deep, why = next_sitemaps(index, 3, set(), max_depth=3)
    assert deep == [] and "depth limit" in why[0]
    assert next_sitemaps(parse_sitemap(URLSET, "https://x.org/s.xml"), 0, set(), max_depth=4) == (
        [],
        [],
    )
