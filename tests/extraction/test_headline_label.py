"""The kicker printed inside the <h1>, and one-word headlines the page both shows and declares."""

from __future__ import annotations

from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html
from sacorpus.text.title_kicker import headline_without_label, labelled_parts

HEADLINE = "Data of an arms maker stolen in a cyber attack"


def _title(head: str, body: str, url: str = "https://news.example.org/a/1") -> str | None:
    root = parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    return extract_metadata(root, url).title_clean


def _h1(inner: str):
    root = parse_html(f"<html><body><article><h1>{inner}</h1></article></body></html>")
    assert root is not None
    return root.find(".//h1")


def test_labelled_parts_reads_a_kicker_element_and_the_headline_after_it():
    kicker = '<span class="dachzeile">Documents online</span>'
    assert labelled_parts(_h1(f"{kicker}<span>{HEADLINE}</span>")) == ("Documents online", HEADLINE)
    # a hidden separator, the headline as the kicker's tail, a <style> the framework put first
    hidden = '<span class="sr-only">:</span>'
    assert labelled_parts(_h1(f"<span>Cyber attack</span>{hidden}<span>{HEADLINE}</span>"))[1] == HEADLINE
    assert labelled_parts(_h1(f"<small>Cyber attack :</small>{HEADLINE}")) == ("Cyber attack", HEADLINE)
    styled = f"<style>.k{{color:red}}</style><span class='k'>Cyber attack</span>{HEADLINE}"
    assert labelled_parts(_h1(styled)) == ("Cyber attack", HEADLINE)
    # text before the first element, a single element, a one-word rest: no kicker structure
    assert labelled_parts(_h1(f"Breaking <em>news</em> {HEADLINE}")) is None
    assert labelled_parts(_h1(f"<span>{HEADLINE}</span>")) is None
    assert labelled_parts(_h1("<span>Cyber attack</span><span>Update</span>")) is None


def test_headline_without_label_needs_a_declared_title_stating_it_without_the_label():
    parts = ("Documents online", HEADLINE)
    assert headline_without_label(parts, [HEADLINE]) == HEADLINE
    assert headline_without_label(parts, [f"{HEADLINE} - Documents online"]) == HEADLINE
    # the page titles itself with the label: it stays
    assert headline_without_label(parts, [HEADLINE, f"Documents online: {HEADLINE}"]) is None
    # no declared title states the second part: it may be a subtitle
    assert headline_without_label(parts, ["Something else entirely"]) is None
    assert headline_without_label(None, [HEADLINE]) is None


def test_kicker_in_the_h1_is_left_out_when_the_declared_titles_do_not_carry_it():
    h1 = f'<article><h1><span class="topline">1 February 2022</span><span>{HEADLINE}</span></h1><p>x</p></article>'
    assert _title(f'<meta property="og:title" content="{HEADLINE}">', h1) == HEADLINE
    # another wording of the kicker in og:title: the headline the page shows under its own kicker
    og = f'<meta property="og:title" content="Cyber attack: {HEADLINE}">'
    assert _title(og, h1.replace("1 February 2022", "After a cyber attack")) == HEADLINE


def test_kicker_stays_when_the_page_declares_kicker_and_headline_as_its_title():
    declared = f"Cyber attack: {HEADLINE}"
    h1 = f'<article><h1><span class="kicker">Cyber attack</span><span class="hidden">:</span><span>{HEADLINE}</span></h1></article>'
    head = f'<meta property="og:title" content="{declared}"><title>{declared} | News</title>'
    assert _title(head, h1) == declared


def test_one_word_headline_shown_and_declared_is_kept():
    head = '<meta property="og:title" content="BestCrypt"><title>BestCrypt - Download - CHIP</title>'
    assert (
        _title(head, "<article><h1>BestCrypt</h1><p>x</p></article>", "https://www.chip.example/d/1")
        == "BestCrypt"
    )
    # one word in a single source is still no headline against a real one
    head = "<title>Encrypting your disk in five steps</title>"
    assert (
        _title(head, "<article><h1>BestCrypt</h1><p>x</p></article>") == "Encrypting your disk in five steps"
    )
    # a generic word stays generic however many sources state it
    head = '<meta property="og:title" content="Home"><title>Encrypting your disk in five steps</title>'
    assert _title(head, "<article><h1>Home</h1><p>x</p></article>") == "Encrypting your disk in five steps"
