"""The one date parser and the one stored UTC form, for pages, feeds, sitemaps and fetch times.

Why: dates written by different readers are compared as text (``--since/--until``, sitemap windows,
the dedup order key); two forms of the same instant ("Z" and "+00:00") sort differently.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from sacorpus.items import Article
from sacorpus.sources.dates import in_window, iso_date, parse_date, stored_utc, to_utc_iso
from sacorpus.sources.feeds import parse_feed
from sacorpus.sources.sitemaps import parse_sitemap
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html

STORED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><link>https://x.co.za/a</link><pubDate>Tue, 05 Mar 2024 08:15:00 +0200</pubDate></item>
<item><link>https://x.co.za/b</link><pubDate>2024-03-05T23:30:00-03:00</pubDate></item>
</channel></rss>"""
SITEMAP = b"""<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://x.co.za/c</loc><lastmod>2024-03-05T10:00:00+02:00</lastmod>
  <news:news><news:publication_date>2024-03</news:publication_date></news:news></url>
<url><loc>https://x.co.za/d</loc><lastmod>2024</lastmod></url>
<url><loc>https://x.co.za/e</loc><lastmod>1970-01-01T00:00:00Z</lastmod></url>
</urlset>"""
PAGE = """<html><head><meta property="article:published_time" content="2024-03-05T10:00:00+02:00">
<meta property="article:modified_time" content="Tue, 05 Mar 2024 12:00:00 GMT"><title>T</title></head>
<body><article><h1>T</h1><p>Text.</p></article></body></html>"""


def test_feeds_sitemaps_pages_and_fetch_times_write_one_form():
    feed = parse_feed(RSS, "https://x.co.za/feed")
    assert [e.published for e in feed.entries] == ["2024-03-05T06:15:00Z", "2024-03-06T02:30:00Z"]
    sitemap = parse_sitemap(SITEMAP, "https://x.co.za/sitemap.xml")
    c, d, e = sitemap.entries
    assert (c.lastmod, c.news_published) == ("2024-03-05T08:00:00Z", "2024-03-01T00:00:00Z")
    assert d.lastmod == "2024-01-01T00:00:00Z"  # W3C partial dates: the first day of the period
    assert e.lastmod is None  # 1970 is a CMS default, not a date: the entry counts as undated
    meta = extract_metadata(parse_html(PAGE), "https://x.co.za/c")
    assert (meta.published_at, meta.modified_at) == ("2024-03-05T08:00:00Z", "2024-03-05T12:00:00Z")
    written = [
        *(x.published for x in feed.entries),
        c.lastmod,
        c.news_published,
        d.lastmod,
        meta.published_at,
        meta.modified_at,
        Article(url="https://x.co.za/c", publication="x").fetched_at,
    ]
    assert all(STORED.match(str(v)) for v in written), written


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("2024-03-05T08:15:00Z", "2024-03-05T08:15:00Z"),
        ("2024-03-05T08:15:00+00:00", "2024-03-05T08:15:00Z"),  # feed and sitemap dates before
        ("2024-03-05T10:15:00+02:00", "2024-03-05T08:15:00Z"),
        ("2024-03-05T08:15:00", "2024-03-05T08:15:00Z"),  # naive: UTC
        ("2024-03-05", "2024-03-05"),  # a day stays a day
        ("not a date", "not a date"),
        (None, None),
    ],
)
def test_stored_values_of_any_version_read_in_the_one_form(raw, stored):
    assert stored_utc(raw) == stored


def test_the_stored_form_of_a_datetime_is_utc_to_the_second():
    sast = timezone(timedelta(hours=2))
    assert to_utc_iso(datetime(2024, 3, 5, 0, 30, 15, 999, tzinfo=sast)) == "2024-03-04T22:30:15Z"
    assert to_utc_iso(datetime(2024, 3, 5, 0, 30)) == "2024-03-05T00:30:00Z"
    assert to_utc_iso("Tue, 05 Mar 2024 08:15:00 +0200") == "2024-03-05T06:15:00Z"
    assert to_utc_iso("05 Mar 2024 08:15:00 GMT") == "2024-03-05T08:15:00Z"  # RFC 822 without weekday
    assert to_utc_iso("5 March 2024") is None  # a feed or sitemap field is not free text
    assert to_utc_iso("garbage") is None and to_utc_iso("") is None


def test_page_dates_keep_their_offset_and_text_dates_are_read():
    dt = parse_date("2024-03-05T01:00:00+02:00")
    assert dt is not None and dt.utcoffset() == timedelta(hours=2) and dt.day == 5
    assert parse_date("Published 5 March 2024, 14:30") == datetime(2024, 3, 5, 14, 30, tzinfo=UTC)
    assert parse_date("5 March 2024", allow_text=False) is None
    assert parse_date(str(datetime.now(UTC).year + 5)) is None  # in the future: not a news date


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ngoLwesibili, 12 kuMashi 2024", (2024, 3, 12)),  # isiZulu, a loan name with its prefix
        ("Okthoba 3, 2023", (2023, 10, 3)),
        ("15 Matshi 2022", (2022, 3, 15)),  # isiXhosa
        ("1 uNdasa 2021", (2021, 3, 1)),  # isiZulu, the traditional name
        ("7 EyeSilimela 2020", (2020, 6, 7)),  # isiXhosa, the traditional name
        ("20 Mopitlwe 2019", (2019, 3, 20)),  # Setswana
        ("9 Phupjane 2018", (2018, 6, 9)),  # Sesotho
        ("4 Desember 2017", (2017, 12, 4)),  # Afrikaans
    ],
)
def test_south_african_month_names_are_read(text, expected):
    assert parse_date(text) == datetime(*expected, tzinfo=UTC)


def test_a_name_that_ends_in_a_short_month_is_not_a_month():
    assert parse_date("3 Kumar 2024") is None
    assert parse_date("3 Tuesday 2024") is None


def test_windows_read_both_forms_and_whole_days():
    since, until = date(2024, 3, 5), date(2024, 3, 5)
    assert in_window("2024-03-05T23:59:59Z", since, until)
    assert in_window("2024-03-05T00:00:00+00:00", since, until)
    assert in_window("2024-03-06T01:00:00+02:00", since, until)  # 23:00 UTC on the 5th
    assert not in_window("2024-03-05T01:00:00+02:00", since, until)  # the 4th in UTC
    assert in_window(None, since, until) and in_window("no date", since, until)
    assert iso_date("2024-03-05T01:00:00+02:00") == date(2024, 3, 4)
