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


__all__ = ["date_from_url", "parse_date", "to_utc_iso", "wayback_date"]
