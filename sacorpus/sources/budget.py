"""A budget per source: how much one feed or sitemap may put in front of the crawl in one run.

Why: a feed with 100,000 items, or a sitemap index that fans out 8 ways at every level, used to queue
everything it listed ahead of every other source's articles (and cost thousands of requests), whether
by mistake or by design. Each source document now gives at most ``max_entries`` article entries, the
newest first; a sitemap index gives at most ``max_children`` child documents, the newest first; a run
fetches at most ``max_documents`` sitemap documents in all. What is left out is counted, never silent,
and comes in on the next run (the already-stored check skips what was taken). Article requests are
ranked within their source so that the crawl takes the first entries of every source before the later
entries of any (:func:`interleave_priority`). Pure: no Scrapy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

#: Article requests of one source share a priority in blocks of this many entries: entry 0-49 of every
#: source before entry 50-99 of any. Few distinct priorities keep the disk queue to a few files.
INTERLEAVE_BLOCK = 50
INTERLEAVE_BLOCKS = 40


def _date_key(fallback: Mapping[str, Any]) -> str:
    return str(fallback.get("published") or fallback.get("lastmod") or "")


def newest_first(candidates: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, Mapping[str, Any]]]:
    """Entries with a date, newest first, then those without, in document order (stable)."""
    dated = sorted((c for c in candidates if _date_key(c[1])), key=lambda c: _date_key(c[1]), reverse=True)
    return dated + [c for c in candidates if not _date_key(c[1])]


def interleave_priority(rank: int) -> int:
    """The priority of the ``rank``-th article request of a source (0 for the first block, then lower)."""
    return -min(rank // INTERLEAVE_BLOCK, INTERLEAVE_BLOCKS)


@dataclass
class SourceBudget:
    """Limits of one run (0: no limit) and what the run has taken so far."""

    max_entries: int = 0
    max_children: int = 0
    max_documents: int = 0
    documents: int = 0

    def entries(self, candidates: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[list[Any], int]:
        """The entries of one source document to take and how many are left out: within the budget all
        of them, in the document's order; over it the newest ``max_entries``, still in document order."""
        if not self.max_entries or len(candidates) <= self.max_entries:
            return list(candidates), 0
        taken = {id(c) for c in newest_first(candidates)[: self.max_entries]}
        return [c for c in candidates if id(c) in taken], len(candidates) - self.max_entries

    def children(
        self, urls: Sequence[str], lastmods: Mapping[str, str] | None = None
    ) -> tuple[list[str], int]:
        """The child sitemaps of one index to fetch (newest first, within both limits) and how many are
        left out. Taking them counts against the run's document limit."""
        lastmods = lastmods or {}
        dated = sorted((u for u in urls if lastmods.get(u)), key=lambda u: lastmods[u], reverse=True)
        ordered = dated + [u for u in urls if not lastmods.get(u)]
        limit = len(ordered)
        if self.max_children:
            limit = min(limit, self.max_children)
        if self.max_documents:
            limit = min(limit, max(0, self.max_documents - self.documents))
        self.documents += limit
        return ordered[:limit], len(ordered) - limit


__all__ = ["INTERLEAVE_BLOCK", "SourceBudget", "interleave_priority", "newest_first"]
