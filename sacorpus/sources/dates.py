"""Date parsing shared by the feed, sitemap and Wayback sources.

Feeds and sitemaps carry dates in every format the web has invented (RFC 822, W3C datetime, bare
years, local zones). Everything is normalised to one form - an ISO 8601 string in UTC - so that
windows (``since``/``until``) and stored metadata compare as plain strings or dates.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime

_W3C_PARTIAL = re.compile(r"^(\d{4})(?:-(\d{2}))?$")


def to_utc_iso(raw: str | None) -> str | None:
    """``raw`` as ``YYYY-MM-DDTHH:MM:SS+00:00`` (UTC), or None when it is not a date.

    Naive times are taken as UTC (the sitemap protocol says a missing zone is undefined; UTC is the
    least surprising reading). ``YYYY`` and ``YYYY-MM`` become the first day of the period.
    """
    if not raw:
        return None
    text = raw.strip()
    if not text or len(text) > 100:
        return None
    parsed = _parse(text)
    if parsed is None:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC).replace(microsecond=0).isoformat()
    except (OverflowError, ValueError):
        return None


def _parse(text: str) -> datetime | None:
    m = _W3C_PARTIAL.match(text)
    if m:
        try:
            return datetime(int(m.group(1)), int(m.group(2) or 1), 1)
        except ValueError:
            return None
    try:
        return datetime.fromisoformat(
            text.replace(" ", "T", 1) if re.match(r"^\d{4}-\d\d-\d\d \d", text) else text
        )
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        pass
    return _feedparser_date(text)


def _feedparser_date(text: str) -> datetime | None:
    """Last resort: feedparser's collection of date handlers (W3CDTF, RFC 822 variants, Korean, Greek...)."""
    try:
        from feedparser.datetimes import _parse_date
    except ImportError:  # pragma: no cover - feedparser is a dependency
        return None
    try:
        parsed = _parse_date(text)
    except Exception:  # third-party date handlers raise anything on garbage
        return None
    return struct_to_datetime(parsed)


def struct_to_datetime(parsed: time.struct_time | None) -> datetime | None:
    """A UTC ``time.struct_time`` (as feedparser returns) as an aware datetime, or None."""
    if not parsed:
        return None
    try:
        return datetime(*parsed[:6], tzinfo=UTC)
    except (TypeError, ValueError, OverflowError):
        return None


def iso_date(value: str | None) -> date | None:
    """The calendar date (UTC) of an ISO string from :func:`to_utc_iso`, or None."""
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def in_window(entry_date: str | None, since: date | None, until: date | None) -> bool:
    """Whether an entry dated ``entry_date`` (UTC ISO or any parsable date) falls in [since, until].

    Both ends are inclusive whole days. An entry without a (parsable) date is kept: a sitemap that
    gives no dates must not silently yield nothing; the article's own date is checked downstream.
    """
    if since is None and until is None:
        return True
    day = iso_date(entry_date) or iso_date(to_utc_iso(entry_date))
    if day is None:
        return True
    if since is not None and day < since:
        return False
    return not (until is not None and day > until)


def parse_day(value: str | date | None, name: str = "date") -> date | None:
    """A ``-a since=YYYY-MM-DD`` run argument as a date (None when empty); ValueError in one line if bad."""
    if isinstance(value, date):
        return value
    if value is None or not str(value).strip():
        return None
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise ValueError(f"argument {name}={value!r} is not a date (YYYY-MM-DD)") from None
