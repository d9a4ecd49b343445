"""Titles by repetition across a publication's pages and by typography: evidence that holds on any site.

A ``<title>`` segment that every page of a publication carries is its name, whatever its spelling (no
host or og:site_name match needed); a "headline" that many pages share is no page's headline. Of two
spellings that differ only in typography, the typographic one is the original and the ASCII one its copy.
"""

from __future__ import annotations

from html import escape

from sacorpus.text.boilerplate import MIN_PAGES, LineHistory
from sacorpus.text.extract import extract_article
from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html

HOST = "https://ward-news.example"
BRAND = "Umhlobo Wenene Community Desk"  # no host or meta names this: only repetition shows it


def page(headline: str, n: int, og: str | None = None) -> str:
    head = f"<title>{headline} | {BRAND}</title>"
    if og:
        head += f'<meta property="og:title" content="{og}">'
    body = f"<p>Residents of ward {n} said the clinic had reopened on Monday after repairs to the roof.</p>"
    return f"<html><head>{head}</head><body><article>{body}</article></body></html>"


def titles(pages: list[str], history: LineHistory | None) -> list[str | None]:
    return [
        extract_article(html, f"{HOST}/news/{n}", history=history).title_clean for n, html in enumerate(pages)
    ]


def test_a_title_segment_every_page_repeats_is_the_site_name():
    heads = [f"Clinic {n} reopens after storm repairs" for n in range(MIN_PAGES + 2)]
    got = titles([page(h, n) for n, h in enumerate(heads)], LineHistory())
    assert got[:MIN_PAGES] == [f"{h} | {BRAND}" for h in heads[:MIN_PAGES]]  # not yet proven
    assert got[MIN_PAGES:] == heads[MIN_PAGES:]  # seen on MIN_PAGES other pages: the site's name
    # without the publication's history nothing is learnt
    assert titles([page(heads[-1], 9)], None) == [f"{heads[-1]} | {BRAND}"]


def test_a_headline_many_pages_share_is_generic_and_loses_to_the_page_s_own():
    section = "Media releases of the provincial department"
    history = LineHistory()
    got = titles([page(f"Clinic {n} reopens after storm repairs", n, og=section) for n in range(6)], history)
    assert got[0] == section  # one page: nothing says the og:title is shared
    assert got[-1] == "Clinic 5 reopens after storm repairs"


def test_the_same_page_fetched_again_is_no_repetition():
    history = LineHistory()
    html = page("Clinic 1 reopens after storm repairs", 1, og="Clinic 1 reopens after storm repairs")
    got = [extract_article(html, f"{HOST}/news/1", history=history).title_clean for _ in range(MIN_PAGES + 3)]
    assert set(got) == {"Clinic 1 reopens after storm repairs"}


def _title(head: str, h1: str) -> str | None:
    html = f"<html><head>{head}</head><body><article><h1>{h1}</h1><p>x</p></article></body></html>"
    return extract_metadata(parse_html(html), "https://blog.example/post/1").title_clean


def test_the_typographic_spelling_is_the_original_of_its_ascii_copy():
    ascii_form = 'Warum ich lieber "Bauchgeburt" sage - ein Jahr danach'
    shown = "Warum ich lieber „Bauchgeburt“ sage – ein Jahr danach"
    head = f'<title>{ascii_form} - Jane Blog</title><meta property="og:title" content="{escape(ascii_form)}">'
    assert _title(head, shown) == shown
    # an apostrophe inside a word is no such sign: the sources' majority keeps its spelling
    head = '<title>The lawyer\'s journey - Jane Blog</title><meta property="og:title" content="The lawyer\'s journey">'
    assert _title(head, "The lawyer’s journey") == "The lawyer's journey"


def test_a_separator_left_by_an_empty_site_name_is_dropped():
    head = '<title>Riders confirmed for the 2028 Games -</title><meta property="og:title" content="Riders confirmed for the 2028 Games -">'
    assert _title(head, "Riders confirmed for the 2028 Games") == "Riders confirmed for the 2028 Games"
