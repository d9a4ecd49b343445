"""Authors: from noisy byline strings to a list of the people who wrote.

Bylines arrive as "By Jane Doe and John Roe", "JANE DOE | Reporter", "Von Max Muster, dpa",
"jane@site.co.za", a Facebook profile URL, or a JSON-LD list. :func:`split_authors` removes the
"By"-style lead-ins (several languages) and role labels ("Reporter: Jane Doe"), roles, e-mail
addresses (also "name[at]host"), Twitter/X handles, degrees ("PhD"), dates, URLs and author-page
furniture ("9 articles"), and splits several authors on "and", "&", ",", ";" and "|".

What is not a person is kept out, on evidence that holds on any site: the publisher's company (company
words, a legal form such as "GmbH" or "e.V."), a copyright line, the page's own section name, and the
outlet credited beside a person in one byline ("Jane Doe | News24", "Jane Doe for The Daily Lamp").
Wire agencies and desks that sign a report ("AFP", "Staff Reporter", "BR24 Redaktion") are part of
the byline as written but not people: :func:`people_and_agencies` moves them to the article's
``agencies`` field, so ``authors`` holds people only and nothing the byline states is lost. A desk
credit stays whole ("Cape Argus Reporter"): cutting its role would leave a newspaper's name where a
person's belongs. An outlet that is the whole byline is kept (as an agency) only when no source names
a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from sacorpus.publications import RuleSet
from sacorpus.text.bylines import (
    AUTHOR_META,
    bold_byline,
    byline_markup,
    labelled_byline,
    lead_in_byline,
    twitter_written_by,
)
from sacorpus.text.metareaders import LdObject, Metas, ld_names, ld_organisations, ld_resolve, selected_values
from sacorpus.text.titles import clean_spaces, is_site_segment, norm_key


def _listed(names: str) -> frozenset[str]:
    """A word list written as one "a|b|c" string (kept short in the source)."""
    return frozenset(names.split("|"))


#: wire services and news agencies that sign reports, by their usual names (small on purpose: desks and
#: outlets are told by their shape, see :func:`is_agency`)
AGENCIES = _listed(
    "reuters|afp|agence france-presse|ap|associated press|the associated press|sapa|"
    "south african press association|ana|african news agency|anadolu|anadolu agency|dpa|epa|"
    "bloomberg|xinhua|efe|ansa|apa|kyodo|upi|pa|pa media|aap|gcis|bbc|cnn|tass|pti|ians|sda|kna"
)
#: last words of a desk's or a company's credit: "Staff Reporter", "News24 Wire", "BR24 Redaktion",
#: "Independent Newspapers Online", "Arena Media", "Foreign Desk", "Our Correspondent", "Support Team",
#: "Deutsche Presse-Agentur", "Salzburger Nachrichten"
DESK_WORDS = _listed(
    "team|newsdesk|report|reports|agentur|news|nachrichten|zeitung|press|reporter|reporters|"
    "correspondent|correspondents|desk|staff|wire|agency|agencies|agenturen|newsroom|redaktion|"
    "redaction|rédaction|redacción|redazione|bureau|online|media|newspapers|ltd|service|"
    "services"
)
_LEADIN = re.compile(
    r"^\s*(?:(?:view|show|see)\s+all\s+(?:posts|articles|stories)\s+(?:by|of|from)|"
    r"(?:zeige\s+)?alle\s+(?:beiträge|artikel)\s+von|(?:voir\s+)?tous\s+les\s+articles\s+de|"
    r"veröffentlicht\s+von|geschrieben\s+von|verfasst\s+von|vom|"
    r"(?:alles|mehr|more|all)\s+(?:von|from|by)|(?:und\s+)?interview|"
    r"written\s+by|words\s+by|text\s+by|reported\s+by|story\s+by|posted\s+by|published\s+by|by|from|"
    r"von|par|por|door|di|af|av|ka|ngu|nguyi?|deur|autor(?:in)?|author|text|von\s+und\s+mit)\s*[:\-–]?\s+",
    re.I,
)
# a byline's label before a colon: "Reporter: Jane Doe", "Words: Jane Doe" (the role, not a name)
_LABEL = re.compile(
    r"^\s*(?:(?:senior\s+|staff\s+)?(?:reporter|writer|journalist|correspondent)|words|report|compiled\s+by)\s*:\s*",
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
_EMAIL = re.compile(r"\S+(?:@|\[at\]|\(at\))\S+\.\w+")
_FOR = re.compile(r"\s+(?:for|für|pour|para|vir)\s+", re.I)  # "Jane Doe for The Daily Lamp"
_HANDLE = re.compile(r"(?:^|\s)@\w{2,}")  # "Jane Doe @janedoe": the Twitter/X handle beside the name
_URL = re.compile(r"^(?:https?://|www\.)\S+$|^\S+\.(?:com|org|net|co\.za)/\S*$", re.I)
_DATEISH = re.compile(
    r"\b(?:\d{1,2}[:h]\d{2}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+\w+\s+\d{4}|updated|published)\b.*$", re.I
)
_NOT_NAMES = re.compile(
    r"^(?:staff|admin|administrator|editor|editors|redaktion|newsroom|news desk|web desk|"
    r"guest|anonymous|unknown|null|none|undefined|author|authors|autoren|autor|no author|contributor|more|"
    r"share|follow|red|by|von|par|por|door|"
    r"ph\.?\s?d\.?|m\.?d\.?|dr\.?|prof\.?|mba|msc|bsc|"  # a degree split off "Jane Doe, PhD"
    r"\d+\s+(?:articles?|artikel|beiträge|posts|stories)|"  # an author page's article count
    r"weitere informationen|more information|afficher mon profil complet|view (?:my )?(?:complete )?profile)$",
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
        "gmbh",
        "stiftung",
        "verband",
        "foundation",
        "magazin",
        "magazine",
    ]
)
# a registered association's or company's legal form written after its name
_LEGAL_FORM = re.compile(r"\b(?:e\.\s?V\.|GmbH|AG|SE|S\.A\.|B\.V\.|N\.V\.|LLC|PLC|Pty)(?:\W|$)")


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
    if _ORGANISATION_WORDS.intersection(words) or _LEGAL_FORM.search(text):
        return True
    keys = {k for k in site_keys if k}
    return bool(keys) and is_site_segment(text, keys)


# a credit that names its website: "Deutsche Welle (www.dw.com)" is the outlet, never a person
_SITE_CREDIT = re.compile(r"\(\s*(?:https?://)?(?:www\.)?[\w-]+(?:\.[\w-]+)*\.[a-z]{2,6}/?\s*\)\s*$", re.I)
_CREDIT = re.compile(r"^(?:image|images|photo|photos|picture|foto|bild|credit|source|quelle)\s*:", re.I)


def _clean_one(name: str, strip: Iterable[re.Pattern[str]]) -> str:
    name = clean_spaces(name) or ""
    if _CREDIT.match(name):
        return ""
    name = re.sub(r"\s*\([^)]*\)?\s*$", "", name) if "(" in name else name
    name = _HANDLE.sub("", _EMAIL.sub("", name))
    for rx in strip:
        name = rx.sub("", name)
    name = _LEADIN.sub("", _LABEL.sub("", name))
    name = _DATEISH.sub("", name) if len(name) > 40 else name
    name = _strip_role(name).strip(" \t\n,;:|-–—·•()[]\"'→›»")
    return _once(name)


def _once(name: str) -> str:
    """ "Jane Doe Jane Doe" -> "Jane Doe": markup that prints a name twice (a desktop and a mobile copy)."""
    words = name.split()
    half = len(words) // 2
    return (
        " ".join(words[:half]) if half >= 2 and len(words) % 2 == 0 and words[:half] == words[half:] else name
    )


def _strip_role(name: str) -> str:
    """ "Jane Doe | Senior Reporter" -> "Jane Doe"; a byline that is only a role ("Staff Reporter") stays,
    and so does a desk credit ("Cape Argus Reporter", "Guardian staff reporter"): one capitalised role
    word (or a staff role) after a bare space names the desk that signs, and cutting it would leave a newspaper's name where a person's
    should be. A qualified title after a name ("Tania Mkhize Senior reporter") is a person's."""
    match = _ROLE.search(name)
    role = match.group(0).strip(" ()") if match else ""
    desk = (" " not in role and role[:1].isupper()) or role.casefold().startswith("staff ")
    if match is None or not match.group(0)[:1].isspace() or not desk:
        stripped = _ROLE.sub("", name).strip(" ,|-–—")
        return stripped if stripped and not _NOT_NAMES.match(stripped) else name
    return name


