"""Title choice rules on synthetic pages: displayed header headline, logo <h1>, truncated JSON-LD."""

from __future__ import annotations

from sacorpus.evaluation import Page, Prediction, Score, score_page
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html
from sacorpus.text.titles import headline_outside_branding

LD = "Eskom tariffs: Nersa approves 12.7% hike"
OG = "Electricity to cost 12.7% more from April"
HEAD = (
    f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{LD}"}}</script>'
    f'<meta property="og:title" content="{OG}">'
)
CRUMB_H1 = f'<nav class="breadcrumb"><a href="/">Home</a><h1>{LD}</h1></nav>'


def _title(head: str, body: str, url: str = "https://news.example.org/a/1") -> str | None:
    root = parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    return extract_metadata(root, url).title_clean


def test_header_h2_showing_og_title_beats_breadcrumb_seo_h1():
    body = CRUMB_H1 + f'<article><header><h2 class="headline">{OG}</h2></header><p>x</p></article>'
    assert _title(HEAD, body) == OG


def test_header_h2_with_kicker_span_showing_og_title():
    body = CRUMB_H1 + (
        f'<article><h2><span class="kicker">Energy</span><span class="title">{OG}</span></h2>'
        "<p>x</p></article>"
    )
    assert _title(HEAD, body) == OG


def test_json_ld_stays_without_displayed_og_or_with_other_h1():
    # nothing on the page shows og:title: JSON-LD first
    assert _title(HEAD, CRUMB_H1 + "<article><h2>Related stories</h2><p>x</p></article>") == LD
    # the breadcrumb <h1> does not repeat JSON-LD: it is no sign that JSON-LD is the SEO variant
    other = '<nav class="breadcrumb"><h1>Energy news</h1></nav>'
    assert _title(HEAD, other + f"<article><h2>{OG}</h2><p>x</p></article>") == LD
    # an h2 only inside the breadcrumb bar does not count as displayed
    assert _title(HEAD, CRUMB_H1 + f'<nav class="breadcrumb"><h2>{OG}</h2></nav><p>x</p>') == LD


def test_logo_h1_gives_way_to_title_headline():
    head = "<title>Vegetarian for a week: what changed | Greenleaf</title>"
    assert _title(head, "<h1>Greenleaf</h1><p>x</p>") == "Vegetarian for a week: what changed"
    # leading branding is recognised when it is the site (host match)
    head = "<title>greenleaf » Vegetarian for a week: what changed</title>"
    assert (
        _title(head, "<h1>greenleaf</h1><p>x</p>", "https://greenleaf.example/x")
        == "Vegetarian for a week: what changed"
    )


def test_h1_headline_is_not_mistaken_for_branding():
    head = "<title>News - Elder rises from the ghetto to Augusta</title>"
    assert (
        _title(head, "<h1>Elder rises from the ghetto to Augusta</h1><p>x</p>")
        == "Elder rises from the ghetto to Augusta"
    )
    assert (
        headline_outside_branding(
            "Elder rises from the ghetto to Augusta", "News - Elder rises from the ghetto to Augusta"
        )
        is None
    )
    # a leading segment that is not the site is not branding
    assert (
        headline_outside_branding("Greenleaf", "Greenleaf - Vegetarian for a week", [], "other.example")
        is None
    )
    assert headline_outside_branding("Greenleaf", "No separators here") is None


def test_truncated_json_ld_headline_is_completed_from_another_candidate():
    full = "Taiwan's president's playbook should be essential reading for Hong Kong leader Carrie Lam"
    cut = full[:70].rstrip() + "..."
    head = (
        f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{cut}"}}</script>'
        f'<title>{full} | Morning Post</title><meta property="og:site_name" content="Morning Post">'
    )
    assert _title(head, "<p>x</p>") == full
    # nothing longer that starts with it: the headline stays as given
    head = (
        f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{cut}"}}</script>'
        "<title>Something else entirely | Morning Post</title>"
    )
    assert _title(head, "<p>x</p>") == cut


def test_evaluation_title_match_ignores_invisible_characters_on_both_sides():
    score = Score("x")
    page = Page(id="p", url=None, body=b"", title="Ein bisschen Fortschritt\u200b", body_text="a")
    score_page(score, page, Prediction("a", "Ein\u00a0bisschen  Fort\u00adschritt", [], None, 0.0), "fundus")
    score_page(score, page, Prediction("a", "Ein bisschen Rückschritt", [], None, 0.0), "fundus")
    assert score.title == [True, False]


