"""The MongoDB store's run records: one health record per publication and run, and the run lock.

Why a lease for the run lock: crawls on several machines share one MongoDB, so no file lock can see
them all. A lease document (``run_locks``: ``_id`` the lock's name, its holder and an expiry) is taken
only when absent, expired or already ours, in one atomic upsert; the run renews it while it crawls, so
a killed run blocks the next one for one lease length at most, and not at all on the same machine: a
lease whose holder's process is gone from this host is taken over at once.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping
from typing import Any

from pymongo import ASCENDING, DESCENDING, UpdateOne
from pymongo.errors import DuplicateKeyError, PyMongoError

from sacorpus.storage.base import CANDIDATE_SORTS
from sacorpus.storage.mongo_dedup import MongoFailFast


class MongoRunRecords(MongoFailFast):
    """The run-record and run-lock methods of :class:`sacorpus.storage.mongo.MongoStore`."""

    @property
    def db(self) -> Any:
        raise NotImplementedError  # the store's database

    def add_run_record(self, record: Mapping[str, Any]) -> None:
        try:
            self.db.run_health.insert_one(dict(record))
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def run_records(self, publication: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        query = {"publication": publication} if publication else {}
        try:
            docs = self.db.run_health.find(query, {"_id": False}).sort(
                [("finished_at", DESCENDING), ("_id", DESCENDING)]
            )
            return [dict(doc) for doc in docs.limit(int(limit))]
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    # --- source candidates ------------------------------------------------------------------------

    def add_source_candidates(self, sightings: list[Mapping[str, Any]]) -> None:
        """One bulk write of atomic upserts ($inc, $min, $max): runs merging at once lose no count."""
        ops = [
            UpdateOne(
                {"_id": str(s["url"])},
                {
                    "$inc": {"count": int(s.get("count") or 1)},
                    "$min": {"first_seen": str(s["first_seen"])},
                    "$max": {"last_seen": str(s["last_seen"])},
                    "$addToSet": {"publications": str(s.get("publication") or "")},
                    "$setOnInsert": {
                        "kind": str(s["kind"]),
                        "host": str(s["host"]),
                        "seen_on": s.get("seen_on"),
                    },
                },
                upsert=True,
            )
            for s in sightings
        ]
        if not ops:
            return
        try:
            self.db.source_candidates.bulk_write(ops, ordered=False)
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def source_candidates(self, sort: str = "count", limit: int = 100) -> list[dict[str, Any]]:
        field, descending = CANDIDATE_SORTS[sort]
        order = [(field, DESCENDING if descending else ASCENDING), ("_id", ASCENDING)]
        try:
            docs = list(self.db.source_candidates.find({}).sort(order).limit(int(limit)))
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        out = []
        for doc in docs:
            record = {"url": doc.pop("_id"), **doc}
            record["publications"] = sorted(p for p in record.get("publications", []) if p)
            out.append(record)
        return out

    # --- the run lock ----------------------------------------------------------------------------

    def acquire_run_lock(self, name: str, holder: str, seconds: float) -> str | None:
        now = time.time()
        free = {"_id": name, "$or": [{"holder": holder}, {"expires": {"$lt": now}}]}
        lease = {
            "$set": {
                "holder": holder,
                "expires": now + seconds,
                "host": socket.gethostname(),
                "pid": os.getpid(),
            }
        }
        try:
            self.db.run_locks.update_one(free, lease, upsert=True)
            return None
        except DuplicateKeyError:  # held by someone else and not expired
            try:
                doc = self.db.run_locks.find_one({"_id": name}) or {}
                if _dead_here(doc):
                    taken = self.db.run_locks.update_one({"_id": name, "holder": doc.get("holder")}, lease)
                    if taken.matched_count:
                        return None
            except PyMongoError as exc:
                raise self._failure(exc) from exc
            return str(doc.get("holder") or "another process")
        except PyMongoError as exc:
            raise self._failure(exc) from exc

    def renew_run_lock(self, name: str, holder: str, seconds: float) -> bool:
        try:
            found = self.db.run_locks.update_one(
                {"_id": name, "holder": holder}, {"$set": {"expires": time.time() + seconds}}
            )
        except PyMongoError as exc:
            raise self._failure(exc) from exc
        return bool(found.matched_count)

    def release_run_lock(self, name: str, holder: str) -> None:
        """Tried even within the fail-fast window of an outage: a lease left behind would hold the
        next run off for a whole lease length."""
        db = getattr(self, "_db", None)
        try:
            (db if db is not None else self.db).run_locks.delete_one({"_id": name, "holder": holder})
        except PyMongoError as exc:
            raise self._failure(exc) from exc


def _dead_here(lease: Mapping[str, Any]) -> bool:
    """True when the lease's holder ran on this host and its process is gone (killed, crashed)."""
    if lease.get("host") != socket.gethostname() or not isinstance(lease.get("pid"), int):
        return False
    try:
        os.kill(int(lease["pid"]), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists under another user
        return False
    return False


__all__ = ["MongoRunRecords"]
