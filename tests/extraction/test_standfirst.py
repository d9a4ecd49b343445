"""The standfirst: a lead the page declares as its description and shows above the story is article text;
a description the page does not show, shows only in a link or its footer, or shows on every page is not."""

from __future__ import annotations

from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.extract import extract_article
from sacorpus.text.preclean import parse_html
from sacorpus.text.standfirst import lead_paragraph, with_lead

LEAD = "The city council voted on Tuesday to close the old harbour bridge for repairs until next winter."
STORY = "".join(
    f"<p>Paragraph {n} of the story tells what the engineers found under the deck and why the work "
    f"takes so long, with the numbers the council gave the public this week.</p>"
    for n in range(1, 7)
)


def page(lead_markup: str, description: str = LEAD, extra: str = "") -> str:
    return (
        f'<html><head><title>Harbour bridge to close</title><meta name="description" content="{description}">'
        f'</head><body><header class="article-header"><h1>Harbour bridge to close</h1>{lead_markup}</header>'
        f'<div class="sidebar-gap"></div><article class="story-body">{STORY}</article>{extra}</body></html>'
    )


def test_a_shown_description_becomes_the_first_paragraph():
    ex = extract_article(page(f'<p class="standfirst">{LEAD}</p>'), "https://example.org/news/bridge-1")
    assert ex.text.split("\n")[0] == LEAD
    assert "Paragraph 1 of the story" in ex.text


def test_the_lead_as_shown_keeps_its_dateline_beside_the_description():
    shown = f"CAPE TOWN - {LEAD}"
    ex = extract_article(
        page(f'<div class="intro"><p>{shown}</p></div>'), "https://example.org/news/bridge-2"
    )
    assert ex.text.split("\n")[0] == shown


def test_a_description_the_page_does_not_show_is_not_text():
    ex = extract_article(page(""), "https://example.org/news/bridge-3")
    assert LEAD not in ex.text


def test_a_description_shown_only_as_a_link_or_in_the_footer_is_not_text():
    linked = page("", extra=f'<ul class="more"><li><a href="/news/bridge-4">{LEAD}</a></li></ul>')
    footer = page("", extra=f"<footer><p>{LEAD}</p></footer>")
    for html in (linked, footer):
        assert LEAD not in extract_article(html, "https://example.org/news/bridge-4").text


def test_a_lead_the_story_already_holds_is_not_repeated():
    root = parse_html(page(""))
    cut = LEAD[:60] + "..."
    assert lead_paragraph(root, [cut], f"{LEAD}\nMore text.") is None


def test_a_short_description_or_a_headline_is_no_lead():
    root = parse_html(
        page("<p>Bridge closes for repairs</p><p>Harbour bridge to close again soon, says council</p>")
    )
    assert lead_paragraph(root, ["Bridge closes for repairs"], "Story.") is None
    headline = "Harbour bridge to close again soon, says council"
    assert lead_paragraph(root, [headline], "Story.", titles=[headline]) is None


def test_a_description_every_page_of_the_publication_shows_is_the_sites_not_the_storys():
    site_line = "Daily news from the harbour city, its council, its courts and its people since 1881."
    history = LineHistory()
    found = []
    for n in range(5):
        root = parse_html(page(f'<p class="tagline">{site_line}</p>', description=site_line))
        found.append(lead_paragraph(root, [site_line], "Story.", history=history, url=f"https://e.org/{n}"))
    assert found[0] == site_line  # one page: no evidence yet that it is the site's
    assert found[-1] is None  # shown on the other pages too: the site's description


def test_with_lead_puts_the_lead_first_and_never_fills_an_empty_page():
    assert with_lead("Story.", "Lead.") == "Lead.\nStory."
    assert with_lead("", "Lead.") == ""
    assert with_lead("Story.", None) == "Story."


def test_a_lead_split_by_markup_is_found_whole():
    linked = LEAD.replace("city council", '<a href="/council">city council</a>').replace("old", "<b>old</b>")
    ex = extract_article(
        page(f'<div class="lede"><p>{linked}</p></div>'), "https://example.org/news/bridge-5"
    )
    assert ex.text.split("\n")[0] == LEAD
