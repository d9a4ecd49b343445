"""The pure scheduling core: due times from poll states, the sped-up clock, the interval clamps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sacorpus.sources import pollstate
from sacorpus.sources.clock import Clock
from sacorpus.sources.schedule import backoff_seconds, due_now, next_due, plan

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def polled(*minutes: float, new: bool = True) -> dict:
    """A poll state after polls at these minutes past T0 (new entries at each when ``new``)."""
    state = pollstate.new_state()
    for i, m in enumerate(minutes):
        pollstate.record_poll(state, [f"g{i}"] if new or i == 0 else ["g0"], now=T0 + timedelta(minutes=m))
    return state


def test_a_publication_is_due_when_any_source_is_due_or_never_polled():
    busy = polled(0, 10, 20, 30)  # new entries every 10 min: proposes 5 min
    quiet = polled(0, 30, new=False)  # one event: the default 30 min
    sources = {"a": ["http://a/feed", "http://a/sitemap"], "b": ["http://b/feed"], "c": ["http://c/feed"]}
    states = {"http://a/feed": quiet, "http://a/sitemap": busy, "http://b/feed": quiet}
    plans = {p.slug: p for p in plan(sources, states)}
    assert plans["a"].due_at == T0 + timedelta(minutes=35)  # the busy sitemap decides
    assert plans["b"].due_at == T0 + timedelta(minutes=60)
    assert plans["c"].due_at is None and plans["c"].never_polled == ("http://c/feed",)
    at_36 = T0 + timedelta(minutes=36)
    assert [p.slug for p in due_now(plans.values(), at_36)] == ["c", "a"]  # never polled first
    assert next_due([plans["a"], plans["b"]], T0 + timedelta(minutes=31)) == T0 + timedelta(minutes=35)
    assert next_due([plans["a"], plans["b"]], at_36) == at_36  # one is overdue: now
    assert "interval 300 s" in plans["a"].reason() and "never polled" in plans["c"].reason()


def test_the_interval_is_the_one_proposed_at_the_last_poll():
    """A quiet feed's interval grows with its silence; the due time must not run away from the
    interval the crawl logged, however long the scheduler waits."""
    state = polled(0, 60, 200, new=False)
    proposed = pollstate.next_interval(state, T0 + timedelta(minutes=200))
    when = pollstate.due_at(state)
    assert when == T0 + timedelta(minutes=200, seconds=proposed)
    assert pollstate.due(state, when) and not pollstate.due(state, when - timedelta(seconds=1))


def test_publications_without_feed_or_sitemap_are_not_paced():
    (p,) = plan({"sections": []}, {})
    assert not p.paced and not p.is_due(T0) and next_due([p], T0) is None


def test_clamps_are_settings_and_checked():
    limits = pollstate.Limits(minimum=30, maximum=240, default=60)
    state = polled(0, 1, 2, 3)  # a new entry every minute: half of it, 30 s
    assert pollstate.next_interval(state, T0 + timedelta(minutes=3), limits) == 30
    assert pollstate.next_interval(state, T0 + timedelta(minutes=3)) == pollstate.MIN_INTERVAL
    with pytest.raises(ValueError, match="minimum"):
        pollstate.Limits(minimum=600, maximum=300, default=400)


def test_backoff_doubles_up_to_its_maximum():
    assert [backoff_seconds(n, 60, 300) for n in range(5)] == [0, 60, 120, 240, 300]


def test_a_sped_up_clock_and_its_settings_agree():
    real = iter([1000.0, 1010.0])
    clock = Clock(1000.0, 6.0, real=lambda: next(real))
    assert clock.timestamp() == 1000.0 and clock.timestamp() == 1060.0
    assert clock.real_seconds(60) == 10
    again = Clock.from_values(**{k.split("_")[-1].lower(): v for k, v in clock.settings().items()})
    assert (again.origin, again.speed) == (1000.0, 6.0)
    assert Clock.from_values("", "").settings() == {} and not Clock().simulated
    with pytest.raises(ValueError):
        Clock.from_values(None, "0")
