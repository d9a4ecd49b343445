"""Dates: parse what pages give, keep the original, store UTC.

A page states its publication time in JSON-LD, meta tags, ``<time datetime>``, the URL or visible
text, in ISO 8601, RFC 822 or local formats, with or without an offset. :func:`parse_date` turns one
string into an aware datetime (naive values are taken as UTC, and flagged), and :func:`to_utc_iso`
gives the stored form. The day *as the page states it* (its own offset) is kept separately because
that is what a reader and a ground truth call the publication date.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from sacorpus.publications import RuleSet
from sacorpus.text.metareaders import Metas, first_meta, ld_string, node_text, selected_values

_ISO = re.compile(
    r"(?P<y>(?:19|20)\d{2})-?(?P<m>[01]\d)-?(?P<d>[0-3]\d)"
    r"(?:[T\s]+(?P<H>[0-2]\d):?(?P<M>[0-5]\d)(?::?(?P<S>[0-5]\d)(?:[.,]\d+)?)?"
    r"\s*(?P<tz>Z|UTC|GMT|[+-][0-2]\d(?::?[0-5]\d)?)?)?"
)
_URL_DATE = re.compile(
    r"/((?:19|20)\d{2})[/-]([01]?\d)[/-]([0-3]?\d)(?:[/-]|$)|/((?:19|20)\d{2})([01]\d)([0-3]\d)/|[/-]((?:19|20)\d{2})-([01]\d)-([0-3]\d)[-/]"
)
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            "january jan januar janvier enero janeiro gennaio januarie",
            "february feb februar février fevrier febrero fevereiro febbraio februarie",
            "march mar märz maerz mars marzo março maart",
            "april apr avril abril aprile",
            "may mai mayo maio maggio mei",
            "june jun juni juin junio junho giugno junie",
            "july jul juli juillet julio julho luglio julie",
            "august aug août aout agosto augustus",
            "september sep sept septembre septiembre setembro settembre",
            "october oct oktober octobre octubre outubro ottobre",
            "november nov novembre noviembre novembro",
            "december dec dezember décembre decembre diciembre dezembro dicembre desember",
        ]
    )
    for m in names.split()
}
_TEXT_DATE = re.compile(
    r"(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\.?\s+(?P<mon1>[^\W\d_]{3,10})\.?,?\s+(?P<y1>(?:19|20)\d{2})"
    r"|(?P<mon2>[^\W\d_]{3,10})\.?\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20)\d{2})"
    r"|(?P<d3>[0-3]?\d)[./](?P<m3>[01]?\d)[./](?P<y3>(?:19|20)\d{2})",
    re.I,
)
_TIME = re.compile(r"(?P<H>[0-2]?\d)[:h](?P<M>[0-5]\d)\s*(?P<ampm>[ap]\.?m\.?)?", re.I)


def _tz(value: str | None) -> timezone | None:
    if not value:
        return None
    if value.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if value[0] == "-" else 1
    digits = value[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 14:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _valid(dt: datetime, now: datetime | None = None) -> bool:
    now = now or datetime.now(UTC)
    aware = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    return datetime(1990, 1, 1, tzinfo=UTC) <= aware <= now + timedelta(days=2)


def parse_date(value: str | None, *, allow_text: bool = True) -> datetime | None:
    """Parse one date string into an aware datetime (offset as given; UTC when none). None if unparsable."""
    if not value or not isinstance(value, str):
        return None
    value = value.strip()[:200]
    if not value:
        return None
    m = _ISO.search(value)
    if m:
        try:
            dt = datetime(
                int(m["y"]), int(m["m"]), int(m["d"]), int(m["H"] or 0), int(m["M"] or 0), int(m["S"] or 0)
            )
        except ValueError:
            dt = None
        if dt is not None:
            tz = _tz(m["tz"]) if m["tz"] else None
            dt = dt.replace(tzinfo=tz or UTC)
            return dt if _valid(dt) else None
    if re.search(r"\d{1,2}\s+\w{3}\s+\d{4}\s+\d{1,2}:\d{2}", value) and "," in value[:6]:
        try:
            dt = parsedate_to_datetime(value)
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=UTC)
            return dt if _valid(dt) else None
        except (TypeError, ValueError, IndexError):
            pass
    if re.fullmatch(r"\d{10}(?:\d{3})?", value):  # epoch seconds / milliseconds
        seconds = int(value[:10])
        dt = datetime.fromtimestamp(seconds, UTC)
        return dt if _valid(dt) else None
    if not allow_text:
        return None
    m = _TEXT_DATE.search(value)
    if not m:
        return None
    try:
        if m["y1"]:
            month = _MONTHS.get(m["mon1"].lower().rstrip("."))
            day, year = int(m["d1"]), int(m["y1"])
        elif m["y2"]:
            month = _MONTHS.get(m["mon2"].lower().rstrip("."))
            day, year = int(m["d2"]), int(m["y2"])
        else:
            month, day, year = int(m["m3"]), int(m["d3"]), int(m["y3"])
        if not month:
            return None
        hour = minute = 0
        t = _TIME.search(value, m.end())
        if t:
            hour, minute = int(t["H"]), int(t["M"])
            if t["ampm"] and t["ampm"][0].lower() == "p" and hour < 12:
                hour += 12
            if hour > 23:
                hour = minute = 0
        dt = datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:
        return None
    return dt if _valid(dt) else None


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
    return dt if _valid(dt) else None


def to_utc_iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def wayback_date(timestamp: str | None) -> date | None:
    """The capture date of a 14-digit Wayback timestamp (for choosing dated rules)."""
    if not timestamp or not re.fullmatch(r"\d{8,14}", timestamp):
        return None
    try:
        return datetime.strptime(timestamp[:8], "%Y%m%d").date()
    except ValueError:
        return None


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
    """Last resorts when no element states the date: the page title, then htmldate's page-wide search."""
    # some CMSs only state the day in the page title ("Headline | DW | 28.04.2023"): a full date there
    # names this page, unlike dates in teaser lists that htmldate's page-wide search may pick up
    title_el = root.find(".//title")
    for value in [node_text(title_el) if title_el is not None else "", *metas.get("og:title", [])[:1]]:
        dt = parse_date(value, allow_text=True) if value else None
        if dt:
            return dt, value, "title"
    try:  # last resort: htmldate's heuristics over the whole page (what trafilatura uses)
        from htmldate import find_date

        found = find_date(root, url=url, original_date=True, extensive_search=True)
    except Exception:  # htmldate must never break metadata extraction
        found = None
    dt = parse_date(found, allow_text=False) if found else None
    return (dt, found, "htmldate") if dt else (None, None, None)


def extract_published(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    url: str | None,
    rules: RuleSet,
    fallback_published: Any,
) -> Found:
    """(datetime, raw string, source label): stated dates, then the feed entry, the URL, the title, htmldate."""
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
    "parse_date",
    "to_utc_iso",
    "wayback_date",
]
