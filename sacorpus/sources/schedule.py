"""Which publications are due for a crawl, and when the next one will be: the pure core of
``scrapy schedule``.

A publication is paced by its feeds and sitemaps: each keeps a poll state in the store
(:mod:`sacorpus.sources.pollstate`) whose adaptive interval says when it wants polling again. A
publication is due when any of them is due or was never polled; a crawl polls all of them. Section
pages and Wayback seeds keep no poll state, so a publication with neither feed nor sitemap is not
paced (it is reported, not guessed at).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sacorpus.sources import pollstate

STATE_PREFIX = "poll:"  # run-state key of a source's poll state: poll:<url>


def state_key(url: str) -> str:
    return f"{STATE_PREFIX}{url}"


@dataclass(frozen=True)
class SourceDue:
    url: str
    last_poll: datetime | None  # None: never polled
    interval: int | None  # the interval proposed at the last poll (seconds)
    due_at: datetime | None  # None: due at once


@dataclass(frozen=True)
class PublicationDue:
    slug: str
    sources: tuple[SourceDue, ...]

    @property
    def paced(self) -> bool:
        return bool(self.sources)

    @property
    def never_polled(self) -> tuple[str, ...]:
        return tuple(s.url for s in self.sources if s.due_at is None)

    @property
    def due_at(self) -> datetime | None:
        """The earliest due time of its sources (None: a source was never polled, due at once)."""
        if self.never_polled:
            return None
        return min((s.due_at for s in self.sources if s.due_at is not None), default=None)

    def is_due(self, now: datetime) -> bool:
        if not self.sources:
            return False
        when = self.due_at
        return when is None or now >= when

    def reason(self) -> str:
        """Why it is due, for the log: the source that made it so."""
        if self.never_polled:
            return f"never polled: {self.never_polled[0]}"
        first = min((s for s in self.sources if s.due_at is not None), key=lambda s: s.due_at or 0)
        when = first.due_at.isoformat(timespec="milliseconds").replace("+00:00", "Z") if first.due_at else ""
        return f"{first.url} due at {when}, interval {first.interval} s"


def source_due(url: str, state: Mapping[str, Any] | None, limits: pollstate.Limits) -> SourceDue:
    data = dict(state or {})
    last = pollstate.last_poll(data)
    if last is None:
        return SourceDue(url, None, None, None)
    interval = pollstate.next_interval(data, last, limits)
    return SourceDue(url, last, interval, pollstate.due_at(data, limits))


def plan(
    sources: Mapping[str, Sequence[str]],
    states: Mapping[str, Mapping[str, Any] | None],
    limits: pollstate.Limits = pollstate.DEFAULT_LIMITS,
) -> list[PublicationDue]:
    """Every publication's due time from its paced source URLs (slug -> URLs) and their poll states
    (URL -> state, missing or None: never polled)."""
    return [
        PublicationDue(slug, tuple(source_due(url, states.get(url), limits) for url in urls))
        for slug, urls in sources.items()
    ]


def due_now(plans: Iterable[PublicationDue], now: datetime) -> list[PublicationDue]:
    """The publications due at ``now``, never-polled ones first, then the longest overdue."""
    due = [p for p in plans if p.is_due(now)]
    return sorted(due, key=lambda p: (p.due_at is not None, p.due_at or now, p.slug))


def next_due(plans: Iterable[PublicationDue], now: datetime) -> datetime | None:
    """When the next publication becomes due (``now`` if one already is; None: nothing is paced)."""
    times = [p.due_at or now for p in plans if p.paced]
    return max(min(times), now) if times else None


def backoff_seconds(failures: int, base: float, maximum: float) -> float:
    """How long a publication waits after ``failures`` failed crawls in a row: doubling from ``base``."""
    if failures <= 0:
        return 0.0
    return float(min(maximum, base * 2 ** min(failures - 1, 30)))
