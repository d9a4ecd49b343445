"""Author lists hold people only (the agencies or desks that sign are kept apart), never the publisher's
company or a copyright line; a generic title is never chosen over a real headline."""

from __future__ import annotations

import pytest

from sacorpus.text.authors import is_agency, is_organisation, people_and_agencies, split_authors
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html

URL = "https://www.iol.co.za/news/politics/water-bill-passed-1234"


def meta(head: str, body: str = "<p>x</p>"):
    return extract_metadata(
        parse_html(f"<html><head>{head}</head><body>{body}</body></html>"), URL, site_name="IOL"
    )


@pytest.mark.parametrize(
    "name",
    [
        "Independent Newspapers Online",
        "(c) The Daily Telegraph",
        "© 2026 Arena Holdings",
        "Media24 Publishers",
        "IOL",
    ],
)
def test_organisations_are_not_people(name):
    assert is_organisation(name, {"iol", "iolcoza"})


@pytest.mark.parametrize(
    "name",
    [
        "Thandi Mokoena",
        "Pieter van der Merwe",
        "Sipho Hlongwane",
        "The Associated Press",
        "MND Staff",
        "BR24 Redaktion",
    ],
)
def test_people_agencies_and_desks_stay(name):
    assert not is_organisation(name, {"iol", "iolcoza"})


def test_a_copyright_author_falls_through_to_the_byline():
    page = meta(
        '<meta name="author" content="(c) The Daily Telegraph">',
        '<div class="byline">By Thandi Mokoena</div><p>Story.</p>',
    )
    assert page.authors == ["Thandi Mokoena"]


def test_the_publishers_company_is_not_an_author():
    page = meta('<meta name="author" content="Independent Newspapers Online">')
    assert page.authors == []


@pytest.mark.parametrize("generic", ["Article", "IOL", "News"])
def test_a_generic_title_never_beats_a_real_headline(generic):
    page = meta(
        f"<title>{generic}</title><meta property='og:title' content='{generic}'>",
        "<article><h1>Parliament passes the water bill after a long night</h1><p>x</p></article>",
    )
    assert page.title_clean == "Parliament passes the water bill after a long night"


def test_commenters_and_site_footer_names_are_not_authors():
    article = (
        '<article class="post comments-open"><header><span class="byline">'
        '<a rel="author" href="/author/jd">Jane Dlamini</a></span></header><p>x</p>'
        '<footer class="entry-footer"><a rel="author" href="/author/jd">Jane Dlamini</a></footer></article>'
    )
    comments = (
        '<section id="comments"><ol class="comment-list">'
        '<li><span class="comment-author"><a rel="author" href="/author/pm">Peter Mokoena</a></span></li>'
        '<li><span class="comment-author"><a rel="author" href="/author/ab">Anna Botha</a></span></li>'
        "</ol></section>"
    )
    footer = '<footer id="site-footer">Theme by <a rel="author" href="https://themes.example">Sam Theme</a></footer>'
    assert meta("", article + comments + footer).authors == ["Jane Dlamini"]
    # the article's own footer is where some themes print the byline
    only_footer = (
        '<article><p>x</p><footer><a rel="author" href="/author/jd">Jane Dlamini</a></footer></article>'
    )
    assert meta("", only_footer + footer).authors == ["Jane Dlamini"]


@pytest.mark.parametrize(
    "byline",
    [
        "View all posts by Jane Dlamini",
        "Zeige alle Beiträge von Jane Dlamini →",
        "Veröffentlicht von Jane Dlamini",
    ],
)
def test_author_link_furniture_is_not_part_of_the_name(byline):
    body = f'<article><p>x</p><a rel="author" href="/author/jd">{byline}</a></article>'
    assert meta("", body).authors == ["Jane Dlamini"]


@pytest.mark.parametrize(
    "byline",
    [
        "Thandi Mokoena | IOL",
        "Thandi Mokoena, IOL",
        "By Thandi Mokoena for IOL",
        "Thandi Mokoena for Independent Newspapers Online",
        "Thandi Mokoena | Independent Media Holdings (Pty) Ltd",
    ],
)
def test_the_outlet_credited_beside_a_person_is_not_a_second_author(byline):
    page = meta(f'<meta name="author" content="{byline}">')
    assert page.authors == ["Thandi Mokoena"]


def test_agencies_and_desks_that_sign_are_kept_apart_from_the_people():
    """Author lists hold people only; the agency or desk the byline credits is kept in ``agencies``."""
    mixed = meta('<meta name="author" content="Thandi Mokoena, AP">')
    assert (mixed.authors, mixed.agencies) == (["Thandi Mokoena"], ["AP"])
    for desk in ("Staff Reporter", "Sapa", "News24 Wire", "Reuters"):
        page = meta(f'<meta name="author" content="{desk}">')
        assert (page.authors, page.agencies) == ([], [desk])
    # the outlet as the whole byline, with no person anywhere on the page, is what the page states
    outlet = meta('<meta name="author" content="IOL">')
    assert (outlet.authors, outlet.agencies) == ([], ["IOL"])


