"""When a comment thread is read again, and when it is done: the pure core of comment scheduling.

Why re-poll: readers keep commenting for days after a story runs, so a thread read once on the day
it was found misses most of its comments. A thread is read again every ``interval`` (daily by default,
``SACORPUS_COMMENTS_POLL_INTERVAL``) until it is closed or older than ``max_age``
(``SACORPUS_COMMENTS_MAX_AGE_DAYS``, counted from the thread's creation, else the article's date, else
its first poll); the poll that finds it so reads it one last time and marks it done. A done thread
costs no request again.

A thread's state is a plain dict kept in the store (``CommentStorage.set_thread``): ``key``,
``publication``, ``article_url``, ``kind`` (disqus | page), ``forum``, ``identifier``, ``link``,
``thread_id``, ``created_at``, ``first_polled``, ``last_polled``, ``next_poll``, ``polls``,
``comments`` (how many the last poll read), ``closed``, ``done`` and ``done_reason``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sacorpus.sources.dates import parse_date, to_utc_iso

DAY = 86_400


def new_thread(
    key: str, publication: str, article_url: str, kind: str, now: str, **found: Any
) -> dict[str, Any]:
    """The state of a thread found on a page: due at once."""
    return {
        "key": key,
        "publication": publication,
        "article_url": article_url,
        "kind": kind,
        "first_polled": None,
        "last_polled": None,
        "next_poll": now,
        "polls": 0,
        "comments": 0,
        "closed": False,
        "done": False,
        "done_reason": None,
        **found,
    }


def is_due(state: dict[str, Any] | None, now: str) -> bool:
    """True when the thread is to be read now (unknown threads are)."""
    if state is None:
        return True
    return not state.get("done") and str(state.get("next_poll") or "") <= now


def _when(value: str | None) -> datetime | None:
    """A stored time; read exactly (a sped-up clock's times lie ahead of the real date, which
    :func:`parse_date` refuses as implausible), other forms through the one date parser."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return parse_date(value, allow_text=False)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def after_poll(
    state: dict[str, Any],
    now: str,
    *,
    closed: bool,
    comments: int,
    interval: float = DAY,
    max_age_days: float = 30,
) -> dict[str, Any]:
    """The state after a complete read of the thread at ``now``: done when closed or too old, else
    due again ``interval`` seconds later."""
    out = dict(state)
    out.update(last_polled=now, polls=int(state.get("polls") or 0) + 1, comments=comments, closed=closed)
    out["first_polled"] = state.get("first_polled") or now
    born = (
        _when(state.get("created_at"))
        or _when(state.get("article_published_at"))
        or _when(out["first_polled"])
    )
    at = _when(now)
    too_old = born is not None and at is not None and at - born >= timedelta(days=max_age_days)
    if closed or too_old:
        out.update(done=True, done_reason="closed" if closed else "too-old", next_poll=None)
    else:
        out["next_poll"] = to_utc_iso(at + timedelta(seconds=max(0.0, interval))) if at else now
    return out


__all__ = ["DAY", "after_poll", "is_due", "new_thread"]
