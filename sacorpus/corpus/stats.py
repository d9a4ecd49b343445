"""Corpus size per group (publication, language, month, dedup label, page type).

Why the stored counts: ``token_count`` and ``word_count`` are written by the tokenize stage, so the
stats read two integers per article instead of every token list (fast over MongoDB too).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GROUP_BY = ("publication", "language", "month", "dedup_label", "page_type")
STATS_FIELDS = (
    "url",
    "publication",
    "language",
    "published_at",
    "dedup_label",
    "page_type",
    "token_count",
    "word_count",
)
NONE_LABEL = "(none)"
_MONTH = re.compile(r"^(\d{4})-(\d{2})")


def month_of(published_at: Any) -> str | None:
    """``YYYY-MM`` of a UTC ISO date, or None when there is no usable date."""
    if not isinstance(published_at, str):
        return None
    m = _MONTH.match(published_at)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return None
    return f"{m.group(1)}-{m.group(2)}"


def group_value(record: Mapping[str, Any], by: str) -> str:
    """The group an article belongs to under ``by``; ``(none)`` when the field is empty."""
    if by not in GROUP_BY:
        raise ValueError(f"cannot group by {by!r}; use one of {', '.join(GROUP_BY)}")
    value = month_of(record.get("published_at")) if by == "month" else record.get(by)
    return str(value) if value not in (None, "") else NONE_LABEL


def _int(value: Any) -> int:
    try:
        return max(0, int(value))
    except (TypeError, ValueError):
        return 0


@dataclass
class GroupTotals:
    articles: int = 0
    tokens: int = 0
    words: int = 0


@dataclass
class CorpusStats:
    """Totals per group plus articles per (publication, month) for the plot."""

    by: str = "publication"
    groups: dict[str, GroupTotals] = field(default_factory=dict)
    total: GroupTotals = field(default_factory=GroupTotals)
    monthly: Counter[tuple[str, str]] = field(default_factory=Counter)
    undated: int = 0

    def __post_init__(self) -> None:
        if self.by not in GROUP_BY:
            raise ValueError(f"cannot group by {self.by!r}; use one of {', '.join(GROUP_BY)}")

    def add(self, record: Mapping[str, Any]) -> None:
        tokens, words = _int(record.get("token_count")), _int(record.get("word_count"))
        for totals in (self.groups.setdefault(group_value(record, self.by), GroupTotals()), self.total):
            totals.articles += 1
            totals.tokens += tokens
            totals.words += words
        month = month_of(record.get("published_at"))
        if month is None:
            self.undated += 1
        else:
            self.monthly[(str(record.get("publication") or NONE_LABEL), month)] += 1

    def rows(self) -> list[tuple[str, GroupTotals]]:
        """Groups in order: months chronologically, other groups by descending article count."""
        items = list(self.groups.items())
        if self.by == "month":
            items.sort(key=lambda kv: (kv[0] == NONE_LABEL, kv[0]))
        else:
            items.sort(key=lambda kv: (-kv[1].articles, kv[0]))
        return items

    def table(self) -> list[str]:
        """TSV lines: header, one line per group, then the total."""
        lines = [f"{self.by}\tarticles\ttokens\twords"]
        for name, t in self.rows():
            lines.append(f"{name}\t{t.articles}\t{t.tokens}\t{t.words}")
        lines.append(f"TOTAL\t{self.total.articles}\t{self.total.tokens}\t{self.total.words}")
        return lines


MAX_MONTHS = 1200  # a century; a bogus date (year 0001) must not make a million-point axis


def month_range(months: list[str]) -> list[str]:
    """Every month from the first to the last of ``months`` (gaps filled), in order.

    When that would be more than MAX_MONTHS, only the months present are returned.
    """
    if not months:
        return []
    first, last = min(months), max(months)
    y, m = int(first[:4]), int(first[5:7])
    end = (int(last[:4]), int(last[5:7]))
    if (end[0] - y) * 12 + end[1] - m >= MAX_MONTHS:
        return sorted(set(months))
    out = []
    while (y, m) <= end:
        out.append(f"{y:04d}-{m:02d}")
        m += 1
        if m > 12:
            y, m = y + 1, 1
    return out
