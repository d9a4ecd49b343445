"""Dates of a page: which of the dates a page states is its publication date, and the day it names.

A page states its publication time in JSON-LD, meta tags, ``<time datetime>``, the URL or visible
text. Each string is read by the project's one date parser (:func:`sacorpus.sources.dates.parse_date`,
shared with feeds and sitemaps) and stored in its one UTC form (:func:`~sacorpus.sources.dates.to_utc_iso`).
The day *as the page states it* (its own offset) is kept separately because that is what a reader and
a ground truth call the publication date.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

from sacorpus.publications import RuleSet
from sacorpus.sources.dates import parse_date, plausible
from sacorpus.text.date_languages import find_page_date
from sacorpus.text.metareaders import Metas, first_meta, ld_string, node_text, selected_values

_URL_DATE = re.compile(
    r"/((?:19|20)\d{2})[/-]([01]?\d)[/-]([0-3]?\d)(?:[/-]|$)|/((?:19|20)\d{2})([01]\d)([0-3]\d)/|[/-]((?:19|20)\d{2})-([01]\d)-([0-3]\d)[-/]"
)


def date_from_url(url: str | None) -> datetime | None:
    """/2024/04/28/, /20240428/ or -2024-04-28- in a URL path."""
    if not url:
        return None
    path = re.sub(r"^\w+://[^/]+", "", url)
    m = _URL_DATE.search(path)
    if not m:
        return None
    groups = [g for g in m.groups() if g is not None]
    try:
        dt = datetime(int(groups[0]), int(groups[1]), int(groups[2]), tzinfo=UTC)
    except ValueError:
        return None
    return plausible(dt)


# --- dates of a page --------------------------------------------------------------------------------

PUBLISHED_META = (
    "article:published_time",
    "og:article:published_time",
    "article:published",
    "datepublished",
    "publishdate",
    "publish-date",
    "pubdate",
    "publication_date",
    "sailthru.date",
    "parsely-pub-date",
    "dc.date.issued",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "date",
    "citation_publication_date",
    "og:published_time",
    "article.published",
    "cxenseparse:recs:publishtime",
    "datecreated",
)
MODIFIED_META = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
    "article:modified",
    "og:article:modified_time",
)
_EXPLICIT_UTC = re.compile(r"(?:Z|[+-]00:?00|\bUTC|\bGMT)\s*$", re.I)
Found = tuple[datetime | None, str | None, str | None]


def _in_local_offset(
    dt: datetime, raw: str, sources: list[tuple[str, str]], metas: Metas, ld: dict[str, Any] | None
) -> datetime:
    """Show a UTC timestamp in the page's own offset when another timestamp on the page states one.

    Many CMSs emit ``datePublished`` in UTC ("2022-05-04T00:44:52Z") while the page's other times carry
    the newsroom's offset ("-03:00"); the publication day a reader sees is the local one.
    """
    if dt.utcoffset() != timedelta(0) or not _EXPLICIT_UTC.search(raw.strip()):
        return dt
    others = [v for _, v in sources]
    modified = ld_string(ld, "dateModified")
    if modified:
        others.append(modified)
    for key in MODIFIED_META:
        others.extend(metas.get(key, [])[:1])
    for value in others:
        other = parse_date(value, allow_text=False)
        offset = other.utcoffset() if other else None
        if offset:
            return dt.astimezone(timezone(offset))
    return dt


def _stated_dates(
    root: Any, metas: Metas, ld: dict[str, Any] | None, rules: RuleSet
) -> list[tuple[str, str]]:
    """(source label, raw value) of every publication date the page states, most specific first."""
    sources: list[tuple[str, str]] = []
    if rules.date_selectors:
        sources.extend(("rule", v) for v in selected_values(root, rules.date_selectors))
    for key in ("datePublished", "dateCreated", "uploadDate"):
        v = ld_string(ld, key)
        if v:
            sources.append(("json-ld", v))
    for key in PUBLISHED_META:
        sources.extend(("meta", v) for v in metas.get(key, [])[:1])
    for el in root.xpath("//time[@datetime or @pubdate]|//*[@itemprop='datePublished']")[:3]:
        v = el.get("datetime") or el.get("content") or node_text(el)
        if v:
            sources.append(("time", v))
    return sources


def _url_day_elsewhere(url: str | None, sources: list[tuple[str, str]]) -> bool:
    """True when the URL carries a full date that none of the page's <time> elements states.

    With no structured date, the first ``<time>`` may belong to a comment or a teaser; a date the
    publisher wrote into the article's URL path, contradicted by every ``<time>``, marks those as
    another item's.
    """
    from_url = date_from_url(url)
    if from_url is None:
        return False
    days = [parse_date(v, allow_text=True) for label, v in sources if label == "time"]
    return all(d is None or d.date() != from_url.date() for d in days)


def _page_wide_date(root: Any, metas: Metas, url: str | None) -> Found:
    """Last resorts when no element states the date: the page title, then htmldate's page-wide search
    (dates in words read in the languages of their words: :mod:`sacorpus.text.date_languages`)."""
    # some CMSs only state the day in the page title ("Headline | DW | 28.04.2023"): a full date there
    # names this page, unlike dates in teaser lists that htmldate's page-wide search may pick up
    title_el = root.find(".//title")
    for value in [node_text(title_el) if title_el is not None else "", *metas.get("og:title", [])[:1]]:
        dt = parse_date(value, allow_text=True) if value else None
        if dt:
            return dt, value, "title"
    try:  # last resort: htmldate's heuristics over the whole page (what trafilatura uses)
        found = find_page_date(root, url)
    except Exception:  # htmldate must never break metadata extraction
        found = None
    dt = parse_date(found, allow_text=False) if found else None
    return (dt, found, "htmldate") if dt else (None, None, None)


_NUMERIC_DATE = re.compile(r"\b\d{1,2}\s?[./-]\s?\d{1,2}\s?[./-]\s?\d{2,4}\b")
_DOTTED_DATE = re.compile(r"(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?((?:19|20)\d{2})(?!\d|\.\d)")
MAX_TEXT_NODES = 20_000  # text nodes read for dates (bounds the work on huge pages)


def _shown_days(root: Any) -> set[date]:
    """The days the page's text writes as dotted numbers ("05.04.2025", "4. 2. 2022"): day first in
    every convention that writes them so."""
    parts = root.xpath("//body//text()[not(ancestor::script) and not(ancestor::style)][contains(., '.')]")
    hits = [hit for part in parts[:MAX_TEXT_NODES] for hit in _DOTTED_DATE.findall(" ".join(part.split()))]
    days = set()
    for d, m, y in hits:
        try:
            days.add(date(int(y), int(m), int(d)))
        except ValueError:
            continue
    return days


def day_order_checked(found: Found, root: Any) -> Found:
    """The date with day and month exchanged when the page's own text shows only that reading.

    "11/01/2023" is 11 January or 1 November depending on the writer's convention; htmldate and a
    numeric meta value are read one fixed way. When the page prints the day in its text with dots,
    which every convention writes day first, and prints the swapped reading but not the one taken,
    the taken one was the wrong order.
    """
    dt, raw, label = found
    if dt is None or not raw or dt.day > 12 or dt.day == dt.month:
        return found
    if label != "htmldate" and not _NUMERIC_DATE.search(raw):
        return found
    shown = _shown_days(root)
    swapped = dt.replace(day=dt.month, month=dt.day)
    if swapped.date() in shown and dt.date() not in shown:
        return swapped, raw, label
    return found


def extract_published(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    url: str | None,
    rules: RuleSet,
    fallback_published: Any,
) -> Found:
    """(datetime, raw string, source label): stated dates, then the feed entry, the URL, the title, htmldate;
    a numeric day-month reading the page's own text contradicts is swapped (:func:`day_order_checked`)."""
    return day_order_checked(_published(root, metas, ld, url, rules, fallback_published), root)


