"""The Wayback homepage walk-back, the pure part: homepage versions back in time, and their links.

A defunct title's articles are often listed nowhere but on its homepage; walking the homepage's
captures back from a window's end, one per distinct content digest, finds the articles each version
linked to, as captures near the homepage's time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime
from urllib.parse import urljoin

from lxml import html as lxml_html

from sacorpus.sources.wayback import (
    WAYBACK,
    Capture,
    datetime_to_timestamp,
    memento_url,
    parse_memento_url,
    timestamp_to_datetime,
)


def homepage_links(
    html: bytes | str,
    capture: Capture,
    accept: Callable[[str], bool] | None = None,
    base: str = WAYBACK,
    limit: int = 2000,
) -> list[str]:
    """Article links of a homepage capture, as memento URLs near the capture's time.

    Links are resolved against the capture's original URL; links that are already Wayback URLs
    (captures fetched without ``id_`` have rewritten links) are turned back into originals first.
    ``accept`` (e.g. ``UrlPolicy.is_article``) filters the originals. Order kept, duplicates
    dropped, at most ``limit`` links.
    """
    if not html:
        return []
    try:
        doc = lxml_html.fromstring(html)
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return []
    out: list[str] = []
    seen: set[str] = set()
    for href in doc.xpath("//a/@href"):
        href = str(href).strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        try:
            absolute = urljoin(capture.original, href)
        except ValueError:
            continue
        parsed = parse_memento_url(absolute) if "/web/" in absolute else None
        original = parsed[1] if parsed else absolute
        original = original.split("#", 1)[0]
        if not original.startswith(("http://", "https://")) or original in seen:
            continue
        if accept is not None and not accept(original):
            continue
        seen.add(original)
        out.append(memento_url(capture.timestamp, original, base=base))
        if len(out) >= limit:
            break
    return out


def _usable(captures: Iterable[Capture]) -> list[Capture]:
    return sorted(
        (c for c in captures if c.statuscode in (200, None) and timestamp_to_datetime(c.timestamp)),
        key=lambda c: c.timestamp,
    )


def closest_capture(captures: Iterable[Capture], target: datetime | date | str) -> Capture | None:
    """The capture nearest in time to ``target`` (ties: the earlier one)."""
    if isinstance(target, str):
        when = timestamp_to_datetime(target)
    elif isinstance(target, datetime):
        when = target if target.tzinfo else target.replace(tzinfo=UTC)
    else:
        when = datetime(target.year, target.month, target.day, tzinfo=UTC)
    usable = _usable(captures)
    if not usable or when is None:
        return None
    return min(usable, key=lambda c: (abs((c.when - when).total_seconds()), c.timestamp))


def previous_distinct(captures: Iterable[Capture], current: Capture) -> Capture | None:
    """The latest capture before ``current`` whose content (digest) differs from it.

    Homepages are captured many times a day, mostly unchanged; stepping to the previous *distinct*
    capture visits each homepage version once.
    """
    for capture in reversed(_usable(captures)):
        if capture.timestamp >= current.timestamp:
            continue
        if current.digest is None or capture.digest != current.digest:
            return capture
    return None


def walk_back(
    captures: Iterable[Capture],
    start: datetime | date | str,
    stop: datetime | date | str | None = None,
    max_steps: int = 10_000,
) -> Iterator[Capture]:
    """Homepage versions from the one closest to ``start`` backwards, one per distinct digest.

    Stops before captures older than ``stop`` and after ``max_steps`` (a bound, never a hang).
    Digests already visited are skipped too (A-B-A flip-flops between two homepage versions).
    """
    pool = _usable(captures)
    current = closest_capture(pool, start)
    stop_ts = None
    if stop is not None:
        stop_ts = stop if isinstance(stop, str) else datetime_to_timestamp(stop)
    seen: set[str] = set()
    steps = 0
    while current is not None and steps < max_steps:
        if stop_ts is not None and current.timestamp < stop_ts.ljust(14, "0"):
            return
        if current.digest is None or current.digest not in seen:
            yield current
            steps += 1
        if current.digest:
            seen.add(current.digest)
        current = previous_distinct(pool, current)
