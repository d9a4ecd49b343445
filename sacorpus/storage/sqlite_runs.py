"""The SQLite store's run records: one health record per publication and run, and the run lock.

Why a file lock next to the database for "one run per spider": a lock row would stay behind when a run
is killed (kill -9), blocking every later run until someone deletes it; a ``flock`` on
``<corpus file>.<name>.lock`` ends with the process that held it (see :mod:`sacorpus.storage.filelock`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any

from sacorpus.storage.base import CANDIDATE_SORTS, StorageError
from sacorpus.storage.filelock import FileLock

RUNS_SCHEMA = """
CREATE TABLE IF NOT EXISTS run_health (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    publication TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_health_publication ON run_health(publication, finished_at);
CREATE TABLE IF NOT EXISTS source_candidates (
    url TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    host TEXT NOT NULL,
    count INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    seen_on TEXT,
    publications TEXT NOT NULL
);
"""
CANDIDATE_COLUMNS = ("url", "kind", "host", "count", "first_seen", "last_seen", "seen_on", "publications")


class SQLiteRunRecords:
    """The run-record and run-lock methods of :class:`sacorpus.storage.sqlite.SQLiteStore`."""

    path: str

    def _cursor(self, write: bool = False) -> AbstractContextManager[sqlite3.Cursor]:
        raise NotImplementedError  # the store's connection

    def add_run_record(self, record: Mapping[str, Any]) -> None:
        doc = json.dumps(dict(record), ensure_ascii=False, default=str)
        with self._cursor(write=True) as cur:
            cur.execute(
                "INSERT INTO run_health (publication, finished_at, data) VALUES (?, ?, ?)",
                (str(record.get("publication") or ""), str(record.get("finished_at") or ""), doc),
            )

    def run_records(self, publication: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        where, args = ("WHERE publication=?", [publication]) if publication else ("", [])
        with self._cursor() as cur:
            rows = cur.execute(
                f"SELECT data FROM run_health {where} ORDER BY finished_at DESC, id DESC LIMIT ?",
                [*args, int(limit)],
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    # --- source candidates ------------------------------------------------------------------------

    def add_source_candidates(self, sightings: list[Mapping[str, Any]]) -> None:
        """One write transaction: read the rows the batch touches, merge, write back (no lost count)."""
        if not sightings:
            return
        with self._cursor(write=True) as cur:
            urls = list({str(s["url"]) for s in sightings})
            known: dict[str, dict[str, Any]] = {}
            for i in range(0, len(urls), 500):
                chunk = urls[i : i + 500]
                marks = ",".join("?" * len(chunk))
                for row in cur.execute(f"SELECT * FROM source_candidates WHERE url IN ({marks})", chunk):
                    record = dict(zip(CANDIDATE_COLUMNS, row, strict=True))
                    record["publications"] = json.loads(record["publications"])
                    known[record["url"]] = record
            for sighting in sightings:
                url = str(sighting["url"])
                known[url] = merge_sighting(known.get(url), sighting)
            cur.executemany(
                f"INSERT OR REPLACE INTO source_candidates VALUES ({','.join('?' * len(CANDIDATE_COLUMNS))})",
                [
                    tuple(json.dumps(r[c]) if c == "publications" else r[c] for c in CANDIDATE_COLUMNS)
                    for r in known.values()
                ],
            )

    def source_candidates(self, sort: str = "count", limit: int = 100) -> list[dict[str, Any]]:
        column, descending = CANDIDATE_SORTS[sort]
        order = f"{column} {'DESC' if descending else 'ASC'}, url ASC"
        with self._cursor() as cur:
            rows = cur.execute(f"SELECT * FROM source_candidates ORDER BY {order} LIMIT ?", [int(limit)])
            out = [dict(zip(CANDIDATE_COLUMNS, row, strict=True)) for row in rows.fetchall()]
        for record in out:
            record["publications"] = json.loads(record["publications"])
        return out

    # --- the run lock ----------------------------------------------------------------------------

    def _lock_for(self, name: str) -> FileLock | None:
        if self.path == ":memory:":
            return None  # nothing else can open this store
        locks: dict[str, FileLock] = self.__dict__.setdefault("_run_locks", {})
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")
        return locks.setdefault(name, FileLock(f"{self.path}.{safe}.lock"))

    def acquire_run_lock(self, name: str, holder: str, seconds: float) -> str | None:
        lock = self._lock_for(name)
        try:
            return lock.acquire(holder) if lock is not None else None
        except OSError as exc:
            raise StorageError(f"cannot lock {lock.path if lock else name}: {exc}") from exc

    def renew_run_lock(self, name: str, holder: str, seconds: float) -> bool:
        lock = self._lock_for(name)
        return lock is None or lock.holder == holder  # a flock lasts as long as its process

    def release_run_lock(self, name: str, holder: str) -> None:
        lock = self._lock_for(name)
        if lock is not None and lock.holder == holder:
            lock.release()


def merge_sighting(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
    """A stored candidate with one more sighting: counts add, the seen dates widen."""
    publications = sorted({*(old or {}).get("publications", []), str(new.get("publication") or "")} - {""})
    if old is None:
        return {
            "url": str(new["url"]),
            "kind": str(new["kind"]),
            "host": str(new["host"]),
            "count": int(new.get("count") or 1),
            "first_seen": str(new["first_seen"]),
            "last_seen": str(new["last_seen"]),
            "seen_on": new.get("seen_on"),
            "publications": publications,
        }
    return {
        **old,
        "count": int(old["count"]) + int(new.get("count") or 1),
        "first_seen": min(str(old["first_seen"]), str(new["first_seen"])),
        "last_seen": max(str(old["last_seen"]), str(new["last_seen"])),
        "publications": publications,
    }


__all__ = ["RUNS_SCHEMA", "SQLiteRunRecords", "merge_sighting"]
