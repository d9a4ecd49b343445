"""Re-importing a store's spill file: once, under a lock, each record exactly as spilled.

Why its own module: the spill file is how an outage loses nothing (the store stage writes it, see
``sacorpus.pipelines.store``), and its re-import has rules of its own: claimed by renaming so no second
process or stage imports it twice, resumed after a crash, a newer fetch in the store wins over a
spilled one, a record the store rejects is set aside instead of blocking every later run, and a
label update spilled after its row (a copy relabelled when its original came later) is applied to
the row restored before it.
"""

from __future__ import annotations

import fcntl
import logging
import time
from pathlib import Path
from typing import Any

from sacorpus.storage.base import ArticleStorage, StorageError
from sacorpus.storage.spill_lines import decode_spill_record, write_spill

logger = logging.getLogger(__name__)

#: records written per upsert while re-importing
IMPORT_BATCH = 200

#: the key of a spill line that updates fields of a row spilled (or stored) before it
UPDATE_KEY = "_update"


def import_spill_file(store: ArticleStorage, spill_path: str | None) -> int:
    """Re-import a spill file into ``store``, once, under a lock; returns how many records were restored.

    The file is first renamed ``*.importing-<ts>`` (so a second process or stage never imports it
    twice; a crash mid-way leaves that name, which the next open resumes), then each record is restored
    exactly as spilled (dedup label and evidence included) unless the store already holds a newer fetch
    of its URL, and the file is finally renamed ``*.imported-<ts>``. A record the store rejects is set
    aside in ``*.rejected`` and reported, so one bad record never blocks later runs.
    """
    if not spill_path:
        return 0
    path = Path(spill_path)
    if not path.parent.is_dir():
        return 0
    lock_path = path.with_name(path.name + ".lock")
    with open(lock_path, "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            pending = sorted(path.parent.glob(path.name + ".importing-*"))
            if path.exists():
                claimed = path.with_name(f"{path.name}.importing-{time.time():.6f}")
                path.rename(claimed)
                pending.append(claimed)
            return sum(_SpillImport(store, path).run(claimed) for claimed in pending)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class _SpillImport:
    """One claimed spill file into the store, in file order."""

    def __init__(self, store: ArticleStorage, path: Path) -> None:
        self.store = store
        self.path = path
        self.batch: list[dict[str, Any]] = []
        self.restored = self.bad = self.rejected = self.updated = 0

    def run(self, claimed: Path) -> int:
        with claimed.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    self._line(line, claimed)
        self._flush()
        done = self.path.with_name(f"{self.path.name}.imported-{int(time.time())}")
        claimed.rename(done)
        logger.warning(
            "re-imported %d spilled records from %s (%d label updates, %d bad lines, %d rejected); moved it to %s",
            self.restored,
            self.path,
            self.updated,
            self.bad,
            self.rejected,
            done,
        )
        return self.restored

    def _line(self, line: str, claimed: Path) -> None:
        try:
            record = decode_spill_record(line)
        except (ValueError, TypeError) as exc:
            self.bad += 1
            logger.warning("skipping a bad line in spill file %s: %s", claimed, exc)
            return
        if UPDATE_KEY in record:
            self._flush()  # the row it updates comes first
            if self.store.update_fields(str(record["url"]), dict(record[UPDATE_KEY])):
                self.updated += 1
            return
        self.batch.append(record)
        if len(self.batch) >= IMPORT_BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self.batch:
            return
        newer = _newer_in_store(self.store, self.batch)
        keep = [r for r in self.batch if r["url"] not in newer]
        self.batch = []
        try:
            self.store.upsert_articles(keep)
            self.restored += len(keep)
        except StorageError:
            for record in keep:  # find the record the store rejects; keep the rest
                self._one(record)

    def _one(self, record: dict[str, Any]) -> None:
        try:
            self.store.upsert_articles([record])
            self.restored += 1
        except StorageError as exc:
            self.rejected += write_spill(self.path.with_name(self.path.name + ".rejected"), [record])
            logger.error("spilled record %s rejected by the store, set aside: %s", record.get("url"), exc)


def _newer_in_store(store: ArticleStorage, batch: list[dict[str, Any]]) -> set[str]:
    """URLs of the batch that the store holds from a later fetch (a refetch after the outage wins)."""
    newer = set()
    for url in store.has_urls(r["url"] for r in batch if r.get("url")):
        stored = store.get(url) or {}
        spilled = next(r for r in batch if r.get("url") == url)
        if str(stored.get("fetched_at") or "") > str(spilled.get("fetched_at") or ""):
            newer.add(url)
    return newer