def _compiled(strip: Iterable[str]) -> list[re.Pattern[str]]:
    patterns = []
    for p in strip:
        try:
            patterns.append(re.compile(p, re.I))
        except re.error:
            continue
    return patterns


def _byline_names(item: str, patterns: list[re.Pattern[str]], site_keys: set[str]) -> list[str]:
    """The names in one byline string; the outlet credited beside a person is dropped.

    "Jane Doe | News24", "Jane Doe, IOL", "Jane Doe for The Daily Lamp": the outlet the person writes
    for is where the story appeared, not a second author. It is recognised as the site (its name or
    host) or an organisation (company words, a legal form); wire agencies ("Jane Doe, AP") stay, as
    every dataset's truth keeps them, and so does an outlet that is the whole byline.
    """
    names = []
    for piece in (p for part in _SPLIT.split(item) for p in _SLASH.split(part)):
        name = _clean_one(piece, patterns)
        if not name or _URL.match(name) or _NOT_NAMES.match(name):
            continue
        if len(name) > 80 or len(name.split()) > 7 or not re.search(r"[^\W\d_]", name):
            continue
        person, *outlet = _FOR.split(name, maxsplit=1)
        if outlet and person and is_organisation(outlet[0], site_keys):
            name = person
        names.append(name)
    people = [n for n in names if not is_organisation(n, site_keys)]
    return people if people else names