def _published(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    url: str | None,
    rules: RuleSet,
    fallback_published: Any,
) -> Found:
    sources = _stated_dates(root, metas, ld, rules)
    for label, value in sources:
        dt = parse_date(value, allow_text=label in ("rule", "time"))
        if dt and label == "time" and _url_day_elsewhere(url, sources):
            break  # only <time>s of other content (comments, teasers): the URL dates this page
        if dt:
            return _in_local_offset(dt, value, sources, metas, ld), value, label
    if fallback_published:
        value = fallback_published if isinstance(fallback_published, str) else str(fallback_published)
        dt = parse_date(value)
        if dt:
            return dt, value, "feed"
    dt = date_from_url(url)
    if dt and url:
        return dt, url, "url"
    return _page_wide_date(root, metas, url)


_OFFSET_STATED = re.compile(r"(?:Z|[+-]\d\d:?\d\d|\b(?:UTC|GMT))$", re.I)
_CLOCK = re.compile(r"\d{1,2}:\d{2}")


def _wall_clock(sources: list[tuple[str, str]]) -> datetime | None:
    """The first time of day the page states on its own (a ``<time>`` or rule value with no offset)."""
    for label, value in sources:
        if label in ("rule", "time") and _CLOCK.search(value) and not _OFFSET_STATED.search(value.strip()):
            return parse_date(value, allow_text=True)
    return None


def local_day(
    dt: datetime | None,
    raw: str | None,
    url: str | None,
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    rules: RuleSet,
) -> date | None:
    """The publication day as the page states it, when its timestamp is in UTC and the local day differs.

    A UTC timestamp near midnight falls on another day than the one the newsroom printed. The page's
    own wall-clock time (a ``<time>`` with no offset) gives the offset when it differs from the instant
    by a plausible one (-12 h to +14 h in quarter hours); without one, the date in the URL counts when
    it is the neighbouring day the instant allows (the evening before for offsets down to -10 h, the
    morning after for offsets from +1 h). The instant itself is kept as stated.
    """
    if dt is None or not raw or dt.utcoffset() != timedelta(0) or not _EXPLICIT_UTC.search(raw.strip()):
        return None
    wall = _wall_clock(_stated_dates(root, metas, ld, rules))
    if wall is not None:
        shift = (wall - dt).total_seconds()
        plausible = shift % 900 == 0 and -12 * 3600 <= shift <= 14 * 3600
        return wall.date() if plausible and wall.date() != dt.date() else None
    from_url = date_from_url(url)
    day = from_url.date() if from_url else None
    if day == dt.date() - timedelta(days=1) and dt.hour < 10:
        return day
    if day == dt.date() + timedelta(days=1) and dt.hour >= 11:
        return day
    return None


def extract_modified(metas: Metas, ld: dict[str, Any] | None) -> datetime | None:
    modified = ld_string(ld, "dateModified")
    dt = parse_date(modified, allow_text=False) if modified else None
    if dt:
        return dt
    hit = first_meta(metas, MODIFIED_META)
    return parse_date(hit[1], allow_text=False) if hit else None


__all__ = [
    "date_from_url",
    "extract_modified",
    "extract_published",
    "local_day",
]
