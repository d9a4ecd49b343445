"""Fixtures for the Wayback backfill tests: a loopback replay of The New Age's 2013 captures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from thenewage_captures import build_captures

from sacorpus.testing.wayback_replay import WaybackReplay


@pytest.fixture
def thenewage_replay() -> Iterator[tuple[WaybackReplay, list]]:
    captures, stories = build_captures(2013)
    # The first CDX call is refused with 429 + Retry-After: 1, as the real API does under load.
    with WaybackReplay(captures, rate_limit_first=1, retry_after="1") as replay:
        yield replay, stories
