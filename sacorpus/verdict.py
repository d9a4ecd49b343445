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
    spilled_comments = _int(stats, "sacorpus/comments/store/spilled")
    if spilled_comments:
        where = stats.get("sacorpus/comments/store/spill_path") or "the comments' spill file"
        failures.append(
            f"{spilled_comments} comments were spilled to {where}; re-imported when the store next opens"
        )
    if _int(stats, "sacorpus/comments/store/lost"):
        failures.append(
            f"{_int(stats, 'sacorpus/comments/store/lost')} comments were LOST: store and spill file unwritable"
        )
    failed_sources = _sum(stats, "sacorpus/source/", ("/failed",))
    if failed_sources and not _sum(stats, "sacorpus/source/", _SOURCE_READ):
        failures.append(f"every source failed ({failed_sources} feed/sitemap/archive requests, none read)")
    if stats.get("sacorpus/run/lock_lost"):
        failures.append(
            "the run lock was lost while crawling: another run of this spider may have run at once"
        )
    if stats.get("sacorpus/health/not_written"):
        failures.append(
            f"the run's health record could not be written: {stats['sacorpus/health/not_written']}"
        )
    if not refused:
        failures += _did_nothing(stats)
    return failures


def stopped_unfinished(stats: Mapping[str, Any]) -> str | None:
    """The crawl started and never finished: the reactor stopped under it (a forced stop, a second
    SIGTERM or Ctrl-C). No stage was closed, so pages in flight (downloading, in extraction) are not
    in the store; the store stage spills what it held. Why it fails the run: a graceful stop finishes
    ("shutdown") and resumes cleanly, this one did not."""
    if "start_time" in stats and "finish_reason" not in stats:
        return (
            "stopped by force before the crawl finished: pages in flight were not stored "
            "(one SIGTERM or Ctrl-C stops gracefully)"
        )
    return None


def _did_nothing(stats: Mapping[str, Any]) -> list[str]:
    """A run that fetched nothing, or asked for new articles and got none, did not do its job.

    A run that finds nothing new (feeds read, everything already stored) asks for no article and
    passes; one whose article requests all failed (a bot wall, a changed site) does not.
    """
    requests = _int(stats, "downloader/request_count")
    if requests and not _int(stats, "downloader/response_count"):
        return [f"fetched nothing: {requests} requests, no response (offline, DNS, or the site refused us?)"]
    wanted = _int(stats, "sacorpus/article/requested")
    if wanted and not _int(stats, "item_scraped_count") and stats.get("finish_reason") == "finished":
        failed = _int(stats, "sacorpus/article/failed")
        return [
            f"stored nothing: {wanted} new articles were found, none arrived ({failed} failed to download)"
        ]
    return []


def _int(stats: Mapping[str, Any], key: str) -> int:
    value = stats.get(key, 0)
    return int(value) if isinstance(value, int | float) else 0


__all__ = ["REFUSED", "run_failures", "stopped_unfinished"]
