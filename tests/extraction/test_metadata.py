"""Generic metadata: titles without site branding, authors normalised, dates from every source."""

from __future__ import annotations

import pytest

from sacorpus.text.authors import is_agency, split_authors
from sacorpus.text.dates import date_from_url, parse_date, to_utc_iso
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html
from sacorpus.text.titles import strip_site


@pytest.mark.parametrize(
    "title,sites,host,expected",
    [
        ("Load shedding returns to stage 4 | IOL", ["IOL"], "www.iol.co.za", "Load shedding returns to stage 4"),
        ("Load shedding returns | IOL News", [], "www.iol.co.za", "Load shedding returns"),
        ("Man arrested in Durban - News24", [], "www.news24.com", "Man arrested in Durban"),
        ("News24 - Man arrested in Durban", [], "www.news24.com", "Man arrested in Durban"),
        ("Rand firms – The Citizen", ["The Citizen"], "www.citizen.co.za", "Rand firms"),
        ("Budget 3.0 | Sars gets R4bn", ["TimesLIVE"], "www.timeslive.co.za", "Budget 3.0 | Sars gets R4bn"),
        ("Zuma trial delayed again", ["Mail & Guardian"], "mg.co.za", "Zuma trial delayed again"),
        ("Zuma trial delayed | The Mail &amp; Guardian", ["The Mail & Guardian"], "mg.co.za", "Zuma trial delayed"),
    ],
)
def test_title_site_suffix_and_prefix(title, sites, host, expected):
    assert strip_site(title, sites, host) == expected


def test_title_by_headline_agreement():
    assert strip_site("Storm damage in Tshwane | Gauteng | Daily Sun", [], "x.org", "Storm damage in Tshwane") == "Storm damage in Tshwane"


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("By Jane Doe and John Roe", ["Jane Doe", "John Roe"]),
        ("BY JANE DOE | Senior Reporter", ["JANE DOE"]),
        (["Thabo Mokone", "Thabo Mokone"], ["Thabo Mokone"]),
        ("Reuters", ["Reuters"]),
        ("Staff Reporter", ["Staff Reporter"]),
        ("Adam Vidler, AP", ["Adam Vidler", "AP"]),
        ("Von Max Muster und Erika Beispiel", ["Max Muster", "Erika Beispiel"]),
        ("https://www.facebook.com/iol", []),
        ("jane@iol.co.za", []),
        ("Image: Getty Images", []),
        ("Lerato Dlamini; Sipho Nkosi", ["Lerato Dlamini", "Sipho Nkosi"]),
    ],
)
def test_author_normalisation(raw, expected):
    assert split_authors(raw) == expected


def test_agency_detection():
    assert is_agency("Reuters") and is_agency("AFP") and is_agency("Sapa")
    assert not is_agency("Thandi Mokoena")


def _meta(head: str, body: str = "", url: str = "https://www.news24.com/news/x"):
    return extract_metadata(parse_html(f"<html><head>{head}</head><body>{body}</body></html>"), url)


def test_date_from_json_ld():
    m = _meta('<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-10-16T00:30:00+08:00"}</script>')
    assert m.published_at == "2024-10-15T16:30:00Z"
    assert m.published_day == "2024-10-16"  # the day as the page states it
    assert m.published_raw == "2024-10-16T00:30:00+08:00"


def test_date_from_meta():
    m = _meta('<meta property="article:published_time" content="2025-05-21T14:19:07+02:00">')
    assert m.published_at == "2025-05-21T12:19:07Z" and m.published_source == "meta"


def test_date_from_time_element():
    m = _meta("", '<article><time datetime="2023-04-28T17:52:31Z">28 April 2023</time><p>x</p></article>')
    assert m.published_at == "2023-04-28T17:52:31Z" and m.published_source == "time"


def test_date_from_url():
    m = _meta("", "<p>no date here</p>", url="https://www.dailymaverick.co.za/article/2025-05-03-icj-hearings/")
    assert m.published_day == "2025-05-03"
    assert date_from_url("https://metro.co.uk/2024/07/17/kings-speech/") .date().isoformat() == "2024-07-17"


@pytest.mark.parametrize(
    "raw,iso",
    [
        ("2025-11-28 13:26:06+00:00", "2025-11-28T13:26:06Z"),
        ("Fri, 28 Nov 2025 15:26:06 +0200", "2025-11-28T13:26:06Z"),
        ("28 November 2025 at 15:26", "2025-11-28T15:26:00Z"),
        ("November 28, 2025", "2025-11-28T00:00:00Z"),
        ("20251128", "2025-11-28T00:00:00Z"),
    ],
)
def test_parse_date_forms(raw, iso):
    assert to_utc_iso(parse_date(raw)) == iso


def test_future_and_garbage_dates_rejected():
    assert parse_date("2099-01-01") is None
    assert parse_date("not a date") is None


def test_authors_from_json_ld_list_and_outlet_fallback():
    m = _meta('<meta property="og:site_name" content="News24">'
              '<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization","name":"News24"}}</script>',
              '<div class="byline">By Sipho Nkosi</div>')
    assert m.authors == ["Sipho Nkosi"]
    m = _meta('<meta property="og:site_name" content="News24">'
              '<script type="application/ld+json">{"@type":"NewsArticle","author":[{"name":"A One"},{"name":"B Two"}]}</script>')
    assert m.authors == ["A One", "B Two"]


def test_broken_json_ld_is_skipped():
    m = _meta('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "x",,, </script>'
              '<meta property="og:title" content="Fallback headline works">')
    assert m.title_clean == "Fallback headline works"
