"""Pre-cleaning: make the HTML say only what a reader sees, with word boundaries where a reader sees them.

Three faults of real news markup poison a corpus long before any extractor runs:

* Paragraphs and blocks glued without whitespace (``here.</p><p>Another``): any text-content walk
  turns them into one token ("here.Another"), and word lists fill with hundreds of fake words.
  Every block boundary therefore gets a newline, and text nodes in which a sentence ends and the
  next begins without a space ("said.The") are repaired, without touching "U.S." or "e.g.".
* Hidden content (inline ``display:none`` in any spelling, the ``hidden`` attribute, ``aria-hidden``,
  ``sr-only``-style classes, ``<template>``): screen-reader duplicates, SEO blocks and paywall
  teasers that would otherwise be counted as article text.
* Site furniture described by the publication's dated rules: ``(tag, attribute, value-regex)``
  filters, and static text (copyright blurbs, "Related links") stripped after extraction.

The functions work on an lxml tree in place (:func:`preclean_tree`, so the extract stage parses once)
or on a string (:func:`preclean`).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterable

import lxml.html
from lxml import etree

from sacorpus.publications import RuleSet

logger = logging.getLogger(__name__)

BLOCK_TAGS = frozenset(
    (
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "option",
        "legend",
    )
)
SKIP_TEXT_TAGS = frozenset(("script", "style", "code", "pre", "textarea", "kbd", "samp", "tt", "var"))
HIDDEN_CLASSES = frozenset(
    (
        "hidden",
        "hide",
        "is-hidden",
        "u-hidden",
        "sr-only",
        "sr-only-focusable",
        "visually-hidden",
        "visuallyhidden",
        "screen-reader-text",
        "screen-reader-only",
        "screenreader-only",
        "element-invisible",
        "d-none",
        "invisible",
        "offscreen",
        "a11y-hidden",
        "hidden-text",
        "hidden-content",
    )
)
_HIDDEN_STYLE = re.compile(
    r"(?:^|[;{\s\"'])(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))(?![\w-])", re.I
)
# responsive utility classes ("hidden md:block", "d-none d-md-block") make "hidden" elements visible
_RESPONSIVE_SHOW = re.compile(
    r"(?:^|\s)(?:\w+:(?:block|flex|inline|grid|table)[\w-]*|d-\w+-(?:block|flex|inline[\w-]*|grid|table))(?:\s|$)"
)
# "said.The" -> "said. The": only a space is ever inserted, and only where a sentence evidently ends:
# a full stop or question mark after a word of two lowercase letters (or a year), before a capitalised
# word. So "U.S.", "e.g.", "i.e.", "Mr.Smith" initials, "News24.com", "www.example.Com" (a dot before
# the word), "ASP.NET", "3.5", "2.Bundesliga" (an ordinal) and "Yahoo!News" (a name) are left alone.
_GLUED = re.compile(
    r"(?<![./\\\w])((?:[^\W\d_]*[a-zß-ÿ]{2}|\d{3,4})[.?][\"”’)\]]?)([\"“‘(]?[A-ZÀ-Þ][a-zß-ÿ])"
)


# What every _GLUED match holds: the mark and the capitalised word with nothing but quotes between.
# _GLUED tries each word start and backtracks through the word; this scan finds the few text nodes
# worth that (a page's text nodes cost a third of the time without it, the same output).
_GLUED_JOINT = re.compile(r"[.?][\"”’)\]]?[\"“‘(]?[A-ZÀ-Þ][a-zß-ÿ]")


def repair_glued_sentences(text: str) -> str:
    """Insert the missing space in "said.The"; leaves "U.S.", "e.g." and domain names alone."""
    if not text or not _GLUED_JOINT.search(text):
        return text
    return _GLUED.sub(r"\1 \2", text)


def is_hidden(el: etree._Element) -> bool:
    """True for elements a browser would not show (or shows only to screen readers).

    Exceptions: a hidden block holding article-length paragraph text is a paywall or a body revealed
    by script; it *is* the article, so it is kept. A hidden ``<h1>`` is the page's headline given to
    screen readers: it tells the extractor where the story starts (removing it moved extraction to a
    teaser list on a real page), and the headline line filter drops it from the text.
    """
    if el.tag == "h1":
        return False
    if _hidden_markup(el):
        return not _has_long_text(el)
    return False


def _hidden_markup(el: etree._Element) -> bool:
    attrib = el.attrib
    if not attrib:
        return bool(el.tag == "template")
    if "hidden" in attrib and str(attrib.get("hidden", "")).lower() != "until-found":
        # React/Next.js streaming puts server-rendered content in <div hidden id="S:0"> and moves it
        # into place on load: that content is visible to readers
        return not str(attrib.get("id", "")).startswith(("S:", "P:"))
    if str(attrib.get("aria-hidden", "")).strip().lower() == "true":
        return True
    style = attrib.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    cls = attrib.get("class")
    if cls:
        tokens = cls.lower().split()
        if any(t in HIDDEN_CLASSES for t in tokens) and not _RESPONSIVE_SHOW.search(cls):
            return True
    if el.tag == "input" and str(attrib.get("type", "")).lower() == "hidden":
        return True
    return bool(el.tag == "template")


def _has_long_text(el: etree._Element) -> bool:
    """At least two paragraphs and 1,500 characters of paragraph text: an article body, not a label."""
    n = 0
    for paragraphs, p in enumerate(el.iter("p"), 1):
        n += sum(len(t) for t in p.itertext())
        if n > 1500 and paragraphs >= 2:
            return True
    return False


def remove_element(el: etree._Element) -> None:
    """Remove an element but keep its tail text (which belongs to the parent)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail and tail.strip():
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