def test_h1_and_og_title_agreeing_beat_a_different_json_ld_headline():
    seo = "Load shedding: Stage 4 from Monday, says Eskom"
    shown = "Eskom moves to Stage 4 as six units break down"
    head = (
        f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{seo}"}}</script>'
        f'<meta property="og:title" content="{shown} | Daily Lamp">'
        '<meta property="og:site_name" content="Daily Lamp">'
    )
    assert _title(head, f"<article><h1>{shown}</h1><p>x</p></article>") == shown
    # without the page showing og:title, the JSON-LD headline stays (og:title alone is a social variant)
    assert _title(head, "<article><h1>Something the page shows</h1><p>x</p></article>") == seo
    assert _title(head, "<article><p>x</p></article>") == seo


def test_kicker_in_json_ld_gives_way_to_og_headline_unless_the_page_shows_it():
    head = (
        '<script type="application/ld+json">{"@type":"NewsArticle",'
        '"headline":"Cape floods: Thousands displaced after week of rain"}</script>'
        '<meta property="og:title" content="Thousands displaced after week of rain">'
    )
    assert _title(head, "<p>x</p>") == "Thousands displaced after week of rain"
    shown = "<article><h1>Cape floods: Thousands displaced after week of rain</h1><p>x</p></article>"
    assert _title(head, shown) == "Cape floods: Thousands displaced after week of rain"


def test_site_name_suffix_and_prefix_are_removed_from_every_source():
    headline = "Parliament passes the water bill after a late-night sitting"
    for branded in (f"{headline} | Daily Lamp", f"{headline} - Daily Lamp", f"Daily Lamp » {headline}"):
        head = f'<title>{branded}</title><meta property="og:site_name" content="Daily Lamp">'
        assert _title(head, "<p>x</p>") == headline
    # the host names the site when no site name is stated
    head = f"<title>{headline} – dailylamp</title>"
    assert _title(head, "<p>x</p>", "https://www.dailylamp.example/a/1") == headline
    # a separator inside the headline stays: no segment is the site
    head = "<title>BUDGET 3.0 | Sars gets R4bn</title>"
    assert _title(head, "<p>x</p>") == "BUDGET 3.0 | Sars gets R4bn"


def test_generic_title_never_beats_a_real_headline():
    headline = "Taxi strike leaves commuters stranded across Gauteng"
    site = '<meta property="og:site_name" content="Daily Lamp">'
    # JSON-LD names only the site, og:title says "Home": the <h1> headline wins
    head = (
        site + '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Daily Lamp"}</script>'
        '<meta property="og:title" content="Home">'
    )
    root = parse_html(f"<html><head>{head}</head><body><h1>{headline}</h1><p>x</p></body></html>")
    meta = extract_metadata(root, "https://news.example.org/a/1")
    assert meta.title_clean == headline
    assert meta.title == headline  # the published title is no site name either
    head = site + f'<meta property="og:title" content="Article"><title>{headline} | Daily Lamp</title>'
    assert _title(head, "<p>x</p>") == headline
    # with nothing better, the generic title is still reported (never an empty title)
    assert _title(site + '<meta property="og:title" content="Home">', "<p>x</p>") == "Home"


def test_visible_h1_repeated_and_extended_by_og_title_is_the_headline():
    og = '<meta property="og:title" content="Honey and almond muffins recipe, step by step">'
    body = "<article><h1>Honey and almond muffins</h1><p>x</p></article>"
    assert _title(og, body) == "Honey and almond muffins"
    # og:title that says something else, or an h1 that is the blog's branding, is no such agreement
    assert _title(og, "<article><h1>Weekend baking notes</h1><p>x</p></article>") == (
        "Honey and almond muffins recipe, step by step"
    )
    head = og.replace("step by step", "step by step | Crumbs and Co") + (
        "<title>Honey and almond muffins recipe | Crumbs and Co</title>"
    )
    assert _title(head, "<header><h1>Crumbs and Co</h1></header><p>x</p>") != "Crumbs and Co"
    # a JSON-LD headline is structured evidence: the h1 does not override it this way
    ld = '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Muffins, step by step"}</script>'
    assert _title(og + ld, body) == "Muffins, step by step"


def test_spelling_follows_the_sources_that_agree_on_the_headline():
    curly = "Minister\u2019s \u2018bold\u2019 plan for rail \u2013 what changes"
    straight = "Minister's 'bold' plan for rail - what changes"

    def ld(text: str) -> str:
        return f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{text}"}}</script>'

    def seo(text: str) -> str:
        return f'<meta property="og:title" content="{text}"><title>{text} | Daily Lamp</title>'

    # JSON-LD (the chosen source) spells it plainly; the visible <h1> and <title> agree on the
    # typographic spelling: 2 votes to 1
    head = (
        ld(straight)
        + f'<title>{curly} | Daily Lamp</title><meta property="og:site_name" content="Daily Lamp">'
    )
    assert _title(head, f"<article><h1>{curly}</h1><p>x</p></article>") == curly
    # og:title and <title> are one family and vote once: against JSON-LD and the <h1> they lose
    assert _title(ld(curly) + seo(straight), f"<article><h1>{curly}</h1><p>x</p></article>") == curly
    # a tie (the SEO family against the <h1>, no JSON-LD) keeps the chosen source's spelling
    assert _title(seo(straight), f"<article><h1>{curly}</h1><p>x</p></article>") == straight