def test_a_person_named_after_the_byline_desk_is_found_beside_it():
    page = meta('<meta name="author" content="Staff Reporter and Lerato Dlamini">')
    assert (page.authors, page.agencies) == (["Lerato Dlamini"], ["Staff Reporter"])


@pytest.mark.parametrize(
    "name",
    [
        "Reuters",
        "The Associated Press",
        "AFP",
        "Sapa",
        "African News Agency",
        "Staff Reporter",
        "Cape Argus Reporter",
        "News24 Wire",
        "BR24 Redaktion",
        "Foreign Desk",
        "Our Correspondent",
        "Independent Newspapers Online",
        "(c) The Daily Telegraph",
        "NTV",
        "Staff Writer",
        "Redaktion Polizeiticker Schweiz",
        "Deutsche Presse-Agentur",
        "Support Team",
        "ORF.at",
    ],
)
def test_agencies_desks_and_companies_are_not_people(name):
    assert is_agency(name)


@pytest.mark.parametrize(
    "name",
    [
        "Thandi Mokoena",
        "Pieter van der Merwe",
        "JANE DOE",
        "Jean-Luc Picard",
        "Nomvula",
        "王小明",
        "Анна Петрова",
    ],
)
def test_people_in_any_script_are_people(name):
    assert not is_agency(name)
    assert people_and_agencies([name, "Reuters"]) == ([name], ["Reuters"])


@pytest.mark.parametrize(
    "name",
    ["Lowveld Media Stiftung", "Kasi Press GmbH", "Umhlaba Verein e.V.", "Nordbank AG", "Ubuntu Magazine"],
)
def test_legal_forms_and_company_words_mark_organisations(name):
    assert is_organisation(name)
    # such a byline falls through to the person the page names
    page = meta(f'<meta name="author" content="{name}">', '<div class="byline">By Sipho Nkosi</div><p>x</p>')
    assert page.authors == ["Sipho Nkosi"]


def test_the_pages_section_name_is_not_an_author():
    head = (
        '<meta property="article:section" content="Western Cape"><meta name="author" content="Western Cape">'
    )
    assert meta(head, '<div class="byline">By Sipho Nkosi</div><p>x</p>').authors == ["Sipho Nkosi"]


@pytest.mark.parametrize(
    "byline,expected",
    [
        ("Lerato Dlamini @leratod", ["Lerato Dlamini"]),
        ("lerato[at]dailylamp.example", []),
        ("Lerato Dlamini, PhD", ["Lerato Dlamini"]),
        ("Alles von Lerato Dlamini", ["Lerato Dlamini"]),
        ("Interview: Lerato Dlamini", ["Lerato Dlamini"]),
        ("257 Artikel", []),
        ("No Author", []),
    ],
)
def test_handles_addresses_degrees_and_author_page_furniture_are_not_names(byline, expected):
    assert split_authors(byline) == expected


def test_json_ld_author_given_by_reference_is_resolved_in_the_graph():
    graph = (
        '<script type="application/ld+json">{"@graph":['
        '{"@type":"NewsArticle","headline":"Water bill passed","author":{"@id":"https://x.example/#/person/1"}},'
        '{"@type":"Person","@id":"https://x.example/#/person/1","name":"Naledi Khumalo"}]}</script>'
    )
    body = '<p>x</p><a href="/author/other">Sidebar Columnist</a>'
    assert meta(graph, body).authors == ["Naledi Khumalo"]


def test_hcard_author_microformat_is_a_byline():
    body = (
        '<article><h1>Water bill passed</h1><p class="meta">by <span class="vcard author">'
        '<span class="fn">Naledi Khumalo</span></span></p><p>x</p></article>'
        '<aside><a href="/author/sc">Sidebar Columnist</a></aside>'
    )
    assert meta("", body).authors == ["Naledi Khumalo"]
    assert meta("", '<p>by <span class="author vcard fn">Naledi Khumalo</span></p><p>x</p>').authors == [
        "Naledi Khumalo"
    ]


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("Reporter: Sipho Dlamini", ["Sipho Dlamini"]),
        ("Words: Jane Doe and John Roe", ["Jane Doe", "John Roe"]),
        ("Senior Reporter: Naledi Khumalo", ["Naledi Khumalo"]),
    ],
)
def test_a_role_label_before_a_colon_is_not_part_of_the_name(byline, expected):
    """SABC's "Reporter:", Grocott's "Words:": a label any site may put before its writer's name."""
    assert split_authors(byline) == expected