def _paged_body(doomed: list[etree._Element]) -> set[etree._Element]:
    """Hidden siblings of one kind that together hold an article: the pages of a story or a gallery a
    script shows one at a time (each page alone is too short to pass as an article body)."""
    groups: dict[tuple[object, str], list[etree._Element]] = {}
    for el in doomed:
        groups.setdefault((el.getparent(), el.get("class") or el.tag), []).append(el)
    kept: set[etree._Element] = set()
    for members in groups.values():
        if len(members) < 3:
            continue
        chars = sum(len(t) for el in members for p in el.iter("p") for t in p.itertext())
        if chars > 1500:
            kept.update(members)
    return kept


def remove_hidden(root: etree._Element) -> int:
    """Remove every hidden element; returns how many were removed."""
    doomed = [el for el in root.iter() if isinstance(el.tag, str) and is_hidden(el)]
    paged = _paged_body(doomed)
    doomed = [el for el in doomed if el not in paged]
    removed = 0
    for el in doomed:
        if el.getparent() is not None:  # (a descendant of a removed element is detached harmlessly)
            remove_element(el)
            removed += 1
    return removed


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """lxml refuses control characters when text is set back (the parser accepted them on the way in)."""
    return _CONTROL.sub("", text)


def space_blocks(root: etree._Element) -> None:
    """Give every block boundary whitespace and repair glued sentences in text nodes."""
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if tag in SKIP_TEXT_TAGS:
            continue
        if el.text and not el.text.isspace():
            fixed = repair_glued_sentences(el.text)
            if fixed != el.text:
                el.text = _xml_safe(fixed)
        if el.tail and not el.tail.isspace():
            fixed = repair_glued_sentences(el.tail)
            if fixed != el.tail:
                el.tail = _xml_safe(fixed)
        if tag in BLOCK_TAGS:
            if el.tail and not el.tail[0].isspace():
                el.tail = _xml_safe("\n" + el.tail)
            prev = el.getprevious()
            if prev is not None:
                if prev.tail and not prev.tail[-1].isspace():
                    prev.tail = _xml_safe(prev.tail + "\n")
            else:
                parent = el.getparent()
                if parent is not None and parent.text and not parent.text[-1].isspace():
                    parent.text = _xml_safe(parent.text + "\n")
            if len(el):
                last = el[-1]
                if last.tail and not last.tail[-1].isspace():
                    last.tail = _xml_safe(last.tail + "\n")
            elif el.text and not el.text[-1].isspace():
                el.text = _xml_safe(el.text + "\n")


