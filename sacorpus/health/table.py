"""The history table of ``scrapy health`` (no Scrapy): one line per run, its alarms below.

Why alarms judged here again rather than stored: a record keeps what the run counted; whether that is
alarming depends on the runs around it (the publication's usual yield), which a later run can change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sacorpus.health.alarms import alarms

COLUMNS = (
    ("finished (UTC)", 16),
    ("publication", 14),
    ("reason", 10),
    ("requests", 8),
    ("responses", 9),
    ("errors", 6),
    ("new", 5),
    ("updated", 7),
    ("unchanged", 9),
    ("dropped", 7),
    ("problems", 8),
    ("distrusted", 10),
    ("short", 5),
    ("dups", 5),
    ("alarms", 6),
)


def _errors(record: Mapping[str, Any]) -> int:
    by_status = record.get("responses_by_status") or {}
    return sum(int(v) for k, v in by_status.items() if str(k)[:1] in ("4", "5")) + int(
        record.get("fetch_errors") or 0
    )


def judged(
    records: Sequence[Mapping[str, Any]], shown: int, short_share: float = 0.5, history: int = 10
) -> list[tuple[Mapping[str, Any], list[str]]]:
    """The newest ``shown`` records (newest first) with their alarms, each judged against the older
    records of its publication in ``records`` (which may reach further back than ``shown``)."""
    out = []
    for i, record in enumerate(records[:shown]):
        pub = record.get("publication")
        earlier = [r for r in records[i + 1 :] if r.get("publication") == pub][:history]
        out.append((record, alarms(record, earlier, short_share=short_share)))
    return out


def row(record: Mapping[str, Any], found: list[str]) -> list[str]:
    finished = str(record.get("finished_at") or "")[:16].replace("T", " ")
    return [
        finished,
        str(record.get("publication") or ""),
        str(record.get("finish_reason") or ""),
        str(record.get("requests", 0)),
        str(record.get("responses", 0)),
        str(_errors(record)),
        str(record.get("articles_new", 0)),
        str(record.get("articles_updated", 0)),
        str(record.get("articles_unchanged", 0)),
        str(sum((record.get("dropped") or {}).values())),
        str(sum((record.get("extraction_problems") or {}).values())),
        str(sum((record.get("rules_distrusted") or {}).values())),
        str(record.get("short_texts", 0)),
        str(record.get("duplicates", 0)),
        str(len(found)) if found else "-",
    ]


def format_table(rows: Sequence[tuple[Mapping[str, Any], list[str]]]) -> str:
    """The table, oldest run first (as a log reads), then every alarm, one line each."""
    widths = [w for _name, w in COLUMNS]
    cells = [row(record, found) for record, found in reversed(rows)]
    for line in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, line, strict=True)]
    lines = ["  ".join(name.ljust(w) for (name, _), w in zip(COLUMNS, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in cells]
    alarm_lines = [
        f"  {row(record, found)[0]} {record.get('publication')}: {text}"
        for record, found in reversed(rows)
        for text in found
    ]
    if alarm_lines:
        lines += ["", "alarms:", *alarm_lines]
    return "\n".join(lines)


__all__ = ["format_table", "judged"]