@pytest.mark.parametrize(
    "desk", ["Cape Argus Reporter", "IOL Reporter", "Daily News Reporter", "Staff Reporter"]
)
def test_a_desk_credit_stays_whole_never_a_newspaper_name_alone(desk):
    """ "Cape Argus Reporter" signs for a desk: cutting the role would leave "Cape Argus", a newspaper, in
    the slot of a person. A role after a separator is a person's ("Jane Doe | Reporter")."""
    assert split_authors(desk) == [desk]
    assert split_authors("Jane Doe | Reporter") == split_authors("Jane Doe, Senior Reporter") == ["Jane Doe"]
    # a name and its job title read from two spans of one byline block (the Arena layout)
    assert split_authors("Tania Mkhize Senior reporter") == ["Tania Mkhize"]


def test_a_persons_initials_are_not_an_agency():
    assert not is_agency("DT") and is_agency("NTV")


def _ld_author(author: str) -> str:
    return f'<script type="application/ld+json">{{"@type":"NewsArticle","author":{author}}}</script>'


def test_an_author_the_structured_data_types_as_an_organisation_is_no_person():
    org = _ld_author('{"@type":"NewsMediaOrganization","name":"Lowveld Gazette"}')
    page = meta(org, "<p>x</p>")
    assert (page.authors, page.agencies) == ([], ["Lowveld Gazette"])
    # beside a person: the person is the author, the organisation stays credited
    both = _ld_author(
        '[{"@type":"Person","name":"Sipho Nkosi"},{"@type":"Organization","name":"Lowveld Gazette"}]'
    )
    page = meta(both, "<p>x</p>")
    assert (page.authors, page.agencies) == (["Sipho Nkosi"], ["Lowveld Gazette"])
    # a blog's owner typed as both person and organisation (as Yoast writes it) is a person
    owner = _ld_author('{"@type":["Person","Organization"],"name":"Thandi Mokoena"}')
    assert meta(owner, "<p>x</p>").authors == ["Thandi Mokoena"]


@pytest.mark.parametrize(
    "field",
    [
        "<ul><li><strong>Datum</strong> 28.04.2023</li><li><strong>Autorin/Autor</strong> Lerato Dlamini</li></ul>",
        "<dl><dt>Date</dt><dd>28 April</dd><dt>Author</dt><dd>Lerato Dlamini</dd></dl>",
        "<table><tr><th>Author:</th><td>Lerato Dlamini</td></tr></table>",
    ],
)
def test_a_credit_naming_its_website_is_no_person_and_the_labelled_author_is_found(field):
    """ "Deutsche Welle (www.dw.com)" in the author meta is the outlet; the page's fact list labels the
    writer ("Autorin/Autor", "Author"), and the writer is the author."""
    page = meta('<meta name="author" content="Deutsche Welle (www.dw.com)">', f"<p>x</p>{field}")
    assert (page.authors, page.agencies) == (["Lerato Dlamini"], [])


def test_a_credit_naming_its_website_alone_is_kept_as_an_agency():
    page = meta('<meta name="author" content="Deutsche Welle (www.dw.com)">')
    assert (page.authors, page.agencies) == ([], ["Deutsche Welle (www.dw.com)"])
    assert is_agency("Deutsche Welle (www.dw.com)") and not is_agency("Deutsche Welle")


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        (
            '<div class="meta">Von <a href="/redaktion/ld">Lerato Dlamini</a> am 19.10.2019</div>',
            ["Lerato Dlamini"],
        ),
        (
            '<div class="info">Ein Artikel von <strong>Lerato Dlamini</strong> | 27.01.2022</div>',
            ["Lerato Dlamini"],
        ),
        (
            '<ul><li>Von:\n<span><a href="/p/ld">Lerato Dlamini</a>,</span> <span><a href="/p/tm">Thabo Mokoena</a></span></li></ul>',
            ["Lerato Dlamini", "Thabo Mokoena"],
        ),
    ],
)
def test_the_names_right_after_a_byline_lead_in_are_the_authors(block, expected):
    assert meta("", f"<article><h1>Water bill passed</h1>{block}<p>x</p></article>").authors == expected


def test_a_name_in_prose_after_by_is_no_byline():
    body = '<p>The bill was tabled by <a href="/p/cr">Cyril Ramaphosa</a> on Monday.</p><p>x</p>'
    assert meta("", body).authors == []


def test_a_name_the_markup_prints_twice_is_one_name():
    assert split_authors("Olivier Minot Olivier Minot") == ["Olivier Minot"]
    assert split_authors("Lerato Dlamini and Thabo Mokoena") == ["Lerato Dlamini", "Thabo Mokoena"]
    assert split_authors("Ma Ma") == ["Ma Ma"]  # one word twice may be a name