def test_markup_glued_h1_counts_with_the_spaced_spelling():
    plain = "Rail strike: Commuters' long walk home"
    typo = "Rail strike: Commuters\u2019 long walk home"
    head = (
        f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{plain}"}}</script>'
        f'<meta property="og:title" content="{typo}">'
    )
    # the <h1> joins kicker and headline without the space; it still agrees with og:title's spelling
    body = "<article><h1>Rail strike:<span>Commuters\u2019 long walk home</span></h1><p>x</p></article>"
    assert _title(head, body) == typo


def test_visible_headline_beats_a_differently_worded_seo_title_without_json_ld():
    shown = "Is a heat pump worth it in an old house?"
    seo = "Heat pumps in old houses - when they pay off"
    head = f'<meta property="og:title" content="{seo} | Warm Home"><title>{seo} | Warm Home</title>'
    head += '<meta property="og:site_name" content="Warm Home">'
    assert _title(head, f"<article><h1>{shown}</h1><p>x</p></article>") == shown
    # an <h1> about something else (no word shared) is a sidebar or section heading, not the headline
    assert _title(head, "<article><h1>Newsletter signup</h1><p>x</p></article>") == seo
    # an <h1> that is the SEO title plus a kicker is no better headline
    assert _title(head, f"<article><h1>Energy {seo}</h1><p>x</p></article>") == seo
    # og:title, twitter:title and <title> all declaring one headline: the declared one stays
    declared = head + f'<meta name="twitter:title" content="{seo}">'
    assert _title(declared, f"<article><h1>{shown}</h1><p>x</p></article>") == seo
    # a JSON-LD headline is structured evidence: this rule does not apply
    ld = f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{seo}"}}</script>'
    assert _title(head + ld, f"<article><h1>{shown}</h1><p>x</p></article>") == seo


def test_the_pages_own_section_name_is_no_headline():
    headline = "Cape Town water tariffs rise by 8% from July"
    head = (
        '<meta property="og:title" content="Western Cape"><meta property="article:section" content="Western Cape">'
        f'<title>{headline} | Daily Lamp</title><meta property="og:site_name" content="Daily Lamp">'
    )
    assert _title(head, "<p>x</p>") == headline


def _declared(ld: str, og: str, title: str) -> str:
    return (
        f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{ld}"}}</script>'
        f'<meta property="og:title" content="{og}"><meta property="og:site_name" content="Coastal Herald">'
        f"<title>{title} | Coastal Herald</title>"
    )


def test_visible_headline_decides_when_every_declared_headline_differs():
    ld = "Harbour board votes on new levy for cruise ships"
    og = "What the harbour levy means for cruise passengers"
    title = "Cruise ship levy: 5 things the harbour board decided"
    shown = "Harbour board approves cruise levy: 5 things we learned from the vote"
    body = f"<article><h1>{shown}</h1><p>x</p></article>"
    assert _title(_declared(ld, og, title), body) == shown
    # two declared sources agree: their headline stands against the shown one
    assert _title(_declared(ld, og, ld), body) == ld
    # a visible heading about another story (no shared words) is no tie-breaker
    assert _title(_declared(ld, og, title), "<article><h1>Weather warning lifted</h1></article>") == ld


def test_the_segment_a_branded_title_shows_as_a_heading_is_the_headline():
    head = "<title>Spring cleaning for the archive | Shelf Notes and More</title>"
    body = "<div class='post'><h2>Spring cleaning for the archive</h2><p>x</p></div>"
    assert (
        _title(head, body, "https://www.libraryblog.example/2014/05/spring")
        == "Spring cleaning for the archive"
    )
    # a segment no heading shows tells nothing: the title stays whole
    assert (
        _title(head, "<div><h2>Comments</h2><p>x</p></div>", "https://www.libraryblog.example/2014/05/spring")
        == "Spring cleaning for the archive | Shelf Notes and More"
    )


def test_css_inside_a_heading_is_not_part_of_the_headline():
    body = (
        "<article><h1><style>.k{font-size:16px}</style>Water restored to eastern wards</h1><p>x</p></article>"
    )
    assert _title("<title>Water restored to eastern wards | Herald</title>", body) == (
        "Water restored to eastern wards"
    )
    assert _title("", body) == "Water restored to eastern wards"
