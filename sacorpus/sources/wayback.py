"""Wayback Machine backfill, the pure part: CDX queries and answers, memento URLs, date windows.

The Wayback Machine holds most of what news sites no longer link to, but its CDX API is slow, paged
and rate limited. This module builds the URLs and reads the answers; the spider does the fetching.
Everything here is deterministic and never raises on bad input (a malformed CDX line is skipped and
reported), so a 50,000-line CDX page with one broken line still yields 49,999 captures.

CDX API reference: https://github.com/internetarchive/wayback/tree/master/wayback-cdx-server
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Literal
from urllib.parse import urlencode

WAYBACK = "https://web.archive.org"
CDX_FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")
DEFAULT_FILTERS = ("statuscode:200", "mimetype:text/html")
MatchType = Literal["exact", "prefix", "host", "domain"]
_TS = re.compile(r"^\d{4,14}$")
_URLISH = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^/\s.]+\.[^/\s]+", re.I)
MAX_PROBLEMS = 50


@dataclass(frozen=True)
class Capture:
    urlkey: str
    timestamp: str  # 14 digits, YYYYMMDDhhmmss
    original: str
    mimetype: str | None = None
    statuscode: int | None = None  # None for "-" (revisits, warc/revisit records)
    digest: str | None = None
    length: int | None = None

    @property
    def when(self) -> datetime:
        return timestamp_to_datetime(self.timestamp) or datetime(1970, 1, 1, tzinfo=UTC)

    def memento(self, base: str = WAYBACK) -> str:
        return memento_url(self.timestamp, self.original, base=base)


@dataclass
class CdxPage:
    captures: list[Capture] = field(default_factory=list)
    resume_key: str | None = None  # pass back as resumeKey= for the next page; None: last page
    problems: list[str] = field(default_factory=list)


# --- query URLs ----------------------------------------------------------------------------------


def _cdx_date(value: date | datetime | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.strftime("%Y%m%d%H%M%S")
    if isinstance(value, date):
        return value.strftime("%Y%m%d")
    digits = re.sub(r"\D", "", str(value))
    if not _TS.match(digits):
        raise ValueError(f"not a CDX date: {value!r}")
    return digits


def cdx_url(
    url: str,
    *,
    match_type: MatchType | None = "prefix",
    from_: date | datetime | str | None = None,
    to: date | datetime | str | None = None,
    filters: Sequence[str] = DEFAULT_FILTERS,
    collapse: str | Sequence[str] | None = "urlkey",
    show_resume_key: bool = True,
    resume_key: str | None = None,
    limit: int | None = 5000,
    output: Literal["json", "plain"] = "json",
    fields: Sequence[str] | None = None,
    base: str = WAYBACK,
    start: date | datetime | str | None = None,
    end: date | datetime | str | None = None,
) -> str:
    """The CDX search URL for captures of ``url`` (a publication prefix, a domain or one page).

    ``from_``/``to`` take dates (whole days; ``to`` is inclusive because the CDX server pads it with
    9s) or CDX timestamps. ``collapse`` is "urlkey" (one capture per URL), "digest" (one per distinct
    content) or e.g. "timestamp:8" (one per day). Raises ValueError on a malformed date (a caller
    bug, not bad input from the web). ``start``/``end`` are aliases of ``from_``/``to``.
    """
    from_ = from_ if from_ is not None else start
    to = to if to is not None else end
    params: list[tuple[str, str]] = [("url", url)]
    if match_type and match_type != "exact":
        params.append(("matchType", match_type))
    if (value := _cdx_date(from_)) is not None:
        params.append(("from", value))
    if (value := _cdx_date(to)) is not None:
        params.append(("to", value))
    params.extend(("filter", f) for f in filters)
    if isinstance(collapse, str):
        collapse = [collapse]
    params.extend(("collapse", c) for c in collapse or ())
    if fields:
        params.append(("fl", ",".join(fields)))
    if limit:
        params.append(("limit", str(int(limit))))
    if show_resume_key:
        params.append(("showResumeKey", "true"))
    if resume_key:
        params.append(("resumeKey", resume_key))
    if output == "json":
        params.append(("output", "json"))
    return f"{base.rstrip('/')}/cdx/search/cdx?{urlencode(params)}"


# --- answers -------------------------------------------------------------------------------------


def parse_cdx(body: bytes | str, output: Literal["auto", "json", "plain"] = "auto") -> CdxPage:
    """Read one CDX answer (plain space-separated or ``output=json``) including its resume key.

    Never raises: unreadable lines, wrong column counts, bad timestamps and non-numeric status codes
    are skipped and described in ``problems``.
    """
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    text = body.lstrip("\ufeff")
    if output == "auto":
        output = "json" if text.lstrip().startswith("[") else "plain"
    if output == "json":
        return _parse_json(text)
    return _parse_plain(text)


def _parse_plain(text: str) -> CdxPage:
    page = CdxPage()
    lines = text.splitlines()
    # The resume key is the last non-empty line, separated from the captures by an empty line.
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) >= 2 and not lines[-2].strip() and len(lines[-1].split()) == 1:
        page.resume_key = lines[-1].strip()
        lines = lines[:-2]
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        capture, problem = _capture(line.split(" "), CDX_FIELDS)
        if capture:
            page.captures.append(capture)
        else:
            _problem(page, f"line {number}: {problem}")
    return page


def _problem(page: CdxPage, text: str) -> None:
    """Record a problem; past MAX_PROBLEMS only the count grows (an HTML error page has thousands)."""
    if len(page.problems) < MAX_PROBLEMS:
        page.problems.append(text)
    elif len(page.problems) == MAX_PROBLEMS:
        page.problems.append("more problems not listed")


def _parse_json(text: str) -> CdxPage:
    page = CdxPage()
    try:
        rows = json.loads(text) if text.strip() else []
    except ValueError as exc:
        page.problems.append(f"invalid JSON: {exc}"[:300])
        return page
    if not isinstance(rows, list):
        page.problems.append("JSON answer is not a list")
        return page
    if not rows:
        return page
    header = rows[0]
    if not (isinstance(header, list) and all(isinstance(h, str) for h in header) and "timestamp" in header):
        page.problems.append("JSON answer has no header row")
        return page
    body = rows[1:]
    # Resume key: [...captures, [], ["<key>"]]
    if len(body) >= 2 and body[-2] == [] and isinstance(body[-1], list) and len(body[-1]) == 1:
        page.resume_key = str(body[-1][0])
        body = body[:-2]
    for number, row in enumerate(body, 2):
        if row == []:
            continue
        if not isinstance(row, list):
            _problem(page, f"row {number}: not a list")
            continue
        capture, problem = _capture([str(v) if v is not None else "-" for v in row], tuple(header))
        if capture:
            page.captures.append(capture)
        else:
            _problem(page, f"row {number}: {problem}")
    return page


def _capture(values: list[str], names: Sequence[str]) -> tuple[Capture | None, str]:
    if len(values) != len(names):
        return None, f"{len(values)} fields, expected {len(names)}"
    row = dict(zip(names, values, strict=True))
    timestamp = row.get("timestamp", "")
    if timestamp_to_datetime(timestamp) is None:
        return None, f"bad timestamp {timestamp[:20]!r}"
    original = row.get("original", "")
    if not original or len(original) > 8000 or not _URLISH.match(original):
        return None, f"not a URL: {original[:40]!r}"
    status = row.get("statuscode", "-")
    length = row.get("length", "-")
    try:
        statuscode = int(status) if status not in ("-", "") else None
        size = int(length) if length not in ("-", "") else None
    except ValueError:
        return None, f"bad status {status[:10]!r} or length {length[:10]!r}"
    return (
        Capture(
            urlkey=row.get("urlkey", ""),
            timestamp=timestamp.ljust(14, "0"),
            original=original,
            mimetype=_dash(row.get("mimetype")),
            statuscode=statuscode,
            digest=_dash(row.get("digest")),
            length=size,
        ),
        "",
    )


def _dash(value: str | None) -> str | None:
    return None if value in (None, "", "-") else value


def timestamp_to_datetime(timestamp: str) -> datetime | None:
    """A CDX timestamp (4-14 digits; missing parts are the start of the period) as UTC, or None."""
    if not isinstance(timestamp, str) or not _TS.match(timestamp):
        return None
    padded = timestamp + "0101000000"[len(timestamp) - 4 :] if len(timestamp) < 14 else timestamp
    try:
        return datetime.strptime(padded, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def wayback_date(timestamp: str | None) -> date | None:
    """The capture day of a Wayback timestamp of at least 8 digits (it chooses a publication's dated rules)."""
    if not timestamp or len(timestamp) < 8:
        return None
    when = timestamp_to_datetime(timestamp)
    return when.date() if when else None


def datetime_to_timestamp(when: datetime | date) -> str:
    if not isinstance(when, datetime):
        when = datetime(when.year, when.month, when.day, tzinfo=UTC)
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y%m%d%H%M%S")


# --- mementos ------------------------------------------------------------------------------------

_MEMENTO = re.compile(r"^(?:https?://[^/]+)?/web/(\d{1,14})([a-z]{2}_)?/(.+)$", re.I)


def memento_url(timestamp: str | datetime, original: str, base: str = WAYBACK, flag: str = "id_") -> str:
    """The Wayback URL of the capture of ``original`` at ``timestamp``.

    ``id_`` asks for the raw archived bytes (no Wayback banner, no link rewriting), which is what the
    extraction pipeline must see. The Wayback Machine redirects to the nearest capture when the
    timestamp is not exact.
    """
    if isinstance(timestamp, datetime):
        timestamp = datetime_to_timestamp(timestamp)
    return f"{base.rstrip('/')}/web/{timestamp}{flag}/{original}"


def parse_memento_url(url: str) -> tuple[str, str] | None:
    """``(timestamp, original)`` from a memento URL (any flag), or None when ``url`` is not one."""
    if not isinstance(url, str):
        return None
    m = _MEMENTO.match(url.strip())
    if not m:
        return None
    timestamp, original = m.group(1), m.group(3)
    # Wayback (and proxies) sometimes collapse "http://" to "http:/".
    original = re.sub(r"^(https?):/+", r"\1://", original, flags=re.I)
    if not re.match(r"^[a-z][a-z0-9+.-]*://", original, re.I):
        original = "http://" + original
    return timestamp, original
