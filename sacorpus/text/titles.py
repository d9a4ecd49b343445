"""Titles: the headline without the site's branding.

``<title>`` and ``og:title`` usually carry the outlet (" | IOL", "News24 - ", " – CBC News"). A
separator segment is removed only when it is evidently the site: it matches ``og:site_name``, the
publication name, the JSON-LD publisher or the host name (compared without case, spaces and
punctuation), or the page's own ``<h1>`` shows the headline without it. A title that merely contains
a separator ("BUDGET 3.0 | Sars gets R4bn") keeps it, because no site name matches.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from sacorpus.text.unicode_text import visible_text

_SEP = r"\s+(?:\||[-–—]|::|·|•|»|«|/|\\|~|\*)\s+"
_SEPARATORS = re.compile(_SEP)
_TRAILING_SEP = re.compile(_SEP + r"$")
# a separator left at the end when the CMS printed an empty site name ("Headline -", "Headline | ")
_DANGLING_SEP = re.compile(r"\s+(?:\||[-–—]|::|·|•|/|\\|~)$")
_BYLINE_SEGMENT = re.compile(r"^(?:by|von|par|por|door|deur)\s+\S", re.I)
_NON_ALNUM = re.compile(r"[\W_]+")
_GENERIC_HOST_PARTS = {
    "www",
    "m",
    "amp",
    "mobile",
    "com",
    "co",
    "za",
    "org",
    "net",
    "news",
    "uk",
    "au",
    "de",
    "www2",
}


def norm_key(text: str) -> str:
    return _NON_ALNUM.sub("", text.casefold())


def clean_spaces(text: str | None) -> str | None:
    """Collapse whitespace, undo leftover (double-escaped) HTML entities, one spelling (NFC, no soft
    hyphens: :func:`visible_text`)."""
    if text is None:
        return None
    if "&" in text and re.search(r"&(#\d+|#x[0-9a-f]+|[a-z]{2,8});", text, re.I):
        text = html.unescape(text)
    text = " ".join(visible_text(text).split())
    return text or None


def host_keys(host: str | None) -> set[str]:
    """'www.news24.com' -> {'news24com', 'news24'}; used to recognise the site in a title segment."""
    if not host:
        return set()
    host = host.lower().split(":")[0]
    parts = [p for p in host.split(".") if p and p not in _GENERIC_HOST_PARTS]
    keys = {norm_key(host.removeprefix("www."))}
    keys.update(norm_key(p) for p in parts if len(p) >= 2)
    return {k for k in keys if k}


def is_site_segment(segment: str, site_keys: set[str]) -> bool:
    """True when a title segment is the site's name ("IOL", "CBC News", "TimesLIVE")."""
    key = norm_key(segment)
    if not key:
        return True
    for site in site_keys:
        if not site:
            continue
        if key == site:
            return True
        if len(site) >= 3 and (key.startswith(site) or key.endswith(site)) and len(key) <= len(site) + 8:
            return True  # "CBC News" vs host "cbc", "The Citizen" vs "citizen"
        if len(key) >= 4 and (site.startswith(key) or site.endswith(key)) and len(key) >= 0.6 * len(site):
            return True  # "Guardian" vs "theguardian"
    return False


def split_segments(title: str) -> list[str]:
    """The separator segments of a title ("Headline | Section | Site" -> three); [] without a separator."""
    parts = [p.strip() for p in _SEPARATORS.split(title)]
    return [p for p in parts if p] if len(parts) > 1 else []