def split_authors(
    value: str | Iterable[str] | None, strip: Iterable[str] = (), site_keys: Iterable[str] = ()
) -> list[str]:
    """Normalise one byline string (or several) into distinct author names, in order.

    ``site_keys`` (normalised site names and host parts) recognise the outlet in "Name | Outlet".
    """
    if value is None:
        return []
    raw = [value] if isinstance(value, str) else list(value)
    patterns = _compiled(strip)
    keys = set(site_keys)
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
        for name in _byline_names(_strip_role(_LEADIN.sub("", _LABEL.sub("", item))), patterns, keys):
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


#: first words of a desk's credit: "Staff Writer", "Redaktion Polizeiticker", "Newsroom Cape Town"
DESK_FIRST_WORDS = frozenset(("staff", "redaktion", "newsroom", "newsdesk", "presse", "pressestelle"))


def is_agency(name: str) -> bool:
    """True for a credit that is not a person: a news agency ("Reuters", "AFP", "Sapa"), a desk
    ("Staff Reporter", "News24 Wire", "BR24 Redaktion"), an outlet's short code ("IOL", "NTV"), a company
    or a copyright line.

    Evidence that holds in any language: the agency's name (:data:`AGENCIES`), a desk or company word
    as the credit's last word (:data:`DESK_WORDS`) or a desk word as its first (:data:`DESK_FIRST_WORDS`),
    a single word of three to six capitals (an acronym; two are a person's initials), a domain name ("ORF.at"), and
    :func:`is_organisation`. A person's name, in any script, is none of these.
    """
    text = " ".join(name.split())
    words = re.findall(r"[^\W_]+", text.casefold())
    if not words or text.casefold() in AGENCIES or all(w in AGENCIES for w in words):
        return True
    if words[-1] in DESK_WORDS or words[0] in DESK_FIRST_WORDS or _DOMAIN.match(text):
        return True
    if len(words) == 1 and text.isupper() and 3 <= len(text) <= 6:  # two capitals are initials
        return True
    if _SITE_CREDIT.search(text):
        return True
    return is_organisation(text)


