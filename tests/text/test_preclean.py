"""Pre-cleaning: hidden content in every spelling, filters, block whitespace, glued sentences."""

from __future__ import annotations

from datetime import date

import lxml.html
import pytest

from sacorpus.publications import ElementFilter, Publication, RuleSet
from sacorpus.text.preclean import preclean, repair_glued_sentences, strip_static_text


def visible_text(html: str) -> str:
    return " ".join(lxml.html.fromstring(html).text_content().split())


def page(inner: str) -> str:
    return (
        f"<html><head><title>t</title></head><body><p>Kept before.</p>{inner}<p>Kept after.</p></body></html>"
    )


@pytest.mark.parametrize(
    "hidden",
    [
        '<div style="display:none">SECRET</div>',
        '<div style="DISPLAY : NONE">SECRET</div>',
        '<span style="color:red;display:\n none !important">SECRET</span>',
        "<span style='visibility:hidden'>SECRET</span>",
        '<span style="Visibility: Hidden;">SECRET</span>',
        "<p hidden>SECRET</p>",
        '<p hidden="hidden">SECRET</p>',
        '<span aria-hidden="true">SECRET</span>',
        '<span class="sr-only">SECRET</span>',
        '<span class="label visually-hidden">SECRET</span>',
        '<span class="screen-reader-text">SECRET</span>',
        '<div class="hidden">SECRET</div>',
        "<template><p>SECRET</p></template>",
    ],
)
def test_hidden_forms_removed(hidden):
    out = visible_text(preclean(page(hidden)))
    assert "SECRET" not in out
    assert "Kept before." in out and "Kept after." in out


def test_hidden_element_tail_text_survives():
    out = visible_text(preclean(page('<p>one <span class="sr-only">SECRET</span>two</p>')))
    assert "one two" in out and "SECRET" not in out


def test_responsive_hidden_is_visible():
    out = visible_text(preclean(page('<div class="hidden md:block">Desktop text</div>')))
    assert "Desktop text" in out


def test_display_block_is_not_hidden():
    out = visible_text(preclean(page('<div style="display: block; nonevent: 1">Shown</div>')))
    assert "Shown" in out


def test_paywalled_article_body_is_kept():
    body = "".join(
        f"<p>Paragraph {i} of the paywalled article with enough words to be real text. " * 3 + "</p>"
        for i in range(8)
    )
    out = visible_text(preclean(page(f'<div class="paywall" style="display:none">{body}</div>')))
    assert "Paragraph 7" in out


def test_filters_with_regex_values():
    rules = RuleSet(
        filters=(
            ElementFilter("div", "class", r"^ad-slot-\d+$"),
            ElementFilter("*", "data-widget", ""),
            ElementFilter("aside", "id", "related"),
        )
    )
    html = page(
        '<div class="ad-slot-17">AD1</div><div class="ad-slot-x">KEEP1</div>'
        '<section data-widget="poll">POLL</section><aside id="related-links">REL</aside><aside id="box">KEEP2</aside>'
    )
    out = visible_text(preclean(html, rules))
    assert "AD1" not in out and "POLL" not in out and "REL" not in out
    assert "KEEP1" in out and "KEEP2" in out


def test_paragraphs_glued_without_whitespace_get_a_boundary():
    out = lxml.html.fromstring(
        preclean(page("<p>said here.</p><p>Another day</p><div>one<div>two</div>three</div>"))
    ).text_content()
    words = out.split()
    assert "here." in words and "Another" in words
    assert "onetwo" not in out and "twothree" not in out


@pytest.mark.parametrize(
    "glued,fixed",
    [
        ("the minister said.The department", "the minister said. The department"),
        ("was it?Nobody knew", "was it? Nobody knew"),
        ("in 2014.Then it", "in 2014. Then it"),
        ('he said."The end', 'he said." The end'),
    ],
)
def test_glued_sentences_repaired(glued, fixed):
    assert repair_glued_sentences(glued) == fixed


@pytest.mark.parametrize(
    "text",
    [
        "the U.S. Army",
        "the U.S.The end",
        "e.g. this",
        "e.g.The",
        "i.e.Not",
        "visit News24.com today",
        "iol.co.za",
        "3.5 million",
        "No.1 seed",
    ],
)
def test_abbreviations_and_domains_not_broken(text):
    assert repair_glued_sentences(text) == text


def test_glue_repair_inside_html_text_nodes():
    out = visible_text(preclean(page("<p>Police said.The suspect fled to the U.S. on Monday.</p>")))
    assert "said. The suspect" in out and "U.S. on" in out


def test_static_text_stripped():
    text = "First paragraph.\n© 2025 Independent Online. All rights reserved.\nRelated links\nLast one."
    out = strip_static_text(text, [r"^© \d{4} Independent Online.*$", "Related links"])
    assert out == "First paragraph.\nLast one."


def test_dated_rule_selection():
    old = RuleSet(version="2014", valid_until=date(2016, 6, 30), filters=(ElementFilter("div", "id", "old"),))
    mid = RuleSet(version="2019", valid_until=date(2020, 1, 1))
    current = RuleSet(version="current")
    pub = Publication(
        slug="x",
        name="X",
        home="https://x.co.za",
        domains=("x.co.za",),
        languages=("en",),
        rules=(current, mid, old),
    )
    assert pub.rules_for(date(2014, 3, 1)).version == "2014"
    assert pub.rules_for(date(2018, 3, 1)).version == "2019"
    assert pub.rules_for(date(2024, 3, 1)).version == "current"
    assert pub.rules_for(None).version == "current"
    html = page('<div id="old">OLD LAYOUT BOX</div>')
    assert "OLD LAYOUT BOX" not in visible_text(preclean(html, pub.rules_for(date(2014, 3, 1))))
    assert "OLD LAYOUT BOX" in visible_text(preclean(html, pub.rules_for(date(2024, 3, 1))))