def strip_site(
    title: str, site_names: Iterable[str] = (), host: str | None = None, headline: str | None = None
) -> str:
    """Remove site-name prefixes/suffixes from ``title``; returns the cleaned title."""
    title = _DANGLING_SEP.sub("", clean_spaces(title) or "")
    if not title:
        return title
    h = clean_spaces(headline) or ""
    if len(h) >= 10 and h != title:
        if title.startswith(h) and _SEPARATORS.match(title[len(h) :]):
            return h
        if title.endswith(h) and _TRAILING_SEP.search(title[: len(title) - len(h)]):
            return h
    keys = {norm_key(n) for n in site_names if n and norm_key(n)} | host_keys(host)
    keys.discard("")
    parts = _SEPARATORS.split(title)
    if len(parts) < 2:
        return title
    seps = _SEPARATORS.findall(title)
    while len(parts) > 1 and (is_site_segment(parts[-1], keys) or _BYLINE_SEGMENT.match(parts[-1])):
        parts.pop()
        seps.pop()
    while len(parts) > 1 and is_site_segment(parts[0], keys):
        parts.pop(0)
        seps.pop(0)
    out = parts[0]
    for sep, part in zip(seps, parts[1:], strict=False):
        out += sep + part
    return out.strip() or title


_GENERIC_TITLES = frozenset(
    [
        "article",
        "articles",
        "home",
        "homepage",
        "index",
        "news",
        "nuus",
        "iindaba",
        "izindaba",
        "untitled",
        "page",
        "story",
        "blog",
        "post",
        "latest",
        "breaking",
        "welcome",
    ]
)


def is_generic_title(
    title: str | None, site_keys: set[str], labels: Iterable[str] = (), confirmed: Iterable[str] = ()
) -> bool:
    """A "title" that is no headline: empty, one word ("Article", "Sport"), the site's own name, or a label.

    ``labels`` are names the page gives its own sections ("Western Cape", "Politics News"): a page
    whose only "headline" is its section is mislabelled, not titled. ``confirmed`` are headlines the page
    both shows and declares (its visible ``<h1>`` and a declared title: JSON-LD, og:title,
    twitter:title or ``<title>``): a one-word headline
    stated that way ("BestCrypt", "Impressum") is the page's name for itself, unless it is a generic
    word, a label or the site's name.
    """
    key = norm_key(title or "")
    if not key or key in {norm_key(label) for label in labels}:
        return True
    words = (title or "").split()
    if key in _GENERIC_TITLES or (len(words) <= 1 and key not in {norm_key(c) for c in confirmed}):
        return True
    return is_site_segment(title or "", site_keys)


def headline_outside_branding(
    h1: str | None, title: str | None, site_names: Iterable[str] = (), host: str | None = None
) -> str | None:
    """The <title> headline when the page's <h1> is only its branding, else None.

    Blogs and small sites often mark up the logo/site name as the <h1> ("Ethify") and put the
    article's headline only in ``<title>`` ("Vegetarier zu sein ... | Ethify"). The <h1> is branding
    when it repeats the trailing segment(s) of the title, or its leading segment(s) when those are
    evidently the site (host/site-name match); the rest of the title is then the headline. A
    one-word remainder is taken for a section label, not a headline.
    """
    h1, title = clean_spaces(h1), clean_spaces(title)
    if not h1 or not title:
        return None
    parts = _SEPARATORS.split(title)
    if len(parts) < 2:
        return None
    seps = _SEPARATORS.findall(title)
    key = norm_key(h1)
    keys = {norm_key(n) for n in site_names if n and norm_key(n)} | host_keys(host)
    for n in range(1, len(parts)):
        tail, head = parts[n:], parts[:n]
        if norm_key("".join(tail)) == key and not is_site_segment(head[0], keys):
            rest = head[0] + "".join(s + p for s, p in zip(seps[: n - 1], head[1:], strict=False))
            # a one-word remainder ("News - Headline" with the headline as <h1>) is a section label
            return rest.strip() if len(rest.split()) >= 2 else None
        lead, rest_parts = parts[:n], parts[n:]
        if norm_key("".join(lead)) == key and is_site_segment(h1, keys):
            rest = rest_parts[0] + "".join(s + p for s, p in zip(seps[n:], rest_parts[1:], strict=False))
            return strip_site(rest, site_names, host) or None
    return None


__all__ = [
    "clean_spaces",
    "headline_outside_branding",
    "host_keys",
    "is_site_segment",
    "norm_key",
    "split_segments",
    "strip_site",
]
