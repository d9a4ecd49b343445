"""A publication's body rules applied to one page, and not trusted where they would empty it.

Why the distrust: a rule is written against the layout its author saw; a redesign, an A/B test or a
class name reused for a page wrapper turns a sidebar filter into one that removes the article (the Arc
XP ``right-rail`` filter removed every paragraph of a real TimesLIVE page, and the page was stored
empty with no problem recorded). So a filter whose matches hold most of the page's paragraph text is
skipped for that page, and a ruled extraction far shorter than the rule-less one loses to it; each
case is recorded as a problem ``rules-distrusted:<version>:<rule>`` that the crawl counts and the
crawl summary names.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from lxml import etree

from sacorpus.publications import ElementFilter, Publication, RuleSet, is_xpath

logger = logging.getLogger(__name__)

#: a filter whose matches hold more than this share of the page's paragraph text is not applied
MAX_FILTER_SHARE = 0.5


def paragraph_chars(scope: etree._Element) -> int:
    """Characters of paragraph text (``<p>``) under ``scope``: the page's prose, roughly."""
    return sum(len(" ".join("".join(p.itertext()).split())) for p in scope.iter("p"))


def filter_matches(root: etree._Element, flt: ElementFilter) -> list[etree._Element]:
    """The elements a ``(tag, attribute, value-regex)`` filter selects (outermost only)."""
    tag = flt.tag.strip() or "*"
    attr = flt.attribute.strip()
    pattern = flt.pattern() if flt.value else None
    try:
        candidates = root.xpath(f"//{tag}[@{attr}]")
    except etree.XPathError:  # validated at load; a hand-built RuleSet may still be wrong
        logger.warning("ignoring filter with bad tag/attribute %r", flt)
        return []
    chosen = [el for el in candidates if pattern is None or pattern.search(el.get(attr, ""))]
    inside = set(chosen)
    return [el for el in chosen if not any(a in inside for a in el.iterancestors())]


def apply_filters(
    root: etree._Element, rules: RuleSet, problems: list[str] | None = None, page_chars: int | None = None
) -> int:
    """Remove what the publication's filters select; a filter that would take most prose is skipped."""
    from sacorpus.text.preclean import remove_element

    body = root.find(".//body")
    total = paragraph_chars(body if body is not None else root) if page_chars is None else page_chars
    removed = 0
    for i, flt in enumerate(rules.filters):
        matches = filter_matches(root, flt)
        if not matches:
            continue
        taken = sum(paragraph_chars(el) for el in matches)
        if total and taken > MAX_FILTER_SHARE * total:
            if problems is not None:
                problems.append(f"rules-distrusted:{rules.version}:filters[{i}]")
            continue
        for el in matches:
            remove_element(el)
            removed += 1
    return removed


def _select(root: etree._Element, selector: str) -> list[etree._Element]:
    try:
        found = root.xpath(selector) if is_xpath(selector) else root.cssselect(selector)
    except Exception:  # validated at load; a hand-built RuleSet may still be wrong
        return []
    return [el for el in found if isinstance(el, etree._Element)] if isinstance(found, list) else []


def focus_body(root: etree._Element, selectors: Iterable[str]) -> bool:
    """Keep only the article containers ``selectors`` name (and the path to them) inside ``<body>``.

    Everything beside that path (navigation, rails, teasers, footers) is removed, so the extractor
    sees the story alone. Nothing happens when no selector matches (a layout the rule does not know).
    """
    body = root.find(".//body")
    if body is None:
        return False
    keep: list[etree._Element] = []
    for selector in selectors:
        keep += [el for el in _select(body, selector) if el is not body]
    if not keep:
        return False
    # the elements themselves, not id(): lxml proxies are recreated (with new ids) unless referenced
    on_path: set[etree._Element] = set(keep)
    for el in keep:
        on_path.update(el.iterancestors())
    for el in keep:
        node = el
        while node is not None and node is not body:
            parent = node.getparent()
            if parent is None:
                break
            for sibling in list(parent):
                if sibling not in on_path:
                    parent.remove(sibling)  # tails go too: text beside the story is not the story
            node = parent
    return True


_CLASS_ATTR = re.compile(r"\sclass\s*=", re.I)


def _has_class(html: str, name: str) -> bool:
    """True when ``name`` is one whole class name in a class attribute of ``html``.

    A plain substring search first (a regex over every class attribute costs more than the rest of the
    page core on a large page), then each hit is checked to be a whole name inside an open tag's class.
    """
    start = 0
    for _ in range(64):
        i = html.find(name, start)
        if i < 0:
            return False
        start = i + len(name)
        edges = html[i - 1 : i] + html[start : start + 1]
        if any(c.isalnum() or c in "-_" for c in edges):
            continue  # part of a longer name ("b-article-body__citation")
        tag = html.rfind("<", 0, i)
        if tag >= 0 and ">" not in html[tag:i] and _CLASS_ATTR.search(html, tag, i):
            return True
    return False


def layout_found(rules: RuleSet, html: str) -> bool:
    """True when the page carries one of the classes that identify ``rules``' layout."""
    return any(_has_class(html, name) for name in rules.layout_classes)


def choose_layout(publication: Publication, captured: date | None, html: str | None) -> RuleSet:
    """The rule version for a page: by its capture date, unless its markup names another layout.

    Why: a date only guesses the layout. Sites keep serving old articles in the old template after a
    redesign, an evaluation page or a live fetch carries no capture date, and a version's date range is
    drawn from the captures its author saw. A page that carries one of a version's ``layout_classes``
    is of that layout; when the date's version has no such evidence, the version the markup names
    wins (the latest such version when several do). Without ``layout_classes`` nothing changes.
    """
    dated = publication.rules_for(captured)
    if not html or layout_found(dated, html):
        return dated
    named = [r for r in publication.rules if r.layout_classes and layout_found(r, html)]
    if not named:
        return dated
    return max(named, key=lambda r: r.valid_until or date.max)


_BODY_RULES = ("filters", "prune_xpaths", "body_selectors", "strip_text")


def body_rules(rules: RuleSet) -> list[str]:
    """Names of the rule kinds in ``rules`` that change which text is kept."""
    return [name for name in _BODY_RULES if getattr(rules, name)]


def without_body_rules(rules: RuleSet) -> RuleSet:
    """The same rules minus everything that changes which text is kept (metadata rules stay)."""
    return replace(rules, filters=(), prune_xpaths=(), body_selectors=(), strip_text=())


def suspicious(text: str, page_chars: int) -> bool:
    """A ruled extraction worth a second, rule-less look: very short, or a small share of the prose."""
    return len(text) < 300 or len(text) < 0.25 * page_chars


def ruled_text_lost(ruled: str, plain: str) -> bool:
    """True when the rules lost most of the text the rule-less extraction finds."""
    return len(plain) >= 200 and len(ruled) < 0.5 * len(plain)


__all__ = [
    "MAX_FILTER_SHARE",
    "apply_filters",
    "body_rules",
    "choose_layout",
    "filter_matches",
    "focus_body",
    "layout_found",
    "paragraph_chars",
    "ruled_text_lost",
    "suspicious",
    "without_body_rules",
]
