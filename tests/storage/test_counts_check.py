"""The streamed check of the kept word counts names every difference from a recount, and only those."""

from __future__ import annotations

from typing import Any

import pytest

from sacorpus.storage.counts import ALL, CountDelta, KeptCount
from sacorpus.storage.counts_check import streamed_differences


def record(url: str, tokens: list[str], month: str = "2024-01", **fields: Any) -> dict[str, Any]:
    return {
        "url": url,
        "publication": "mg",
        "language": "en",
        "published_at": f"{month}-05T08:00:00Z",
        "tokens": tokens,
        **fields,
    }


RECORDS = [
    record("u1", ["Land", "reform", "is", "back", "."]),
    record("u2", ["land", "prices", "rose", "."], month="2024-02"),
    record("u3", ["Land", "again"], dedup_label="duplicate"),
]


def kept_of(records: list[dict[str, Any]]) -> list[KeptCount]:
    """What a store keeps for these records (the same CountDelta the stores apply)."""
    delta = CountDelta()
    for r in records:
        delta.add(r)
    words: list[KeptCount] = [(k, w, (n,)) for (k, w), n in delta.settle().items()]
    return words + [(k, None, tuple(v)) for k, v in delta.totals.items()]


@pytest.mark.parametrize("buffer", [1, 1000])  # the recount written out per entry, or all at once
def test_equal_counts_give_no_line(buffer: int) -> None:
    assert streamed_differences(kept_of(RECORDS), iter(RECORDS), buffer=buffer) == []


@pytest.mark.parametrize("buffer", [1, 1000])
def test_each_difference_is_named(buffer: int) -> None:
    key = ("mg", "2024-01", "en", 0)
    kept = [
        (k, w, (v[0] + 1,)) if (k, w) == (key, "reform") else (k, w, v)  # one count too high
        for k, w, v in kept_of(RECORDS)
        if (k, w) != (("mg", "2024-02", "en", 0), "prices")  # one word missing from the counts
    ]
    kept.append((key, "ghost", (2,)))  # a word no article has
    kept = [(k, w, (9, 9, 9)) if w is None and k == (ALL, ALL, ALL, 1) else (k, w, v) for k, w, v in kept]
    lines = streamed_differences(kept, iter(RECORDS), buffer=buffer)
    assert lines == [
        "word (('mg', '2024-01', 'en', 0), 'ghost'): kept 2, recount 0",
        "word (('mg', '2024-01', 'en', 0), 'reform'): kept 2, recount 1",
        "word (('mg', '2024-02', 'en', 0), 'prices'): kept 0, recount 1",
        f"totals {(ALL, ALL, ALL, 1)}: kept [9, 9, 9], recount [1, 2, 2]",
    ]
