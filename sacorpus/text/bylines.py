"""Where a page names its authors: meta tags, card labels, byline markup, a labelled field, a bold name line.

Readers only: each returns the raw byline strings one source offers; :mod:`sacorpus.text.authors`
turns them into names and decides between sources. Names inside reader comments or the site's page
footer are commenters or the theme's author, never the story's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lxml import etree

from sacorpus.text.metareaders import Metas, node_text

AUTHOR_META = (
    "author",
    "article:author",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
    "byl",
    "dcterms.creator",
    "og:article:author",
    "twitter:creator:name",
    "cxenseparse:author",
    "twitter:misc:written by",
)
BYLINE_XPATH = (
    "//*[@rel='author' or @itemprop='author']",
    # the hCard/hAtom microformat blogs have printed since 2006: <span class="vcard author"><span class="fn">
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' author ')"
    " and contains(concat(' ', normalize-space(@class), ' '), ' vcard ')]"
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' fn ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' author ')"
    " and contains(concat(' ', normalize-space(@class), ' '), ' fn ')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ') or contains(@class, 'author-name')"
    " or contains(@class, 'byline__name') or contains(@class, 'article-author') or contains(@class, 'authorname')"
    " or contains(@class, 'author__name') or contains(@class, 'AuthorList-item') or contains(@class, 'author-link')]",
    # a link to an author page is a byline on almost every CMS
    "//a[contains(@href, '/author/') or contains(@href, '/authors/') or contains(@href, '/autoren/')"
    " or contains(@href, '/autor/') or contains(@href, '/auteur/') or contains(@href, '/journalist/')]",
)
_WRITTEN_BY = frozenset(
    (
        "written by",
        "author",
        "verfasst von",
        "geschrieben von",
        "von",
        "escrito por",
        "écrit par",
        "auteur",
        "scritto da",
        "geschreven door",
        "skrevet av",
        "skriven av",
        "napisane przez",
    )
)
_NAME_LINE = re.compile(
    r"^(?:[^\W\d_][^\W\d_'’.-]*(?:[-'’][^\W\d_]+)*\.?)(?:[ /](?:[^\W\d_][^\W\d_'’.-]*\.?)){1,7}$"
)


def twitter_written_by(metas: Metas) -> list[str]:
    """Yoast and other CMSs describe the author as a card label: twitter:label1="Written by", twitter:data1=name."""
    for n in range(1, 5):
        label = (metas.get(f"twitter:label{n}") or [""])[0].strip().casefold()
        if label in _WRITTEN_BY:
            return (metas.get(f"twitter:data{n}") or [])[:1]
    return []


#: a field's label naming its value the author ("<strong>Autorin/Autor</strong> Jane Doe", "<dt>Author</dt>")
_AUTHOR_LABELS = frozenset(
    [
        "author",
        "authors",
        "autor",
        "autorin",
        "autoren",
        "autorinnen",
        "auteur",
        "auteurs",
        "autrice",
        "autore",
        "autori",
        "autores",
        "written by",
        "verfasser",
        "verfasserin",
        "forfatter",
        "författare",
        "skribent",
        "yazar",
        "auteur(s)",
    ]
)
_LABEL_TAGS = ("strong", "b", "dt", "th")
MAX_LABELS = 200  # label elements looked at (bounds the work on long pages)


def _is_author_label(text: str) -> bool:
    """ "Autorin/Autor:", "Author", "Written by": every part of the label names the author."""
    parts = [p.strip() for p in text.casefold().rstrip(" :").split("/")]
    return bool(parts) and all(p in _AUTHOR_LABELS for p in parts)


def labelled_byline(root: Any) -> list[str]:
    """The names a fact list labels as the author: ``<li><strong>Autorin/Autor</strong> Jane Doe</li>``,
    ``<dt>Author</dt><dd>Jane Doe</dd>``, ``<th>Author</th><td>Jane Doe</td>``.

    Sites that print the story's details as a list of labelled fields (date, author, topics) state the
    author there in their own words; the label, in the page's language, says what the value is.
    """
    for n, el in enumerate(root.iter(*_LABEL_TAGS)):
        if n >= MAX_LABELS:
            break
        if not _is_author_label(node_text(el)) or _in_comments(el):
            continue
        if el.tag in ("dt", "th"):
            value = el.getnext()
            text = node_text(value) if value is not None and value.tag in ("dd", "td") else ""
        else:  # the rest of the label's own list item or paragraph
            parent = el.getparent()
            label = node_text(el)
            whole = node_text(parent) if parent is not None else ""
            text = whole[len(label) :].strip(" :") if whole.startswith(label) else ""
        if text and len(text) < 120:
            return [text]
    return []


# the whole text before a name element when it is a byline's lead-in: "Von", "Ein Artikel von", "By:"
_LEAD_IN = re.compile(
    r"^(?:(?:ein\s+)?(?:artikel|beitrag|text)\s+von|von|by|written\s+by|par|por|door|deur|af|av|autor(?:in)?|author)"
    r"\s*:?$",
    re.I,
)
MAX_NAME_ELEMENTS = 2000  # name elements looked at for a lead-in (bounds the work on long pages)


def lead_in_byline(root: Any) -> list[str]:
    """The names printed right after a byline's lead-in that is all the text before them in their block:
    ``<div>Von <a href="/redaktion/jd">Jane Doe</a> am 3.2.</div>``, ``<p>Ein Artikel von
    <strong>Jane Doe</strong> | 27.01.2022</p>``, ``<li>Von: <span>Jane Doe,</span> <span>John Roe</span></li>``.

    The lead-in must be the block's whole text before the name, so prose that mentions someone ("a
    speech by <a>...</a>") is never read as a byline; co-authors are the sibling elements that follow,
    joined by commas or "and" alone.
    """
    for n, el in enumerate(root.iter("a", "strong", "b", "span")):
        if n >= MAX_NAME_ELEMENTS:
            break
        parent = el.getparent()
        if parent is None or parent.index(el) != 0 or not _LEAD_IN.match((parent.text or "").strip()):
            continue
        if _in_comments(el):
            continue
        names = [node_text(el)]
        for sibling in el.itersiblings():
            if not re.fullmatch(r"[\s,&]*(?:and|und|et|y|en)?[\s,&]*", (sibling.getprevious().tail or "")):
                break
            names.append(node_text(sibling))
        names = [name for name in names if name and len(name) < 80]
        if names:
            return names
    return []


def bold_byline(root: Any) -> list[str]:
    """A name set alone in bold as the first or last paragraph of the story ("<p><strong>Jane Doe</strong></p>").

    Small CMSs print the byline that way in the body; a paragraph is taken only when all of it is bold
    and it reads like names (2-8 words, each capitalised, no digits or sentence punctuation).
    """
    paragraphs = root.xpath("//p")
    if len(paragraphs) > 400:
        return []
    by_parent: dict[Any, list[Any]] = {}
    for p in paragraphs:
        by_parent.setdefault(p.getparent(), []).append(p)
    if not by_parent:
        return []
    body = max(by_parent.values(), key=len)
    filled = [p for p in body if node_text(p)]
    if len(filled) < 3:
        return []
    for p in (*filled[:3], *filled[-2:]):
        text = node_text(p)
        bold = " ".join(node_text(b) for b in p if b.tag in ("strong", "b")).strip()
        if (
            text
            and bold == text
            and len(text) <= 80
            and _NAME_LINE.match(text)
            and all(w[0].isupper() for w in re.split(r"[ /]", text) if w)
        ):
            return [text]
    return []


# a comment section's class/id ("comments", "comment-list", "respond"), not a flag ("comments-open")
_COMMENTS = re.compile(r"comment|^respond$")
_FLAG = re.compile(r"(?:open|closed|count|link|number)$")


def _in_comments(el: Any) -> bool:
    """True inside reader comments or the site's page footer: names there are commenters or the theme's.

    An article's own ``<footer>`` ("Posted by ...") is inside its ``<article>`` and counts.
    """
    for node in el.iterancestors():
        if node.tag in ("body", "html"):
            break  # page-wide state classes ("showing-comments") say nothing about where the element is
        marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower().split()
        if any(_COMMENTS.search(m) and not _FLAG.search(m) for m in marks):
            return True
        if node.tag == "footer" and not any(a.tag == "article" for a in node.iterancestors()):
            return True
    return False


def _compiled(xpath: str, *words: str) -> etree.XPath:
    """An expression compiled once per process, each class step first asking the cheap question whether
    the class attribute holds one of ``words`` at all (every class test of the expression implies one
    of them, so the matches are the same), before the costly ``normalize-space`` word tests: a third
    of the metadata time of a typical page went to those."""
    if words:
        cheap = " or ".join(f"contains(@class, '{w}')" for w in words)
        xpath = xpath.replace("//*[", f"//*[@class][{cheap}][")
    return etree.XPath(xpath)


_BYLINE_XPATH_COMPILED = (
    _compiled(BYLINE_XPATH[0]),
    _compiled(BYLINE_XPATH[1], "author", "fn"),
    _compiled(BYLINE_XPATH[2], "byline", "uthor"),
    _compiled(BYLINE_XPATH[3]),
)


def byline_markup(root: Any) -> Iterator[list[str]]:
    """Names in byline markup: rel/itemprop=author, byline classes, links to author pages (in that order)."""
    for i, xp in enumerate(_BYLINE_XPATH_COMPILED):
        try:
            els = xp(root)[:6]
        except etree.XPathError:
            continue
        if els and i == len(_BYLINE_XPATH_COMPILED) - 1:
            # author-page links also fill "more from" lists: only co-authors beside the first one
            box = els[0].getparent().getparent() if els[0].getparent() is not None else None
            els = [e for e in els if box is not None and box in e.iterancestors()]
        values = []
        for el in els:
            if el.tag in ("meta", "link") or _in_comments(el):
                continue
            text = el.get("content") or node_text(el)
            if text and len(text) < 120:
                values.append(text)
        yield values


__all__ = [
    "AUTHOR_META",
    "BYLINE_XPATH",
    "bold_byline",
    "byline_markup",
    "labelled_byline",
    "lead_in_byline",
    "twitter_written_by",
]