def test_wayback_timestamp_picks_rules():
    """What the page stage does: the capture date of the Wayback timestamp chooses the rule set."""
    from sacorpus.sources.wayback import wayback_date
    from sacorpus.text.page import choose_rules

    def rules_for_item(pub, item):
        return choose_rules(pub, wayback_date(item.wayback_timestamp))

    old = RuleSet(version="2014", valid_until=date(2016, 6, 30))
    pub = Publication(
        slug="x",
        name="X",
        home="https://x.co.za",
        domains=("x.co.za",),
        languages=("en",),
        rules=(RuleSet(version="current"), old),
    )

    class Item:
        wayback_timestamp = "20140512093000"

    assert rules_for_item(pub, Item()).version == "2014"
    Item.wayback_timestamp = None
    assert rules_for_item(pub, Item()).version == "current"
    assert rules_for_item(None, Item()) == RuleSet()


def test_control_characters_do_not_break_cleaning():
    html = page("<div>tab\x0bbed said.The end\x0c<p>next</p>tail\x01</div>")
    out = visible_text(preclean(html))
    assert "said. The end" in out and "next" in out


def test_embedded_posts_quoted_in_the_story_stay():
    html = page(
        '<blockquote class="twitter-tweet"><p>TWEET TEXT</p>&mdash; Someone (@someone)</blockquote>'
        '<blockquote class="instagram-media">INSTA</blockquote><blockquote>Real quote stays.</blockquote>'
    )
    out = visible_text(preclean(html))
    assert "TWEET TEXT" in out and "INSTA" in out and "Real quote stays." in out


def test_react_streamed_hidden_segment_is_content():
    out = visible_text(preclean(page('<div hidden id="S:0"><p>Streamed lede paragraph.</p></div>')))
    assert "Streamed lede paragraph." in out


def test_several_articles_on_one_page_all_stay():
    """Infinite-scroll pages append the next stories; cutting them measurably lost text on real pages
    without a gain, so they stay (the next story is stored under its own URL as well)."""
    story = "<article><h1>Water cuts in Soweto</h1><p>Residents queued for water on Monday.</p></article>"
    nxt = "<article><h1>Next story: Rand firms</h1><p>The rand firmed against the dollar.</p></article>"
    text = visible_text(preclean(page(story + nxt)))
    assert "Residents queued" in text and "rand firmed" in text


def test_link_only_teaser_cards_inside_the_story_removed():
    card = (
        '<article class="teaser"><a href="/next"><h3>Rand firms against dollar</h3>'
        "<p>Markets rallied on Friday.</p></a></article>"
    )
    explainer = (
        "<article><h3>What is load shedding?</h3><p>Rotational power cuts that Eskom uses to protect the grid, "
        'as <a href="/eskom">explained here</a>.</p></article>'
    )
    story = f"<article><h1>Water cuts</h1><p>Residents queued for water.</p>{card}{explainer}</article>"
    text = visible_text(preclean(page(story)))
    assert "Residents queued" in text and "Rotational power cuts" in text
    assert "Rand firms" not in text and "Markets rallied" not in text


@pytest.mark.parametrize(
    "cls",
    [
        "factbox",
        "metro-factbox compact",
        "c-infoBox--inTabs",
        "article-body-infobox",
        "RenderKeyPoints-keyPoints",
        "fact-box border",
    ],
)
def test_fact_boxes_removed(cls):
    html = page(
        f'<article><h1>Water cuts</h1><p>Residents queued.</p><div class="{cls}"><h3>Facts</h3>'
        "<p>Soweto has 1.3 million residents.</p></div>tail text</article>"
    )
    text = visible_text(preclean(html))
    assert "Residents queued" in text and "tail text" in text
    assert "1.3 million" not in text


@pytest.mark.parametrize("cls", ["infographic", "boxing-report", "information"])
def test_similar_class_names_are_not_fact_boxes(cls):
    html = page(
        f'<article><h1>Water cuts</h1><div class="{cls}"><p>Soweto has 1.3 million residents.</p></div></article>'
    )
    assert "1.3 million" in visible_text(preclean(html))


def test_box_holding_the_headline_is_a_wrapper_and_stays():
    html = page('<div class="infobox-layout"><h1>Water cuts</h1><p>Residents queued.</p></div>')
    assert "Residents queued" in visible_text(preclean(html))


def test_static_text_is_anchored_to_whole_lines():
    """A plain-string entry removes its own line, never the same words inside a story sentence."""
    text = (
        "Related links\n"
        "The museum said its Related links page was down.\n"
        "Gallery\n"
        "She visited the National Gallery (c) on Sunday.\n"
        "Gallery (c)"
    )
    out = strip_static_text(text, ["Related links", "Gallery", "Gallery (c)"])
    assert (
        out
        == "The museum said its Related links page was down.\nShe visited the National Gallery (c) on Sunday."
    )
