"""Corpus size per group (publication, language, month, dedup label, page type).

Why the store's groups: ``token_count`` and ``word_count`` are written by the tokenize stage, and the
store sums them per (publication, month, language, label, page type) in one indexed query
(``ArticleStore.group_counts``), so no article is read; :meth:`CorpusStats.add_group` folds those rows
into the table and the monthly plot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sacorpus.storage.counts import month_of

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
#: the fields of a group row from ``ArticleStore.group_counts``, in order
GROUP_ROW = ("publication", "published_at", "language", "dedup_label", "page_type")


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
    unit: str = "articles"  # what a row counts: "articles" or "comments" (the header says which)
    groups: dict[str, GroupTotals] = field(default_factory=dict)
    total: GroupTotals = field(default_factory=GroupTotals)
    monthly: Counter[tuple[str, str]] = field(default_factory=Counter)
    undated: int = 0

    def __post_init__(self) -> None:
        if self.by not in GROUP_BY:
            raise ValueError(f"cannot group by {self.by!r}; use one of {', '.join(GROUP_BY)}")

    def add(self, record: Mapping[str, Any]) -> None:
        self.add_group(record, 1, _int(record.get("token_count")), _int(record.get("word_count")))

    def add_group(self, record: Mapping[str, Any], articles: int, tokens: int, words: int) -> None:
        """Count ``articles`` articles with these fields and these token and word totals."""
        for totals in (self.groups.setdefault(group_value(record, self.by), GroupTotals()), self.total):
            totals.articles += articles
            totals.tokens += tokens
            totals.words += words
        month = month_of(record.get("published_at"))
        if month is None:
            self.undated += articles
        else:
            self.monthly[(str(record.get("publication") or NONE_LABEL), month)] += articles

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
        lines = [f"{self.by}\t{self.unit}\ttokens\twords"]
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
