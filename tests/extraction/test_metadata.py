"""Generic metadata: titles without site branding, authors normalised, dates from every source."""

from __future__ import annotations

import pytest

from sacorpus.sources.dates import parse_date, to_utc_iso
from sacorpus.text.authors import is_agency, split_authors
from sacorpus.text.dates import date_from_url
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html
from sacorpus.text.titles import strip_site


@pytest.mark.parametrize(
    "title,sites,host,expected",
    [
        (
            "Load shedding returns to stage 4 | IOL",
            ["IOL"],
            "www.iol.co.za",
            "Load shedding returns to stage 4",
        ),
        ("Load shedding returns | IOL News", [], "www.iol.co.za", "Load shedding returns"),
        ("Man arrested in Durban - News24", [], "www.news24.com", "Man arrested in Durban"),
        ("News24 - Man arrested in Durban", [], "www.news24.com", "Man arrested in Durban"),
        ("Rand firms – The Citizen", ["The Citizen"], "www.citizen.co.za", "Rand firms"),
        ("Budget 3.0 | Sars gets R4bn", ["TimesLIVE"], "www.timeslive.co.za", "Budget 3.0 | Sars gets R4bn"),
        ("Zuma trial delayed again", ["Mail & Guardian"], "mg.co.za", "Zuma trial delayed again"),
        (
            "Zuma trial delayed | The Mail &amp; Guardian",
            ["The Mail & Guardian"],
            "mg.co.za",
            "Zuma trial delayed",
        ),
    ],
)
def test_title_site_suffix_and_prefix(title, sites, host, expected):
    assert strip_site(title, sites, host) == expected


def test_title_by_headline_agreement():
    assert (
        strip_site("Storm damage in Tshwane | Gauteng | Daily Sun", [], "x.org", "Storm damage in Tshwane")
        == "Storm damage in Tshwane"
    )


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
    m = _meta(
        '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-10-16T00:30:00+08:00"}</script>'
    )
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
    m = _meta(
        "", "<p>no date here</p>", url="https://www.dailymaverick.co.za/article/2025-05-03-icj-hearings/"
    )
    assert m.published_day == "2025-05-03"
    assert date_from_url("https://metro.co.uk/2024/07/17/kings-speech/").date().isoformat() == "2024-07-17"


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
    m = _meta(
        '<meta property="og:site_name" content="News24">'
        '<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Organization","name":"News24"}}</script>',
        '<div class="byline">By Sipho Nkosi</div>',
    )
    assert m.authors == ["Sipho Nkosi"]
    m = _meta(
        '<meta property="og:site_name" content="News24">'
        '<script type="application/ld+json">{"@type":"NewsArticle","author":[{"name":"A One"},{"name":"B Two"}]}</script>'
    )
    assert m.authors == ["A One", "B Two"]


def test_broken_json_ld_is_skipped():
    m = _meta(
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "x",,, </script>'
        '<meta property="og:title" content="Fallback headline works">'
    )
    assert m.title_clean == "Fallback headline works"


_TWO_HEADLINES = (
    '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Eskom tariffs: Nersa approves 12.7% hike"}'
    '</script><meta property="og:title" content="Electricity to cost 12.7% more from April">'
)


def test_visible_headline_decides_between_json_ld_and_og_title():
    # the page shows its readers the og:title wording: that is the headline
    m = _meta(_TWO_HEADLINES, "<article><h1>Electricity to cost 12.7% more from April</h1><p>x</p></article>")
    assert m.title_clean == "Electricity to cost 12.7% more from April"
    # the page shows the JSON-LD wording: JSON-LD stays first
    m = _meta(_TWO_HEADLINES, "<article><h1>Eskom tariffs: Nersa approves 12.7% hike</h1><p>x</p></article>")
    assert m.title_clean == "Eskom tariffs: Nersa approves 12.7% hike"
    # no visible headline to arbitrate: JSON-LD stays first
    assert _meta(_TWO_HEADLINES, "<p>x</p>").title_clean == "Eskom tariffs: Nersa approves 12.7% hike"


def test_breadcrumb_h1_is_not_the_visible_headline():
    crumbs = (
        '<nav class="breadcrumb"><a href="/">Home</a><h1>Electricity to cost 12.7% more from April</h1></nav>'
        "<article><p>x</p></article>"
    )
    assert _meta(_TWO_HEADLINES, crumbs).title_clean == "Eskom tariffs: Nersa approves 12.7% hike"
    div_crumbs = crumbs.replace("<nav", "<div").replace("</nav>", "</div>")
    assert _meta(_TWO_HEADLINES, div_crumbs).title_clean == "Eskom tariffs: Nersa approves 12.7% hike"


