"""Alarms: what in a run's health record a person should look at (no Scrapy).

Why judged against the publication's own earlier runs: "no new articles" is normal for a weekly
paper polled hourly and alarming for a daily one; the feeds' own pace (``overdue_feeds`` in the
record) and the earlier runs' counts tell them apart without a threshold per publication.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

#: earlier runs needed before "fewer new articles than usual" is judged
MIN_EARLIER_RUNS = 3


def _duration(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}".replace(".0 ", " ")
    return f"{seconds} s"


def _errors(record: Mapping[str, Any]) -> str | None:
    by_status = {str(k): int(v) for k, v in (record.get("responses_by_status") or {}).items()}
    bad = {k: v for k, v in by_status.items() if k[:1] in ("4", "5") and k not in ("404", "304")}
    total = sum(by_status.values())
    if total and sum(bad.values()) * 2 >= total:
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(bad.items(), key=lambda kv: -kv[1]))
        return f"most responses were refusals or server errors ({shown} of {total}): blocked?"
    return None


def alarms(
    record: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]] = (), *, short_share: float = 0.5
) -> list[str]:
    """One line per alarm for ``record``; ``earlier`` are the publication's previous runs, newest first."""
    out = [str(line) for line in record.get("failures") or []]
    for feed in record.get("overdue_feeds") or []:
        out.append(
            f"no new items from {feed['url']} for {_duration(int(feed['silent_seconds']))}, "
            f"usually every {_duration(int(feed['usual_gap_seconds']))}: a moved feed or a block?"
        )
    scraped, short = int(record.get("articles_scraped") or 0), int(record.get("short_texts") or 0)
    if scraped >= 3 and short >= short_share * scraped:
        out.append(f"{short} of {scraped} article texts empty or very short: a bot wall or a paywall?")
    errors = _errors(record)
    if errors:
        out.append(errors)
    distrusted = record.get("rules_distrusted") or {}
    if distrusted:
        out.append(
            "rules distrusted: " + ", ".join(f"{k} on {v} page(s)" for k, v in sorted(distrusted.items()))
        )
    usual = [int(r.get("articles_new") or 0) for r in earlier if not r.get("failures")]
    if len(usual) >= MIN_EARLIER_RUNS and not record.get("articles_new") and statistics.median(usual) >= 1:
        out.append(
            f"no new articles; the last {len(usual)} good runs brought {statistics.median(usual):g} (median)"
        )
    return out


__all__ = ["alarms"]
