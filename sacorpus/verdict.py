"""Did a run do its job? The verdict ``scrapy crawl`` turns into its exit status.

Why: cron, systemd and scrapyd alert on a non-zero exit, and a crawl that spilled articles, lost them,
could not reach its store or could read none of its sources used to end "finished", exit 0. The verdict
is read from the run's stats (so it is testable on a stats dict, and a distributed worker's stats say the
same): each failure is one line saying what happened and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: a component that refuses the run sets this stat to its one-line reason (e.g. the store is unreachable)
REFUSED = "sacorpus/run/refused"
_SOURCE_READ = ("/documents", "/not_modified", "/cdx_pages", "/homepage_versions")


def _sum(stats: Mapping[str, Any], prefix: str, suffixes: tuple[str, ...]) -> int:
    return sum(
        int(v)
        for k, v in stats.items()
        if k.startswith(prefix) and k.endswith(suffixes) and isinstance(v, int | float)
    )


def run_failures(stats: Mapping[str, Any]) -> list[str]:
    """One line per reason the run failed at its job; empty when it did what it could."""
    failures = []
    refused = stats.get(REFUSED)
    if refused:
        failures.append(f"run refused: {refused}")
    spilled = int(stats.get("sacorpus/store/spilled", 0) or 0)
    if spilled:
        where = stats.get("sacorpus/store/spill_path") or "the spill file"
        failures.append(
            f"{spilled} articles could not be stored and were spilled to {where}; "
            "they are re-imported when this store next opens"
        )
    lost = int(stats.get("sacorpus/store/lost", 0) or 0)
    if lost:
        failures.append(f"{lost} articles were LOST: the store and its spill file could not be written")
    failed_sources = _sum(stats, "sacorpus/source/", ("/failed",))
    if failed_sources and not _sum(stats, "sacorpus/source/", _SOURCE_READ):
        failures.append(f"every source failed ({failed_sources} feed/sitemap/archive requests, none read)")
    return failures


__all__ = ["REFUSED", "run_failures"]