def preclean_tree(
    root: etree._Element, rules: RuleSet | None = None, problems: list[str] | None = None
) -> dict[str, int]:
    """Pre-clean a parsed page in place; returns counts ``{"hidden", "filtered", "teasers", "boxes", "credits"}`` -> n.
    Embedded posts (tweets, Instagram) quoted in a story stay: they are part of what it reports. A publication filter that would remove most of the page's prose is not
    applied and recorded in ``problems`` (see :mod:`sacorpus.text.rules`)."""
    from sacorpus.text.blocks import remove_fact_boxes, remove_image_credits, remove_teaser_cards
    from sacorpus.text.rules import apply_filters, focus_body

    rules = rules or RuleSet()
    stats = {"hidden": 0, "filtered": 0, "teasers": 0, "boxes": 0, "credits": 0}
    body = root.find(".//body")
    scope = body if body is not None else root
    stats["filtered"] = apply_filters(root, rules, problems)
    if rules.body_selectors:
        focus_body(root, rules.body_selectors)
    stats["hidden"] = remove_hidden(scope)
    stats["teasers"] = remove_teaser_cards(scope)
    stats["boxes"] = remove_fact_boxes(scope)
    stats["credits"] = remove_image_credits(scope)
    space_blocks(scope)
    return stats


#: lxml.html's element classes chosen in C: ``lxml.html.HTMLParser`` asks a Python method for the
#: class of every element proxy made (by the pre-clean, the metadata readers and trafilatura alike),
#: a fifth of a page's extraction time. Only the form controls' own subclasses (FormElement,
#: InputElement, ...) are given up; nothing reading articles uses their form methods.
_HTML_CLASSES = etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement,
    comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction,
    entity=lxml.html.HtmlEntity,
)


def parse_html(html: str, problems: list[str] | None = None) -> etree._Element | None:
    """Parse HTML leniently; None when there is nothing to parse.

    libxml2 stops nesting at depth 256 (the rest of a 10,000-deep page is flattened or lost); that is
    reported as ``too-deep`` in ``problems`` rather than passing silently.
    """
    if not html or not html.strip():
        return None
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, collect_ids=False, default_doctype=False)
    parser.set_element_class_lookup(_HTML_CLASSES)
    if html.lstrip().startswith("<?xml"):
        html = re.sub(r"^\s*<\?xml[^>]*>", "", html)
    try:
        root = lxml.html.document_fromstring(html, parser=parser)
    except (etree.ParserError, ValueError):
        return None
    if problems is not None and any("Excessive depth" in e.message for e in parser.error_log):
        problems.append("too-deep")
    return root


def preclean(html: str, rules: RuleSet | None = None) -> str:
    """Pre-clean an HTML string; returns cleaned HTML (the input unchanged when it cannot be parsed)."""
    root = parse_html(html)
    if root is None:
        return html
    preclean_tree(root, rules)
    return str(lxml.html.tostring(root, encoding="unicode"))


def strip_static_text(text: str, patterns: Iterable[str]) -> str:
    """Drop the lines that are, as a whole, one of the static texts (exact strings or regexes).

    Anchored to whole lines: a publication's "Related links" or "© 2025 ..." is furniture on a line of its
    own, while a story sentence that mentions the same words ("the National Gallery", "subscribe to")
    keeps every word. An entry matching part of a line never cuts that part out.
    """
    patterns = [p for p in patterns if p]
    if not patterns or not text:
        return text
    compiled = []
    for p in patterns:
        with contextlib.suppress(re.error):  # a plain string that is no regex still matches as itself
            compiled.append(re.compile(p))
    exact = set(patterns)

    def static(line: str) -> bool:
        return line in exact or any(rx.fullmatch(line) for rx in compiled)

    out = [line for line in text.split("\n") if not line.strip() or not static(line.strip())]
    return "\n".join(out).strip("\n")


__all__ = [
    "is_hidden",
    "parse_html",
    "preclean",
    "preclean_tree",
    "remove_hidden",
    "repair_glued_sentences",
    "space_blocks",
    "strip_static_text",
]
