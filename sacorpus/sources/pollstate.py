"""Per-feed poll state and the adaptive poll interval.

A news front feed gains entries every few minutes; a regional section feed once a week. Polling
all of them every 5 minutes wastes requests (and invites blocks); polling daily loses entries that
scroll off a 20-item feed. So each feed keeps a small plain-dict state - conditional GET
validators, the guids already seen (bounded) and when new entries appeared - and
:func:`next_interval` proposes the next poll from that history, clamped to [5 min, 12 h].

The state is a JSON-serialisable dict so it can live in ``spider.state`` or the store unchanged.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from sacorpus.sources.dates import to_utc_iso

MIN_INTERVAL = 300  # 5 minutes
MAX_INTERVAL = 43_200  # 12 hours
DEFAULT_INTERVAL = 1800  # a feed without history: every 30 minutes
MAX_SEEN = 2000  # guids remembered per feed (a feed lists 10-100 entries)
MAX_HISTORY = 50  # new-entry events remembered


@dataclass(frozen=True)
class Limits:
    """The clamps of :func:`next_interval` (seconds). Settings, so a short simulated schedule can show
    a feed's pace in minutes (``SACORPUS_POLL_MIN_INTERVAL`` ...) while production keeps 5 min - 12 h."""

    minimum: int = MIN_INTERVAL
    maximum: int = MAX_INTERVAL
    default: int = DEFAULT_INTERVAL

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.default <= self.maximum:
            raise ValueError(
                f"poll intervals must satisfy 0 < minimum ({self.minimum}) <= default ({self.default})"
                f" <= maximum ({self.maximum})"
            )


DEFAULT_LIMITS = Limits()


def new_state() -> dict[str, Any]:
    return {
        "etag": None,
        "last_modified": None,
        "seen": [],
        "history": [],
        "last_poll": None,
        "empty_polls": 0,
    }


def _now(now: datetime | None) -> datetime:
    now = now or datetime.now(UTC)
    return now if now.tzinfo else now.replace(tzinfo=UTC)


def _parse(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def conditional_headers(state: dict[str, Any]) -> dict[str, str]:
    """Request headers for a conditional GET (``If-None-Match`` / ``If-Modified-Since``)."""
    headers = {}
    if state.get("etag"):
        headers["If-None-Match"] = str(state["etag"])
    if state.get("last_modified"):
        headers["If-Modified-Since"] = str(state["last_modified"])
    return headers


def record_poll(
    state: dict[str, Any],
    guids: Iterable[str] = (),
    *,
    etag: str | None = None,
    last_modified: str | None = None,
    not_modified: bool = False,
    now: datetime | None = None,
) -> list[str]:
    """Update ``state`` after one poll; return the guids not seen before (in feed order).

    ``not_modified``: the server answered 304, so nothing is new and the validators stay.
    """
    now = _now(now)
    state.setdefault("seen", [])
    state.setdefault("history", [])
    state["last_poll"] = to_utc_iso(now)
    if not_modified:
        state["empty_polls"] = int(state.get("empty_polls") or 0) + 1
        return []
    if etag is not None:
        state["etag"] = etag
    if last_modified is not None:
        state["last_modified"] = last_modified
    seen = set(state["seen"])
    fresh = []
    for guid in guids:
        if guid and guid not in seen:
            seen.add(guid)
            fresh.append(guid)
    if fresh:
        state["seen"] = (state["seen"] + fresh)[-MAX_SEEN:]
        state["history"] = ([*state["history"], to_utc_iso(now)])[-MAX_HISTORY:]
        state["empty_polls"] = 0
    else:
        state["empty_polls"] = int(state.get("empty_polls") or 0) + 1
    return fresh


def next_interval(state: dict[str, Any], now: datetime | None = None, limits: Limits = DEFAULT_LIMITS) -> int:
    """Seconds until the next poll, in [limits.minimum, limits.maximum] (5 min - 12 h by default).

    Half the median gap between recent new-entry events (so a feed is polled about twice per new
    batch), lengthened when the feed has been quiet for much longer than usual (a quiet feed is
    probably dormant: back off to a quarter of the silence), and by 1.5x per empty poll beyond
    three in a row.
    """
    now = _now(now)
    events = sorted(t for t in (_parse(v) for v in state.get("history") or []) if t is not None)
    if len(events) < 2:
        interval = float(limits.default)
        median_gap = None
    else:
        recent = events[-21:]
        gaps = [(b - a).total_seconds() for a, b in pairwise(recent)]
        median_gap = statistics.median(gaps)
        interval = median_gap / 2
    if events:
        quiet = (now - events[-1]).total_seconds()
        if quiet > 2 * (median_gap or limits.default):
            interval = max(interval, quiet / 4)
    empty = int(state.get("empty_polls") or 0)
    if empty > 3:
        interval *= 1.5 ** min(empty - 3, 10)
    return int(min(limits.maximum, max(limits.minimum, interval)))


def last_poll(state: dict[str, Any]) -> datetime | None:
    """When the feed was last polled (None: never)."""
    return _parse(state.get("last_poll"))


def due_at(state: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> datetime | None:
    """When the feed should next be polled: its last poll plus the interval proposed at that poll (the
    one the crawl logged; a later "now" would stretch a quiet feed's interval further each time it is
    asked); None when it was never polled (due at once)."""
    last = last_poll(state)
    if last is None:
        return None
    return last + timedelta(seconds=next_interval(state, last, limits))


def due(state: dict[str, Any], now: datetime | None = None, limits: Limits = DEFAULT_LIMITS) -> bool:
    """Whether the feed should be polled now (never polled, or its interval has passed)."""
    when = due_at(state, limits)
    return when is None or _now(now) >= when
