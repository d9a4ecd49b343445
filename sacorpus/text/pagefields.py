"""The smaller metadata fields: site names, section, tags, description, canonical URL, page types.

Each reads the sources a generic page offers (Open Graph and ``article:*`` meta tags, the JSON-LD
article, ``<link rel=canonical>``); a publication's section selectors come first where it has them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from sacorpus.publications import RuleSet
from sacorpus.text.metareaders import (
    LdObject,
    Metas,
    first_meta,
    ld_names,
    ld_string,
    ld_types,
    selected_values,
)
from sacorpus.text.titles import clean_spaces

SITE_NAME_META = (
    "og:site_name",
    "application-name",
    "apple-mobile-web-app-title",
    "twitter:site",
    "publisher",
)
SITE_TYPES = ("organization", "newsmediaorganization", "website")


def site_names(
    metas: Metas, objects: list[LdObject], ld: LdObject | None, site_name: str | None = None
) -> list[str]:
    """Every name the page gives its outlet (the publication's own name first): used to strip titles/bylines."""
    names = [site_name] if site_name else []
    for key in SITE_NAME_META:
        names.extend(v.lstrip("@") for v in metas.get(key, [])[:2])
    for obj in objects:
        if any(t in SITE_TYPES for t in ld_types(obj)):
            names.extend(ld_names(obj.get("name")))
    if ld:
        names.extend(ld_names(ld.get("publisher")))
    return names


def extract_section(root: Any, metas: Metas, ld: LdObject | None, rules: RuleSet) -> str | None:
    section = selected_values(root, rules.section_selectors)[:1] if rules.section_selectors else []
    if not section:
        hit = first_meta(metas, ("article:section", "parsely-section", "section", "sailthru.section"))
        sec = ld.get("articleSection") if ld else None
        if hit:
            section = [hit[1]]
        elif isinstance(sec, str):
            section = [sec]
        elif isinstance(sec, list) and sec and isinstance(sec[0], str):
            section = [sec[0]]
    return clean_spaces(section[0]) if section and section[0] else None


def _keywords(metas: Metas, ld: LdObject | None) -> list[str]:
    tags: list[str] = list(metas.get("article:tag", []))
    if tags:
        return tags
    kw = ld.get("keywords") if ld else None
    kw = kw or None  # an empty keywords property states nothing
    listed = kw.split(",") if isinstance(kw, str) else kw if isinstance(kw, list) else []
    tags = [t for t in listed if isinstance(t, str)]
    if tags:
        return tags
    for key in ("news_keywords", "keywords", "parsely-tags"):
        if metas.get(key):
            return metas[key][0].split(",")
    return []


def extract_tags(metas: Metas, ld: LdObject | None) -> list[str]:
    """Distinct tags (case-insensitive), in the page's order; over-long "tags" are dropped."""
    seen: set[str] = set()
    tags: list[str] = []
    for raw in _keywords(metas, ld):
        t = clean_spaces(raw) if isinstance(raw, str) else None
        if t and t.casefold() not in seen and len(t) < 100:
            seen.add(t.casefold())
            tags.append(t)
    return tags


def extract_description(metas: Metas, ld: LdObject | None) -> str | None:
    desc = first_meta(metas, ("og:description", "description", "twitter:description", "dc.description"))
    return clean_spaces(desc[1]) if desc else clean_spaces(ld_string(ld, "description"))


def description_candidates(metas: Metas, ld: LdObject | None) -> list[str]:
    """Every summary the page declares (meta tags and JSON-LD), distinct, in that order."""
    keys = ("og:description", "description", "twitter:description", "dc.description")
    found = [clean_spaces(v) for k in keys for v in metas.get(k) or []] + [
        clean_spaces(ld_string(ld, "description"))
    ]
    return list(dict.fromkeys(d for d in found if d))


def extract_canonical(root: Any, metas: Metas, url: str | None) -> str | None:
    """The page's canonical URL (``<link rel=canonical>``, then ``og:url``), absolute, or None."""
    canonical = None
    for link in root.iter("link"):
        if (link.get("rel") or "").lower().strip() == "canonical" and link.get("href"):
            canonical = link.get("href").strip()
            break
    if not canonical:
        hit = first_meta(metas, ("og:url",))
        canonical = hit[1] if hit else None
    if canonical and url:
        canonical = urljoin(url, canonical)
    return canonical if canonical and canonical.startswith("http") else None


def page_types(metas: Metas, ld: LdObject | None) -> list[str]:
    og_type = first_meta(metas, ("og:type",))
    return ([og_type[1].lower()] if og_type else []) + (ld_types(ld) if ld else [])


def is_news_article(objects: list[LdObject]) -> bool:
    """schema.org ``*NewsArticle`` anywhere on the page: it calls itself a news report."""
    return any(t.endswith("newsarticle") for obj in objects for t in ld_types(obj))


__all__ = [
    "description_candidates",
    "extract_canonical",
    "extract_description",
    "extract_section",
    "extract_tags",
    "is_news_article",
    "page_types",
    "site_names",
]
