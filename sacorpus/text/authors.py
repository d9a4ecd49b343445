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
from collections.abc import Iterable

from sacorpus.text.titles import clean_spaces

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
    r"^\s*(?:written\s+by|words\s+by|text\s+by|reported\s+by|story\s+by|posted\s+by|published\s+by|by|from|"
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
    from sacorpus.text.titles import is_site_segment

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
    return name.strip(" \t\n,;:|-–—·•()[]\"'")


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


__all__ = ["AGENCIES", "is_agency", "split_authors"]