def people_and_agencies(
    names: Iterable[str], organisations: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """``names`` split into the people who wrote and the agencies, desks and outlets credited with them
    ("Thandi Mokoena, AP" -> (["Thandi Mokoena"], ["AP"])): author lists hold people only.

    ``organisations`` are names the page's structured data types as an organisation (a JSON-LD author
    ``{"@type": "Organization", "name": "National Geographic"}``): the page says they are no person.
    """
    typed = {norm_key(o) for o in organisations if norm_key(o)}
    people: list[str] = []
    agencies: list[str] = []
    for name in names:
        (agencies if is_agency(name) or norm_key(name) in typed else people).append(name)
    return people, agencies


def _author_sources(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    rules: RuleSet,
    fallback_authors: Any,
    ld_objects: list[LdObject] | None = None,
) -> Iterator[Any]:
    """Candidate bylines, most specific first: rules, JSON-LD, meta tags, card labels, markup, body, feed."""
    if rules.author_selectors:
        yield selected_values(root, rules.author_selectors)
    if ld:
        objects = ld_objects or []
        yield ld_names(ld_resolve(ld.get("author"), objects)) or ld_names(
            ld_resolve(ld.get("creator"), objects)
        )
    for key in AUTHOR_META:
        if metas.get(key):
            yield metas[key]
    yield twitter_written_by(metas)
    yield from byline_markup(root)
    yield labelled_byline(root)
    yield lead_in_byline(root)
    yield bold_byline(root)
    if fallback_authors:
        yield fallback_authors


def organisations_credited(ld: dict[str, Any] | None, ld_objects: list[LdObject] | None = None) -> list[str]:
    """The JSON-LD author and creator names the page types as organisations, not persons."""
    if not ld:
        return []
    objects = ld_objects or []
    return [n for key in ("author", "creator") for n in ld_organisations(ld_resolve(ld.get(key), objects))]


def extract_authors(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    rules: RuleSet,
    fallback_authors: Any,
    site_keys: set[str] | None = None,
    section: str | None = None,
    ld_objects: list[LdObject] | None = None,
) -> list[str]:
    """Authors from rules, JSON-LD, meta tags, byline markup, feed - in that order.

    A source that names only the outlet itself ("n-tv NACHRICHTEN" on n-tv.de), or a credit that names
    its website ("Deutsche Welle (www.dw.com)"), is kept as a last resort, as written, while later
    sources are searched for people (:func:`is_agency` then files it with the agencies).
    """
    keys = site_keys or set()
    label = norm_key(section or "")
    outlet_only: list[str] = []
    site_credits: list[str] = []
    for values in _author_sources(root, metas, ld, rules, fallback_authors, ld_objects):
        values = list(values) if isinstance(values, list | tuple) else [values]
        credits = [v for v in values if isinstance(v, str) and _SITE_CREDIT.search(v)]
        site_credits = site_credits or [c for c in (clean_spaces(c) for c in credits) if c]
        values = [v for v in values if v not in credits]
        # the page's own section ("Politics", "Western Cape") in a byline slot is a label, not a writer
        found = [
            a for a in split_authors(values, rules.author_strip, keys) if norm_key(a) != label or not label
        ]
        people = [a for a in found if not is_organisation(a, keys) or is_site_segment(a, keys)]
        if not people:
            continue  # nothing, or only organisations ("Independent Newspapers Online", "(c) The Telegraph")
        if any(not is_site_segment(a, keys) for a in people):
            return people
        outlet_only = outlet_only or people
    return outlet_only or site_credits


__all__ = [
    "AGENCIES",
    "DESK_FIRST_WORDS",
    "DESK_WORDS",
    "extract_authors",
    "is_agency",
    "is_organisation",
    "organisations_credited",
    "people_and_agencies",
    "split_authors",
]
