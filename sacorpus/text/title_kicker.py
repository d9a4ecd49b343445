"""The kicker a page prints inside its headline element, told apart from the headline itself.

Many CMSs mark up the visible headline as a label and the headline in elements of their own:
``<h1><span class="kicker">Interne Unterlagen im Netz</span><span>Daten von Rheinmetall
gehackt</span></h1>``. Read as one string, the ``<h1>`` glues the label to the headline. Whether the
label belongs to the title is told by what the page declares: when one of its declared titles
(JSON-LD, og:title, twitter:title, ``<title>``) states the label and the headline together, the page
titles itself with the label; when a declared title states the headline part but none states it with
the label, the label is page furniture (a topic, a date line, a department) and the headline is the
part after it. Markup and declarations are evidence on any site in any language; no class names are
read.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import takewhile
from typing import Any

from sacorpus.text.titles import clean_spaces, norm_key

_NOT_SHOWN = ("style", "script", "noscript", "template")
_LEADING_MARKS = " :;,.|–—-·•»/"
MIN_HEADLINE_WORDS = 2


def shown_text(el: Any) -> str:
    """The text an element shows: without the CSS or script some frameworks put inside it."""
    return "".join(el.xpath(".//text()[not(ancestor::style) and not(ancestor::script)]"))


def labelled_parts(heading: Any) -> tuple[str, str] | None:
    """(label, headline) of a heading whose first child element is printed before the rest, else None.

    The heading must start with that element (no text of its own before it), and both parts must have
    text; the headline part has two words or more, with the separator a hidden ``<span>`` or the tail
    left between them removed.
    """
    if heading is None or (heading.text or "").strip():
        return None
    children = [c for c in heading if isinstance(c.tag, str) and c.tag not in _NOT_SHOWN]
    if not children:
        return None
    first = children[0]
    if any((c.tail or "").strip() for c in takewhile(lambda c: c is not first, heading)):
        return None  # text after a <style> or a comment, before the first element
    label = clean_spaces(shown_text(first)) or ""
    rest = [first.tail or ""]
    for child in children[1:]:
        rest += [shown_text(child), child.tail or ""]
    headline = (clean_spaces(" ".join(rest)) or "").lstrip(_LEADING_MARKS).strip()
    label = label.rstrip(_LEADING_MARKS).strip()
    if not norm_key(label) or len(headline.split()) < MIN_HEADLINE_WORDS:
        return None
    return label, headline


def headline_without_label(parts: tuple[str, str] | None, declared: Iterable[str]) -> str | None:
    """The headline part of a labelled heading when the page's declared titles confirm it without the label.

    ``declared`` are the page's declared titles with the site's name removed. None when no declared
    title states the headline part (the heading's second part may be a subtitle), or when one states it
    together with the label (the page titles itself "Label: Headline").
    """
    if parts is None:
        return None
    label, headline = parts
    head_key = norm_key(headline)
    both = norm_key(label) + head_key
    keys = [norm_key(d) for d in declared if d]
    if not head_key or any(both in k for k in keys) or not any(head_key in k for k in keys):
        return None
    return headline


__all__ = ["headline_without_label", "labelled_parts", "shown_text"]
