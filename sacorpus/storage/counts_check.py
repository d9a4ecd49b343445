"""The kept word counts against a full recount, in bounded memory.

Why not two dicts: a corpus keeps one count per (publication, month, language, label, word), 3.6
million rows at 10,000 articles; holding them and the recount as Python dicts took 1.5 GB at 3,000
articles. Here both sides are written to a temporary SQLite file (the recount summed in memory up
to :data:`BUFFER` entries at a time) and compared by one GROUP BY, which SQLite sorts on disk. The
totals per key (a few thousand) stay in memory.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

from sacorpus.storage.counts import CountDelta, CountKey, KeptCount

#: recount entries summed in memory before they are written out (about 200 bytes each)
BUFFER = 200_000


def streamed_differences(
    kept: Iterable[KeptCount], records: Iterable[Mapping[str, Any]], limit: int = 20, buffer: int = BUFFER
) -> list[str]:
    """Lines naming where ``kept`` differs from the recount of ``records`` (empty: they agree);
    the lines of :func:`sacorpus.storage.counts.differences`."""
    with tempfile.TemporaryDirectory(prefix="sacorpus-counts-") as folder:
        db = sqlite3.connect(os.path.join(folder, "counts.sqlite"), isolation_level=None)
        try:
            for pragma in ("journal_mode=OFF", "synchronous=OFF", "cache_size=-8192", "temp_store=FILE"):
                db.execute(f"PRAGMA {pragma}")
            db.execute(
                "CREATE TABLE c (p TEXT, m TEXT, l TEXT, d INTEGER, w TEXT, kept INTEGER, fresh INTEGER)"
            )
            db.execute("BEGIN")
            kept_totals = _load_kept(db, kept)
            fresh_totals = _load_recount(db, records, buffer)
            db.execute("COMMIT")
            out = [
                f"word {((p, m, lang, d), w)}: kept {a}, recount {b}"
                for p, m, lang, d, w, a, b in db.execute(
                    "SELECT p, m, l, d, w, SUM(kept), SUM(fresh) FROM c GROUP BY p, m, l, d, w "
                    "HAVING SUM(kept) != SUM(fresh) ORDER BY p, m, l, d, w LIMIT ?",
                    (limit,),
                )
            ]
        finally:
            db.close()
    for key in sorted(set(kept_totals) | set(fresh_totals), key=repr):
        ta, tb = kept_totals.get(key, [0, 0, 0]), fresh_totals.get(key, [0, 0, 0])
        if ta != tb:
            out.append(f"totals {key}: kept {ta}, recount {tb}")
    return out[:limit]


def _load_kept(db: sqlite3.Connection, kept: Iterable[KeptCount]) -> dict[CountKey, list[int]]:
    totals: dict[CountKey, list[int]] = {}
    rows: list[tuple[Any, ...]] = []
    for key, word, values in kept:
        if word is None:
            totals[key] = list(values)
            continue
        rows.append((*key, word, values[0], 0))
        if len(rows) >= 10_000:
            db.executemany("INSERT INTO c VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            rows.clear()
    db.executemany("INSERT INTO c VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    return totals


def _load_recount(
    db: sqlite3.Connection, records: Iterable[Mapping[str, Any]], buffer: int
) -> dict[CountKey, list[int]]:
    totals: dict[CountKey, list[int]] = {}
    delta = CountDelta()

    def flush() -> None:
        db.executemany(
            "INSERT INTO c VALUES (?, ?, ?, ?, ?, 0, ?)", ((*k, w, n) for (k, w), n in delta.settle().items())
        )
        delta.words.clear()

    every = max(1, min(100, buffer))  # settling the tallies per article costs more than per batch
    for i, record in enumerate(records, start=1):
        delta.add(record)
        if i % every == 0 and len(delta.settle()) >= buffer:
            flush()
    flush()
    for key, values in delta.totals.items():
        totals[key] = list(values)
    return totals
