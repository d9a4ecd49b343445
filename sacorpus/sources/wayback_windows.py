"""Wayback backfill in calendar-month windows, and the log of which windows are finished.

Monthly windows keep each CDX query small enough to finish and make an interrupted backfill
resumable at month granularity. Pure: the spider's Wayback sources keep the log in the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any


def month_windows(start: date, end: date) -> list[tuple[date, date]]:
    """Calendar-month windows covering ``start``..``end`` (inclusive, clipped at both ends).

    Monthly windows keep each CDX query small enough to finish and make an interrupted backfill
    resumable at month granularity (see :class:`WindowLog`).
    """
    if end < start:
        return []
    windows = []
    cursor = start
    while cursor <= end:
        next_month = date(cursor.year + cursor.month // 12, cursor.month % 12 + 1, 1)
        last = min(end, next_month - timedelta(days=1))
        windows.append((cursor, last))
        cursor = next_month
    return windows


def window_key(query: str, window: tuple[date, date]) -> str:
    return f"{query}|{window[0].isoformat()}|{window[1].isoformat()}"


@dataclass
class WindowLog:
    """Which (query, window) pairs are finished, and where an unfinished one stopped.

    A plain-dict round trip (:meth:`to_dict` / :meth:`from_dict`) lets the spider keep it in
    ``spider.state`` (persisted under JOBDIR) or in the store, so a restarted backfill skips
    finished months and resumes a half-done month from its last resume key.
    """

    done: set[str] = field(default_factory=set)
    resume_keys: dict[str, str] = field(default_factory=dict)

    def is_done(self, query: str, window: tuple[date, date]) -> bool:
        return window_key(query, window) in self.done

    def resume_key(self, query: str, window: tuple[date, date]) -> str | None:
        return self.resume_keys.get(window_key(query, window))

    def record_page(self, query: str, window: tuple[date, date], resume_key: str | None) -> None:
        """After a page was fully processed: remember the next key, or mark the window done."""
        key = window_key(query, window)
        if resume_key:
            self.resume_keys[key] = resume_key
        else:
            self.resume_keys.pop(key, None)
            self.done.add(key)

    def to_dict(self) -> dict[str, Any]:
        return {"done": sorted(self.done), "resume_keys": dict(self.resume_keys)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> WindowLog:
        data = data or {}
        return cls(done=set(data.get("done", ())), resume_keys=dict(data.get("resume_keys", {})))