def test_date_from_page_title_before_page_wide_guessing():
    head = "<title>Load shedding suspended | Politics | DW | 28.04.2023</title>"
    body = '<article><p>x</p><h2>Older story <span class="date">24.04.2023</span></h2></article>'
    m = _meta(head, body, url="https://www.dw.com/de/load-shedding/a-65464327")
    assert m.published_day == "2023-04-28" and m.published_source == "title"
    # a structured date still wins over the title
    m = _meta(head + '<meta property="article:published_time" content="2023-04-27T10:00:00+02:00">', body)
    assert m.published_day == "2023-04-27" and m.published_source == "meta"


def test_kicker_in_json_ld_headline_is_dropped_when_og_title_lacks_it():
    head = (
        '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Budget vote: '
        'Parliament passes the fiscal framework"}</script>'
        '<meta property="og:title" content="Parliament passes the fiscal framework">'
    )
    assert _meta(head, "<p>x</p>").title_clean == "Parliament passes the fiscal framework"
    # the reader sees the kicker as part of the headline: keep it
    shown = "<article><h1>Budget vote: Parliament passes the fiscal framework</h1><p>x</p></article>"
    assert _meta(head, shown).title_clean == "Budget vote: Parliament passes the fiscal framework"
    # a dash is a title separator, not a kicker
    dashed = head.replace("Budget vote: ", "Budget vote - ")
    assert _meta(dashed, "<p>x</p>").title_clean == "Budget vote - Parliament passes the fiscal framework"


def test_author_from_twitter_written_by_label():
    head = (
        '<meta name="author" content="desk@example.co.za"><meta name="twitter:label1" content="Written by">'
        '<meta name="twitter:data1" content="Anna Sleegers"><meta name="twitter:label2" content="Est. reading time">'
        '<meta name="twitter:data2" content="3 minutes">'
    )
    assert _meta(head).authors == ["Anna Sleegers"]
    assert (
        _meta(
            '<meta name="twitter:label1" content="Est. reading time"><meta name="twitter:data1" content="3 minutes">'
        ).authors
        == []
    )


_STORY = "".join(f"<p>Paragraph {i} of the story about the mining blasts near Maseru.</p>" for i in range(5))


@pytest.mark.parametrize(
    "byline,expected",
    [
        ("<p><strong>Mohloai Mpesi</strong></p>", ["Mohloai Mpesi"]),
        (
            "<p><strong>Mathatisi Sebusi/Mohalenyane Phakela</strong></p>",
            ["Mathatisi Sebusi", "Mohalenyane Phakela"],
        ),
        ("<p><b>MTHOBISI SITHOLE</b></p>", ["MTHOBISI SITHOLE"]),
    ],
)
def test_bold_name_paragraph_is_the_byline_when_nothing_else_names_a_person(byline, expected):
    head = '<meta property="og:site_name" content="Lesotho Times">'
    assert _meta(head, f"<div>{byline}{_STORY}</div>", url="https://lestimes.com/x/").authors == expected
    # at the end of the story too
    assert _meta(head, f"<div>{_STORY}{byline}</div>", url="https://lestimes.com/x/").authors == expected


@pytest.mark.parametrize(
    "para",
    [
        "<p><strong>What happens next</strong></p>",
        "<p><strong>Background:</strong></p>",
        "<p><strong>Mohloai Mpesi</strong> said the court would sit on Monday.</p>",
        "<p><strong>Stage 6 Blackouts</strong></p>",
    ],
)
def test_bold_subheads_and_lead_ins_are_not_bylines(para):
    assert _meta("", f"<div>{para}{_STORY}</div>", url="https://lestimes.com/x/").authors == []


def test_photo_credit_with_slash_is_not_an_author():
    assert split_authors(["(Image: Getty Images/iStockphoto)", "Emma Mackenzie"]) == ["Emma Mackenzie"]
    assert split_authors("Thabo Mokone/Jane Doe") == ["Thabo Mokone", "Jane Doe"]


def test_utc_published_time_shown_in_the_pages_own_offset():
    ld = (
        '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2022-05-04T00:44:52Z",'
        '"dateModified":"2022-05-03T22:10:00-03:00"}</script>'
    )
    m = _meta(ld)
    assert m.published_day == "2022-05-03"  # 21:44 in the newsroom's -03:00
    assert m.published_at == "2022-05-04T00:44:52Z"  # the stored instant is unchanged
    # no local offset anywhere on the page: the UTC day stands
    assert _meta(ld.replace("-03:00", "Z")).published_day == "2022-05-04"
    # an explicit local offset is never re-interpreted
    local = ld.replace("2022-05-04T00:44:52Z", "2022-05-04T00:44:52+02:00")
    assert _meta(local).published_day == "2022-05-04"
