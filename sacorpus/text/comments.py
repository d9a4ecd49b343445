"""Reader comments as text: a comment's HTML cleaned like an article's, and on-page comment sections.

Why the article's own steps: a comment's words are counted, searched and identified next to the
articles', so they must be spelled the same way (NFC, no soft hyphens, glued sentences repaired,
hidden markup dropped, one paragraph a line). :func:`comment_text` runs the page core's pre-clean
steps on the comment's markup and the extractor's line cleaning on its text; language and tokens
then come from :mod:`sacorpus.text.analysis`, as for articles.

On-page sections are read with the selectors of the publication's ``[comments]`` table
(:class:`~sacorpus.publication_comments.CommentRules`); a reply's parent is the attribute the table
names, else the comment element that encloses it (nested lists).
"""

from __future__ import annotations

import hashlib
from typing import Any

import lxml.html
from lxml import etree

from sacorpus.publication_comments import CommentRules
from sacorpus.sources.dates import parse_date, to_utc_iso
from sacorpus.sources.disqus import comment_url
from sacorpus.text.extract import clean_lines
from sacorpus.text.preclean import parse_html, remove_hidden, space_blocks

#: markup longer than this is cut before cleaning (a comment is short; a huge one is spam or a bug)
MAX_COMMENT_HTML = 200_000


def _fragment(markup: str) -> etree._Element | None:
    return parse_html(f"<html><body>{markup[:MAX_COMMENT_HTML]}</body></html>")


def _element_text(element: etree._Element) -> str:
    remove_hidden(element)
    space_blocks(element)
    for br in element.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return clean_lines(element.text_content())


def comment_text(message: str | None, raw_message: str | None = None) -> str:
    """The comment's text, one paragraph a line: from its HTML (``message``) when it has one, else from
    the text its author typed (``raw_message``), cleaned the same way."""
    if message and message.strip():
        root = _fragment(message)
        if root is not None:
            text = _element_text(root)
            if text:
                return text
    return clean_lines(raw_message or "")


def _first(element: etree._Element, selector: str | None) -> etree._Element | None:
    if not selector:
        return None
    found = element.cssselect(selector)
    return found[0] if found else None


def _text_of(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    return " ".join(element.text_content().split()) or None


def _date_of(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    return element.get("datetime") or element.get("content") or _text_of(element)


def _own_body(element: etree._Element, rules: CommentRules, items: set[etree._Element]) -> Any:
    """The body element of this comment, not of a reply nested inside it."""
    for body in element.cssselect(rules.body or ""):
        owner = next((a for a in body.iterancestors() if a in items), None)
        if owner is element:
            return body
    return None


def _comment_id(element: etree._Element, rules: CommentRules, text: str, author: str | None) -> str:
    given = element.get(rules.id_attribute)
    if given:
        return str(given).strip()
    # no id in the markup: the content names it (the same comment gets the same key on every poll)
    return "h" + hashlib.sha1(f"{author}\n{text}".encode()).hexdigest()[:16]


def page_comments(html: str, rules: CommentRules, article_url: str) -> list[dict[str, Any]]:
    """The comments of an on-page section as comment records (``key`` ... ``message``), page order.

    A comment without text (a removed one shows only "deleted") is kept, flagged ``is_deleted``, so
    that a comment deleted since the last poll updates the stored one.
    """
    if not rules.item or not html:
        return []
    root = parse_html(html)
    if root is None:
        return []
    elements = root.cssselect(rules.item)
    items = set(elements)
    ids: dict[etree._Element, str] = {}
    records = []
    for element in elements:
        body = _own_body(element, rules, items)
        markup = lxml.html.tostring(body, encoding="unicode") if body is not None else ""
        text = comment_text(markup)
        author = _text_of(_first(element, rules.author))
        cid = ids[element] = _comment_id(element, rules, text, author)
        enclosing = next((a for a in element.iterancestors() if a in items), None)
        parent = element.get(rules.parent_attribute) if rules.parent_attribute else None
        if not parent and enclosing is not None:
            parent = ids.get(enclosing)
        depth = sum(1 for a in element.iterancestors() if a in items)
        raw_date = _date_of(_first(element, rules.date))
        records.append(
            {
                "url": comment_url(article_url, cid),
                "article_url": article_url,
                "source": "page",
                "comment_id": cid,
                "thread": article_url,
                "parent": parent or None,
                "depth": depth,
                "author_name": author,
                "published_at": to_utc_iso(parse_date(raw_date)) if raw_date else None,
                "published_raw": raw_date,
                "message": markup or None,
                "raw_message": text or None,
                "is_deleted": not text,
            }
        )
    return records


__all__ = ["comment_text", "page_comments"]
