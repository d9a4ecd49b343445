"""Authors: from noisy byline strings to a list of names.

Bylines arrive as "By Jane Doe and John Roe", "JANE DOE | Reporter", "Von Max Muster, dpa",
"jane@site.co.za", a Facebook profile URL, or a JSON-LD list. :func:`split_authors` removes the
"By"-style lead-ins (several languages), roles, e-mail addresses, dates and URLs, and splits
several authors on "and", "&", ",", ";" and "|". Agency-only bylines ("Reuters", "AFP") and outlet
names ("Staff Reporter", "News24") are kept as given: they are what the page states and a corpus
user filters them with :func:`is_agency` rather than losing them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from lxml import etree

from sacorpus.publications import RuleSet
from sacorpus.text.metareaders import Metas, ld_names, node_text, selected_values
from sacorpus.text.titles import clean_spaces, is_site_segment

AGENCIES = frozenset(
    [
        "reuters",
        "afp",
        "ap",
        "associated",
        "press",
        "the",
        "associated",
        "press",
        "sapa",
        "anadolu",
        "ana",
        "african",
        "news",
        "agency",
        "dpa",
        "epa",
        "bloomberg",
        "xinhua",
        "efe",
        "ansa",
        "apa",
        "kyodo",
        "upi",
        "pa",
        "pa",
        "media",
        "aap",
        "gcis",
        "bbc",
        "cnn",
    ]
) | {"associated press", "the associated press", "african news agency", "pa media", "agence france-presse"}
_LEADIN = re.compile(
    r"^\s*(?:(?:view|show|see)\s+all\s+(?:posts|articles|stories)\s+(?:by|of|from)|"
    r"(?:zeige\s+)?alle\s+(?:beiträge|artikel)\s+von|(?:voir\s+)?tous\s+les\s+articles\s+de|"
    r"veröffentlicht\s+von|geschrieben\s+von|verfasst\s+von|vom|"
    r"written\s+by|words\s+by|text\s+by|reported\s+by|story\s+by|posted\s+by|published\s+by|by|from|"
    r"von|par|por|door|di|af|av|ka|ngu|nguyi?|deur|autor(?:in)?|author|text|von\s+und\s+mit)\s*[:\-–]?\s+",
    re.I,
)
_ROLE = re.compile(
    r"\s*(?:[|,–—-]\s*|\s)\(?(?:senior\s+|chief\s+|staff\s+|political\s+|deputy\s+|assistant\s+)*"
    r"(?:reporter|journalist|correspondent|writer|editor|contributor|columnist|photographer|"
    r"news\s+editor|freelance\s+writer)\)?\s*$",
    re.I,
)
_SPLIT = re.compile(r"\s*(?:;|\||\s&\s|\s+and\s+|\s+und\s+|\s+et\s+|\s+y\s+|\s+en\s+|\s+e\s+|,)\s*", re.I)
_SLASH = re.compile(r"(?<=[^\W\d_])\s*/\s*(?=[^\W\d_])")  # "Thabo Mokone/Jane Doe"; URLs are dropped before
_DOMAIN = re.compile(r"^[\w-]+(?:\.[a-z]{2,6}){1,2}$", re.I)
_EMAIL = re.compile(r"\S+@\S+\.\w+")
_URL = re.compile(r"^(?:https?://|www\.)\S+$|^\S+\.(?:com|org|net|co\.za)/\S*$", re.I)
_DATEISH = re.compile(
    r"\b(?:\d{1,2}[:h]\d{2}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+\w+\s+\d{4}|updated|published)\b.*$", re.I
)
_NOT_NAMES = re.compile(
    r"^(?:staff|admin|administrator|editor|editors|redaktion|newsroom|news desk|web desk|"
    r"guest|anonymous|unknown|null|none|undefined|author|contributor|more|share|follow|red|by|von|par|por|door)$",
    re.I,
)


# words of a company's name: such a byline is the outlet's owner or publisher, never a writer (wire
# agencies and desks - "The Associated Press", "MND Staff", "BR24 Redaktion" - do sign reports and stay)
_ORGANISATION_WORDS = frozenset(
    [
        "newspapers",
        "newspaper",
        "online",
        "holdings",
        "ltd",
        "limited",
        "inc",
        "pty",
        "corporation",
        "company",
        "publishing",
        "publications",
        "publishers",
        "uitgewers",
    ]
)


def is_organisation(name: str, site_keys: Iterable[str] = ()) -> bool:
    """True for a byline naming an organisation rather than a person.

    Evidence that holds on any site: a copyright sign ("(c) The Daily Telegraph"), a company word
    ("Independent Newspapers Online", "Arena Holdings"), or the publication itself (its name or host).
    Names are kept otherwise, in any language; so are agencies and desks that sign reports.
    """
    text = " ".join(name.split())
    if not text:
        return True
    if "©" in text or re.match(r"^\(?c\)\s|^copyright\b", text, re.I):
        return True
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", text)]
    if _ORGANISATION_WORDS.intersection(words):
        return True
    keys = {k for k in site_keys if k}
    return bool(keys) and is_site_segment(text, keys)


_CREDIT = re.compile(r"^(?:image|images|photo|photos|picture|foto|bild|credit|source|quelle)\s*:", re.I)


def _clean_one(name: str, strip: Iterable[re.Pattern[str]]) -> str:
    name = clean_spaces(name) or ""
    if _CREDIT.match(name):
        return ""
    name = re.sub(r"\s*\([^)]*\)?\s*$", "", name) if "(" in name else name
    name = _EMAIL.sub("", name)
    for rx in strip:
        name = rx.sub("", name)
    name = _LEADIN.sub("", name)
    name = _DATEISH.sub("", name) if len(name) > 40 else name
    name = _strip_role(name)
    return name.strip(" \t\n,;:|-–—·•()[]\"'→›»")


def _strip_role(name: str) -> str:
    """ "Jane Doe | Senior Reporter" -> "Jane Doe"; a byline that is only a role ("Staff Reporter") stays."""
    stripped = _ROLE.sub("", name).strip(" ,|-–—")
    return stripped if stripped and not _NOT_NAMES.match(stripped) else name


def split_authors(value: str | Iterable[str] | None, strip: Iterable[str] = ()) -> list[str]:
    """Normalise one byline string (or several) into distinct author names, in order."""
    if value is None:
        return []
    raw = [value] if isinstance(value, str) else list(value)
    patterns = []
    for p in strip:
        try:
            patterns.append(re.compile(p, re.I))
        except re.error:
            continue
    out: list[str] = []
    seen: set[str] = set()
    for item in raw:
        if not isinstance(item, str):
            continue
        item = clean_spaces(item) or ""
        if not item or _URL.match(item.strip()) or _CREDIT.match(item.lstrip("([ ")):
            continue  # a URL, or a photo credit ("(Image: Getty Images/iStockphoto)")
        for rx in patterns:  # the publication's patterns see the whole byline ("Jane Doe | News24")
            item = rx.sub("", item).strip()
        item = _strip_role(_LEADIN.sub("", item))
        for piece in (p for part in _SPLIT.split(item) for p in _SLASH.split(part)):
            name = _clean_one(piece, patterns)
            if not name or _URL.match(name) or _NOT_NAMES.match(name):
                continue
            if len(name) > 80 or len(name.split()) > 7 or not re.search(r"[^\W\d_]", name):
                continue
            key = name.casefold()
            if key not in seen:
                seen.add(key)
                out.append(name)
    # a bare domain beside real names ("Jane Doe", "lrt.lt") is the outlet's label, not an author
    if len(out) > 1:
        named = [n for n in out if not _DOMAIN.match(n)]
        if named:
            out = named
    return out


def is_agency(name: str) -> bool:
    """True for news agencies ("Reuters", "AFP", "Sapa"), which bylines give instead of a person."""
    return name.casefold().strip() in AGENCIES


# --- authors of a page ------------------------------------------------------------------------------

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


def _twitter_written_by(metas: Metas) -> list[str]:
    """Yoast and other CMSs describe the author as a card label: twitter:label1="Written by", twitter:data1=name."""
    for n in range(1, 5):
        label = (metas.get(f"twitter:label{n}") or [""])[0].strip().casefold()
        if label in _WRITTEN_BY:
            return (metas.get(f"twitter:data{n}") or [])[:1]
    return []


def _bold_byline(root: Any) -> list[str]:
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


def _byline_markup(root: Any) -> Iterator[list[str]]:
    """Names in byline markup: rel/itemprop=author, byline classes, links to author pages (in that order)."""
    for xp in BYLINE_XPATH:
        try:
            els = root.xpath(xp)[:6]
        except etree.XPathError:
            continue
        if els and xp is BYLINE_XPATH[-1]:
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


def _author_sources(
    root: Any, metas: Metas, ld: dict[str, Any] | None, rules: RuleSet, fallback_authors: Any
) -> Iterator[Any]:
    """Candidate bylines, most specific first: rules, JSON-LD, meta tags, card labels, markup, body, feed."""
    if rules.author_selectors:
        yield selected_values(root, rules.author_selectors)
    if ld:
        yield ld_names(ld.get("author")) or ld_names(ld.get("creator"))
    for key in AUTHOR_META:
        if metas.get(key):
            yield metas[key]
    yield _twitter_written_by(metas)
    yield from _byline_markup(root)
    yield _bold_byline(root)
    if fallback_authors:
        yield fallback_authors


def extract_authors(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    rules: RuleSet,
    fallback_authors: Any,
    site_keys: set[str] | None = None,
) -> list[str]:
    """Authors from rules, JSON-LD, meta tags, byline markup, feed - in that order.

    A source that names only the outlet itself ("n-tv NACHRICHTEN" on n-tv.de) is kept as a last
    resort while later sources are searched for people.
    """
    keys = site_keys or set()
    outlet_only: list[str] = []
    for values in _author_sources(root, metas, ld, rules, fallback_authors):
        found = split_authors(values, rules.author_strip)
        people = [a for a in found if not is_organisation(a, keys) or is_site_segment(a, keys)]
        if not people:
            continue  # nothing, or only organisations ("Independent Newspapers Online", "(c) The Telegraph")
        if any(not is_site_segment(a, keys) for a in people):
            return people
        outlet_only = outlet_only or people
    return outlet_only


__all__ = ["AGENCIES", "extract_authors", "is_agency", "is_organisation", "split_authors"]
