"""Page metadata: title, authors, dates, section, tags, description, canonical URL.

Generic first, so it works for any of thousands of sites with no publication file: structured data
(JSON-LD ``NewsArticle``), then meta tags (Open Graph, ``article:*``, Parse.ly, Sailthru, Dublin
Core), then markup (``<h1>``, ``<time>``, ``rel=author``/byline classes), then the URL and the
feed/sitemap entry. A publication's rules (author/date/section selectors, title and author strip
patterns) are tried before the generic sources, because a site-specific rule is written exactly
where the generic order fails. Everything reads the tree; nothing modifies it.

The fields live in their own modules (:mod:`~sacorpus.text.title_choice`, :mod:`~sacorpus.text.authors`,
:mod:`~sacorpus.text.dates`, :mod:`~sacorpus.text.pagefields`) over shared readers
(:mod:`~sacorpus.text.metareaders`); this module reads the page once and fills :class:`Metadata`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sacorpus.publications import RuleSet
from sacorpus.sources.dates import to_utc_iso
from sacorpus.text.authors import extract_authors, organisations_credited, people_and_agencies
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.dates import extract_modified, extract_published, local_day
from sacorpus.text.metareaders import host_of, ld_article, read_json_ld, read_meta, select
from sacorpus.text.pagefields import (
    description_candidates,
    extract_canonical,
    extract_description,
    extract_section,
    extract_tags,
    is_news_article,
    page_types,
    site_names,
)
from sacorpus.text.title_choice import extract_title
from sacorpus.text.titles import host_keys, norm_key


@dataclass
class Metadata:
    title: str | None = None  # as published (og:title / headline / <title>)
    title_clean: str | None = None
    authors: list[str] = field(default_factory=list)  # people only
    agencies: list[str] = field(default_factory=list)  # agencies, desks, outlets the byline credits
    published: datetime | None = None
    published_raw: str | None = None
    published_source: str | None = None
    local_day: date | None = None  # the day the page states, where its UTC timestamp falls on another
    modified: datetime | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    descriptions: list[str] = field(
        default_factory=list
    )  # every summary the page declares (the lead's evidence)
    canonical_url: str | None = None
    site_name: str | None = None
    page_types: list[str] = field(default_factory=list)  # schema.org / og:type hints
    title_candidates: list[str] = field(default_factory=list)  # every headline the page states
    news_article: bool = False  # schema.org *NewsArticle: the page calls itself a news report

    @property
    def published_at(self) -> str | None:
        return to_utc_iso(self.published)

    @property
    def modified_at(self) -> str | None:
        return to_utc_iso(self.modified)

    @property
    def published_day(self) -> str | None:
        """The publication day in the page's own offset (what a reader sees)."""
        if self.local_day:
            return self.local_day.isoformat()
        return self.published.date().isoformat() if self.published else None


def extract_metadata(
    root: Any,
    url: str | None = None,
    rules: RuleSet | None = None,
    fallback: Mapping[str, Any] | None = None,
    site_name: str | None = None,
    history: LineHistory | None = None,
) -> Metadata:
    """Read every metadata field from a parsed page (read-only; ``history`` learns its title strings)."""
    rules = rules or RuleSet()
    fallback = fallback or {}
    metas = read_meta(root)
    objects = read_json_ld(root)
    ld = ld_article(objects)
    names = site_names(metas, objects, ld, site_name)
    meta = Metadata()
    meta.site_name = next((s for s in names if s), None)
    meta.section = extract_section(root, metas, ld, rules)
    meta.title, meta.title_clean = extract_title(
        root,
        metas,
        ld,
        url,
        names,
        rules,
        fallback.get("title"),
        meta.title_candidates,
        meta.section,
        history,
    )
    site_keys = {norm_key(n) for n in names if n and norm_key(n)} | host_keys(host_of(url))
    meta.authors, meta.agencies = people_and_agencies(
        extract_authors(root, metas, ld, rules, fallback.get("authors"), site_keys, meta.section, objects),
        organisations_credited(ld, objects),
    )
    meta.published, meta.published_raw, meta.published_source = extract_published(
        root, metas, ld, url, rules, fallback.get("published")
    )
    meta.local_day = local_day(meta.published, meta.published_raw, url, root, metas, ld, rules)
    meta.modified = extract_modified(metas, ld)
    meta.tags = extract_tags(metas, ld)
    meta.description = extract_description(metas, ld)
    meta.descriptions = description_candidates(metas, ld)
    meta.canonical_url = extract_canonical(root, metas, url)
    meta.page_types = page_types(metas, ld)
    meta.news_article = is_news_article(objects)
    return meta


__all__ = ["Metadata", "extract_metadata", "read_json_ld", "read_meta", "select"]
