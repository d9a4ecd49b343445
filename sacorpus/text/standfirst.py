"""The standfirst: the lead paragraph a page shows between its headline and its story.

Why: many CMSs print the lead ("standfirst", "Vorspann", "teaser", the summary the journalist writes)
in the article header, outside the container that holds the story's paragraphs, so the main-text
extractor leaves it out, and with it the sentence that says what the story is. Both evaluation sets
count it as article text (on ``fundus_dev`` it is in the truth of 42 of the 44 pages whose description
the page also shows).

Evidence that holds on any site, in any language: the page states that text twice, as its summary
(meta description, ``og:description``, ``twitter:description``, JSON-LD ``description``) and visibly in
its body. A description the body does not show (search-engine text), one the story already holds (its
first paragraph, cut short for the meta tag), one shown inside navigation, a link or a page footer
(a teaser of this page on a list), a headline, and one the publication repeats on other pages (a
site-wide default description) add nothing and are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.titles import clean_spaces

#: a description shorter than this says too little to be a lead ("News", "Home of ...")
MIN_WORDS = 6
#: the start of a description looked for in the page (characters; descriptions are often cut short)
PROBE_CHARS = 48
#: letters and digits a shown lead may have before the description: a dateline ("CAPE TOWN -"), a kicker
MAX_LEAD_IN = 40
#: the shown lead may hold a dateline or a credit beside the description, not a whole story
MAX_GROWTH = 1.6
_ELLIPSIS = re.compile(r"\s*(?:\.{3}|…|\[…\]|\[\.\.\.\])\s*$")
_BLOCKS = frozenset(
    (
        "p",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "section",
        "header",
        "blockquote",
        "td",
        "dd",
        "summary",
    )
)
# where a page repeats its own description without it being the lead: menus, teaser links, footers
_OUTSIDE = frozenset(("nav", "footer", "aside", "a", "button", "form", "figcaption", "noscript", "template"))
#: text nodes holding a probe (one pass over the page's text, whatever its nesting depth)
_FIND = "//body//text()[contains(., $probe)]"
#: characters of a probe: short enough to fall inside one text node, long enough to be specific
PROBE_WORDS_CHARS = 20


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def _probes(stem: str) -> list[str]:
    """Short pieces of the description, from its start and each quarter: markup inside the shown lead
    (a bold dateline, a link) splits its text nodes, and one of them is found whole."""
    words = stem.split()
    out = []
    for start in sorted({0, len(words) // 4, len(words) // 2, 3 * len(words) // 4}):
        probe = ""
        for word in words[start:]:
            if len(probe) + len(word) + 1 > PROBE_WORDS_CHARS and probe:
                break
            probe = f"{probe} {word}".strip()
        out.append(probe)
    return list(dict.fromkeys(p for p in out if len(p) >= 8))


def _holders(root: Any, stem: str) -> list[Any]:
    """The elements whose own text holds a piece of the description, in page order, once each."""
    found: dict[int, Any] = {}
    for probe in _probes(stem):
        for node in root.xpath(_FIND, probe=probe):
            el = node.getparent()
            if el is not None and node.is_tail:
                el = el.getparent()
            if el is not None and el.tag not in ("script", "style"):
                found.setdefault(id(el), el)
    return list(found.values())


def _block_text(el: Any) -> str | None:
    """The text of the block around ``el``, or None when it sits where a lead never is."""
    block = None
    for node in (el, *el.iterancestors()):
        if node.tag in _OUTSIDE:
            return None
        if block is None and node.tag in _BLOCKS:
            block = node
    return clean_spaces(" ".join((block if block is not None else el).itertext()))


def _shown_lead(root: Any, description: str, squashed_text: str) -> str | None:
    stem = _ELLIPSIS.sub("", description)
    if len(stem.split()) < MIN_WORDS or _squash(stem) in squashed_text:
        return None  # too short to tell, or the story holds it already (its first paragraph, cut)
    start = _squash(stem[:PROBE_CHARS])
    for el in _holders(root, stem):
        shown = _block_text(el)
        # the block opens with the description (a dateline or a kicker before it at most)
        at = _squash(shown).find(start) if shown else -1
        if shown and 0 <= at <= MAX_LEAD_IN and len(shown) <= MAX_GROWTH * len(stem) + 40:
            return shown
    return None


def lead_paragraph(
    root: Any,
    descriptions: Iterable[str | None],
    text: str,
    titles: Iterable[str | None] = (),
    history: LineHistory | None = None,
    url: str | None = None,
) -> str | None:
    r"""The lead the page shows and ``text`` (the extracted story) lacks, or None.

    ``root`` is the cleaned tree (hidden elements gone); ``titles`` are the page's headlines (a
    description that only repeats the headline is no lead); ``history`` (the publication's) knows what
    its other pages (other ``url``\ s) state: a lead seen on several of them is the site's description,
    not this story's.
    """
    squashed_text = _squash(text)
    headlines = {_squash(t) for t in titles if t}
    for description in dict.fromkeys(clean_spaces(d) for d in descriptions if d):
        lead = _shown_lead(root, description, squashed_text) if description else None
        if not lead or _squash(lead) in headlines or _squash(lead) in squashed_text:
            continue
        if history is not None:
            repeated = history.is_repeated_title(lead, url)
            history.observe_titles([lead], url)
            if repeated:
                continue
        return lead
    return None


def with_lead(text: str, lead: str | None) -> str:
    """``text`` with the lead as its first paragraph."""
    return f"{lead}\n{text}" if lead and text else text


__all__ = ["lead_paragraph", "with_lead"]
