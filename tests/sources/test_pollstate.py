"""Feed poll state and the adaptive interval."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sacorpus.sources import pollstate
from sacorpus.sources.pollstate import (
    MAX_INTERVAL,
    MIN_INTERVAL,
    conditional_headers,
    due,
    new_state,
    next_interval,
    record_poll,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _busy_state(gap_minutes: int, events: int = 10) -> dict:
    state = new_state()
    for i in range(events):
        record_poll(state, [f"g{i}"], now=T0 + timedelta(minutes=gap_minutes * i))
    return state


def test_new_guids_and_validators():
    state = new_state()
    assert record_poll(
        state, ["a", "b"], etag='"v1"', last_modified="Thu, 01 Jan 2026 00:00:00 GMT", now=T0
    ) == [
        "a",
        "b",
    ]
    assert record_poll(state, ["b", "c", "a"], now=T0 + timedelta(minutes=5)) == ["c"]
    assert conditional_headers(state) == {
        "If-None-Match": '"v1"',
        "If-Modified-Since": "Thu, 01 Jan 2026 00:00:00 GMT",
    }
    assert record_poll(state, not_modified=True, now=T0 + timedelta(minutes=10)) == []
    assert state["etag"] == '"v1"'
    assert json.loads(json.dumps(state)) == state  # plain, storable


def test_seen_is_bounded(monkeypatch):
    monkeypatch.setattr(pollstate, "MAX_SEEN", 10)
    state = new_state()
    record_poll(state, [f"g{i}" for i in range(25)], now=T0)
    assert len(state["seen"]) == 10 and state["seen"][-1] == "g24"


def test_interval_follows_the_feed_rate():
    busy = next_interval(_busy_state(20), now=T0 + timedelta(minutes=185))
    slow = next_interval(_busy_state(240), now=T0 + timedelta(hours=37))
    assert busy == 600  # half the 20-minute gap
    assert slow == 7200
    assert busy < slow


def test_interval_clamped():
    assert next_interval(_busy_state(1), now=T0 + timedelta(minutes=10)) == MIN_INTERVAL
    assert next_interval(_busy_state(60 * 24 * 7, events=3), now=T0 + timedelta(days=15)) == MAX_INTERVAL
    assert MIN_INTERVAL <= next_interval(new_state()) <= MAX_INTERVAL


def test_quiet_feed_backs_off():
    state = _busy_state(20)
    soon = next_interval(state, now=T0 + timedelta(hours=3, minutes=10))
    later = next_interval(state, now=T0 + timedelta(hours=12))
    assert later > soon


def test_empty_polls_back_off():
    state = _busy_state(20)
    now = T0 + timedelta(minutes=185)
    before = next_interval(state, now=now)
    for i in range(6):
        record_poll(state, ["g1"], now=now + timedelta(minutes=i))
    assert next_interval(state, now=now) > before


def test_due():
    state = new_state()
    assert due(state, now=T0)
    record_poll(state, ["a"], now=T0)
    assert not due(state, now=T0 + timedelta(seconds=MIN_INTERVAL - 1))
    assert due(state, now=T0 + timedelta(seconds=MAX_INTERVAL))


def test_bad_state_values_do_not_crash():
    state = {"history": ["garbage", None, "2026-01-01T00:00:00"], "last_poll": "nope"}
    assert MIN_INTERVAL <= next_interval(state, now=T0) <= MAX_INTERVAL
    assert due(state, now=T0)
