"""Filters drop only proven furniture: what they must keep, beside what they must still drop.

Each case is a pattern found on real pages where sacorpus lost wanted text that bare trafilatura kept
(``benchmarks/snippet_losses.py``): a sentence ending with the headline's words, a list of links to other
sites, a story section in a box named "infobox", a story paged by script into hidden sections.
"""

from __future__ import annotations

from lxml import etree

from sacorpus.text.blocks import remove_fact_boxes, remove_image_credits
from sacorpus.text.extract import extract_article
from sacorpus.text.linefilters import drop_furniture_lines, drop_link_lines, same_site
from sacorpus.text.preclean import parse_html, remove_hidden

URL = "https://news.example.co.za/news/2026-11-03-story/"
PROSE = (
    "The municipality said residents who had not received a tanker by Wednesday could report the outage to "
    "its call centre, and that teams would work through the night to restore supply."
)


def test_headline_goes_only_as_an_exact_repeat_above_the_story():
    title = "Haltet unsere Gewässer sauber!"
    text = "\n".join(
        [
            "News",
            "»Haltet unsere Gewässer sauber!«",  # the headline, quoted: goes
            PROSE,
            "Gestalte ein Plakat unter dem Motto: »Haltet unsere Gewässer sauber!«",  # ends like it: stays
            "Haltet unsere Gewässer sauber! Das sagen die Kinder seit Jahren.",  # starts like it: stays
        ]
    )
    out = drop_furniture_lines(text, [title]).split("\n")
    assert out == ["News", PROSE, *text.split("\n")[3:]]


def test_headline_words_further_down_are_text():
    title = "Water cuts hit Soweto again"
    text = f"{PROSE}\nWater cuts hit Soweto again\n{PROSE} More."
    assert drop_furniture_lines(text, [title]) == text


def test_a_sentence_ending_with_a_short_title_stays():
    text = "\n".join([PROSE, "visiting the Google Ad and Content Network privacy policy."])
    assert drop_furniture_lines(text, ["privacy policy"]) == text


def test_link_runs_go_only_when_they_point_to_the_same_site():
    own = [
        ("Cabinet approves the new water bill", "/news/a"),
        ("Rand firms against the dollar", "https://www.news.example.co.za/b"),
        ("Springboks name squad for tour", "https://sport.news.example.co.za/c"),
    ]
    other = [
        ("Niedlicher Roboter-Spielkamerad: Anki Cozmo", "https://shop.example.com/cozmo"),
        ("Lenovo Legion notebook for gamers", "https://shop.example.com/legion"),
        ("Sony PlayStation VR headset bundle", "https://shop.example.com/psvr"),
    ]
    text = "\n".join(["Deals of the week:", *(f"- {t}" for t, _ in other), "Related:", *(t for t, _ in own)])
    out = drop_link_lines(text, own + other, URL).split("\n")
    assert out == ["Deals of the week:", *(f"- {t}" for t, _ in other), "Related:"]


def test_same_site():
    assert same_site("/x", URL) and same_site("https://news.example.co.za/y", URL)
    assert same_site("https://www.news.example.co.za/y", URL)
    assert not same_site("https://other.example.com/y", URL)
    assert not same_site("mailto:news@example.co.za", URL)


def _tree(body: str) -> etree._Element:
    root = parse_html(f"<html><body>{body}</body></html>")
    assert root is not None
    return root


def _text(root: etree._Element) -> str:
    return " ".join(" ".join(root.itertext()).split())


def test_a_fact_box_holding_the_story_stays_a_small_one_goes():
    story = "".join(f"<p>{PROSE} ({i})</p>" for i in range(5))
    root = _tree(f'<div class="tab-content infobox">{story}</div><p>Short intro line.</p>')
    assert remove_fact_boxes(root.find("body")) == 0 and "(4)" in _text(root)
    small = '<div class="factbox"><p>Key points: water cuts, tankers, Soweto.</p></div>'
    root = _tree(f"{story}{small}")
    assert remove_fact_boxes(root.find("body")) == 1 and "Key points" not in _text(root)


def test_a_story_paged_into_hidden_sections_stays():
    sections = "".join(
        f'<div class="gallery-section hidden" style="display: none;"><p>{PROSE} Item {i}.</p></div>'
        for i in range(12)
    )
    root = _tree(f"<div>{sections}</div><div class='hidden'><p>Screen-reader only label.</p></div>")
    remove_hidden(root)
    assert "Item 11." in _text(root) and "Screen-reader only" not in _text(root)


def test_image_credits_go_captions_and_contributor_credits_stay():
    root = _tree(
        '<figure><figcaption>Residents queue for water in Soweto on Monday. <span class="photo-credit">'
        "Picture: Thandi Mokoena</span></figcaption></figure>"
        '<p class="article-credits">Additional reporting by Reuters</p>'
    )
    assert remove_image_credits(root.find("body")) == 1
    assert _text(root) == "Residents queue for water in Soweto on Monday. Additional reporting by Reuters"


def test_page_with_a_headline_repeat_and_a_list_of_sources(make_page):
    ld = '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Tankers sent to Soweto"}</script>'
    body = (
        "<h1>Tankers sent to Soweto</h1>"
        "<p>The council's sources for this report:</p>"
        "<ul><li><a href='https://dws.example.gov.za/report'>Department of Water and Sanitation report</a></li>"
        "<li><a href='https://randwater.example.co.za/notice'>Rand Water maintenance notice of 2 November</a></li>"
        "<li><a href='https://stats.example.gov.za/census'>Census 2022 household water access tables</a></li></ul>"
    )
    ex = extract_article(make_page(head=ld, body=body), URL)
    assert "Department of Water and Sanitation report" in ex.text
    assert "Census 2022 household water access tables" in ex.text
    assert not ex.text.startswith("Tankers sent to Soweto")


def test_pointers_and_labels_go_a_speaker_named_lea_stays():
    furniture = [
        "MIRA: Madre se acerca a conocer los motivos de captura de su hijo",
        "Lea más: el concejo propone una nueva tarifa de agua",
        "Schon gelesen?",
        ">> Wegen Corona: Lokal auf Mallorca muss schliessen <<",
        "Kategorie: News",
        "Temas",
        "Crédits photos : Bestimage",
        "(Credit: Clayton Aldern / Grist)",
        "Dowiedz się więcej: Kto jak głosował ws. unijnych funduszy?",
        "Sie sind aktuell nicht eingeloggt.",
    ]
    story = ["Lea: I think the council should have warned us sooner.", PROSE]
    assert drop_furniture_lines("\n".join([*furniture, *story]), []).split("\n") == story
