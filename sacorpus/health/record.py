"""A run's health record, built from its stats and the poll state of its feeds (no Scrapy).

Why from the stats: every stage already counts what it did (``sacorpus/...``), Scrapy counts requests
and responses by status, and :func:`sacorpus.verdict.run_failures` reads the same dict, so the record,
the log summary and the exit status cannot disagree. The record is plain JSON for both stores.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

from sacorpus.verdict import run_failures

DISTRUSTED = "sacorpus/extract/rules-distrusted/"
DROPPED = "item_dropped_reasons_count/"
STATUS = "downloader/response_status_count/"
#: a feed counts as overdue when it has been silent this many times its usual gap between new items
OVERDUE_FACTOR = 4.0
#: ... and its history holds at least this many new-item events (fewer say nothing about its pace)
MIN_EVENTS = 3


def _int(stats: Mapping[str, Any], key: str) -> int:
    value = stats.get(key, 0)
    return int(value) if isinstance(value, int | float) else 0


def _by_suffix(stats: Mapping[str, Any], prefix: str) -> dict[str, int]:
    return {
        k[len(prefix) :]: _int(stats, k) for k in sorted(stats) if k.startswith(prefix) and _int(stats, k)
    }


def _when(value: Any) -> str | None:
    return (
        value.astimezone(UTC).isoformat() if isinstance(value, datetime) else (str(value) if value else None)
    )


def _parse(value: Any) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def overdue_feeds(states: Mapping[str, Mapping[str, Any]], now: datetime) -> list[dict[str, Any]]:
    """Feeds that brought nothing new although their own history says they should have by now.

    A feed's pace is the median gap between the times new items appeared in it (its poll state's
    ``history``); silent for more than ``OVERDUE_FACTOR`` such gaps, with a poll in this run that found
    nothing, it is overdue: a changed feed URL, a blocked crawler or a broken feed, not a quiet day.
    """
    out = []
    for url, state in sorted(states.items()):
        events = sorted(t for t in (_parse(v) for v in state.get("history") or []) if t is not None)
        if len(events) < MIN_EVENTS or not int(state.get("empty_polls") or 0):
            continue
        gap = statistics.median((b - a).total_seconds() for a, b in pairwise(events))
        silent = (now - events[-1]).total_seconds()
        if gap > 0 and silent > OVERDUE_FACTOR * gap:
            out.append({"url": url, "silent_seconds": int(silent), "usual_gap_seconds": int(gap)})
    return out


def health_record(
    stats: Mapping[str, Any],
    *,
    publication: str,
    spider: str,
    items: Mapping[str, Any],
    feeds: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The run's record: counts by kind, the run's failures (its exit status) and overdue feeds.

    ``items`` holds what the crawl counted per scraped article (``short_texts``, ``problems`` by kind).
    """
    problems = dict(items.get("problems") or {})
    return {
        "publication": publication,
        "spider": spider,
        "started_at": _when(stats.get("start_time")),
        "finished_at": _when(stats.get("finish_time")) or datetime.now(UTC).isoformat(),
        "finish_reason": str(stats.get("finish_reason") or ""),
        "requests": _int(stats, "downloader/request_count"),
        "responses": _int(stats, "downloader/response_count"),
        "responses_by_status": _by_suffix(stats, STATUS),
        "fetch_errors": _int(stats, "downloader/exception_count"),
        "articles_scraped": _int(stats, "item_scraped_count"),
        "articles_new": _int(stats, "sacorpus/store/new"),
        "articles_updated": _int(stats, "sacorpus/store/updated"),
        "articles_unchanged": _int(stats, "sacorpus/store/unchanged"),
        "articles_stored": _int(stats, "sacorpus/store/stored"),
        "new_entries": sum(
            _int(stats, k) for k in stats if k.startswith("sacorpus/source/") and k.endswith("/new_entries")
        ),
        "articles_requested": _int(stats, "sacorpus/article/requested"),
        "dropped": {
            **_by_suffix(stats, DROPPED),
            **{k: v for k, v in (("url-denied", _int(stats, "sacorpus/source/denied")),) if v},
            **{f"budget:{k}": v for k, v in _by_suffix(stats, "sacorpus/budget/").items()},
        },
        "extraction_problems": problems,
        "rules_distrusted": _by_suffix(stats, DISTRUSTED),
        "short_texts": int(items.get("short_texts") or 0),
        "duplicates": _int(stats, "sacorpus/dedup/duplicate"),
        "similar": _int(stats, "sacorpus/dedup/similar"),
        "overdue_feeds": list(feeds),
        "failures": run_failures(stats),
    }


__all__ = ["OVERDUE_FACTOR", "health_record", "overdue_feeds"]
