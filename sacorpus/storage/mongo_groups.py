"""The MongoDB store's kept group totals: articles, tokens and words per (publication, day, language,
label, page type), for ``stats`` and the browser's charts.

Why kept: ``group_counts`` as one ``$group`` aggregation reads every article document on the server;
SecantusDB (a MongoDB-wire server in Python) decodes each whole, terms and blobs included (seconds a
few thousand articles). The totals are a few documents per publication and day, updated with ``$inc``
in the write that stores, replaces or relabels an article (atomic per document: concurrent crawlers
lose nothing), so a query reads them and folds the days into months. The same totals are kept per month as well
(``group_months``, written in the same write): a query whose date bounds are whole months or years
(or none) reads those, a few hundred documents where the days were thousands; a bound of a day reads
the days. A date bound finer than a day, or a store written before the totals (no
``index:group-totals`` state; the rebuild of the kept counts builds them), is answered by the
aggregation as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pymongo import ASCENDING, UpdateOne

from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.mongo_filter import mongo_where
from sacorpus.storage.queries import GROUP_FIELDS

GROUPS = "group_totals"
MONTHS = "group_months"
GROUPS_READY = "index:group-totals"
#: the fields of an article a group total is kept by (and sums)
GROUP_SOURCE = tuple(f for f in GROUP_FIELDS if f != "url")
_DAY = 10
_MONTH = 7


def group_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    published = record.get("published_at")
    day = published[:_DAY] or None if isinstance(published, str) else None
    return (
        record.get("publication"),
        day,
        record.get("language"),
        record.get("dedup_label"),
        record.get("page_type"),
    )


def group_changes(
    old: Iterable[Mapping[str, Any] | None], new: Iterable[Mapping[str, Any] | None]
) -> dict[tuple[Any, ...], list[int]]:
    """The total changes of articles leaving (``old``) and entering (``new``) their groups."""
    changes: dict[tuple[Any, ...], list[int]] = {}
    for records, sign in ((old, -1), (new, 1)):
        for record in records:
            if record is None:
                continue
            total = changes.setdefault(group_key(record), [0, 0, 0])
            total[0] += sign
            total[1] += sign * int(record.get("token_count") or 0)
            total[2] += sign * int(record.get("word_count") or 0)
    return changes


def by_month(changes: Mapping[tuple[Any, ...], list[int]]) -> dict[tuple[Any, ...], list[int]]:
    """Day totals (or changes) folded into month totals."""
    folded: dict[tuple[Any, ...], list[int]] = {}
    for (publication, day, *rest), total in changes.items():
        key = (publication, day[:_MONTH] if day else day, *rest)
        kept = folded.setdefault(key, [0, 0, 0])
        for i in range(3):
            kept[i] += total[i]
    return folded


def _write(collection: Any, date: str, changes: Mapping[tuple[Any, ...], list[int]]) -> None:
    ops = []
    for key, (articles, tokens, words) in changes.items():
        if articles or tokens or words:
            names = dict(zip(("p", date, "l", "d", "t"), key, strict=True))
            inc = {"a": articles, "k": tokens, "w": words}
            ops.append(UpdateOne({"_id": json.dumps(key)}, {"$inc": inc, "$set": names}, upsert=True))
    if ops:
        collection.bulk_write(ops, ordered=False)
    if any(total[0] < 0 for total in changes.values()):
        collection.delete_many({"a": {"$lte": 0}})


def write_group_changes(db: Any, changes: Mapping[tuple[Any, ...], list[int]]) -> None:
    _write(db[GROUPS], "day", changes)
    _write(db[MONTHS], "month", by_month(changes))


def create_group_indexes(db: Any) -> None:
    db[GROUPS].create_index([("p", ASCENDING), ("day", ASCENDING)])
    db[MONTHS].create_index([("p", ASCENDING), ("month", ASCENDING)])


def convert_to_months(db: Any) -> None:
    """Make the month totals of a store that kept only the day totals (once a store; again from the
    days, whole, when cut short)."""
    if db[MONTHS].find_one({}, {"_id": 1}) is not None or db[GROUPS].find_one({}, {"_id": 1}) is None:
        return
    days: dict[tuple[Any, ...], list[int]] = {}
    for doc in db[GROUPS].find({}, {"_id": 0}):
        key = (doc.get("p"), doc.get("day"), doc.get("l"), doc.get("d"), doc.get("t"))
        days[key] = [int(doc["a"]), int(doc.get("k") or 0), int(doc.get("w") or 0)]
    _write(db[MONTHS], "month", by_month(days))


def group_rows(db: Any, where: StoreFilter, period: int) -> list[tuple[Any, ...]] | None:
    """``group_counts`` rows from the kept totals; None when they cannot answer (the caller aggregates)."""
    bounds = [b for b in (where.since, where.until) if b is not None]
    if period > _DAY or any(len(b) > _DAY for b in bounds):
        return None
    # a bound of at most a month selects the same days as their months (a day's month is its prefix)
    date = "month" if period <= _MONTH and all(len(b) <= _MONTH for b in bounds) else "day"
    query = mongo_where(where, ("p", "l", "d", date))
    folded: dict[tuple[Any, ...], list[int]] = {}
    for doc in db[MONTHS if date == "month" else GROUPS].find(query, {"_id": 0}):
        day = doc.get(date)
        key = (doc.get("p"), day[:period] or None if day else None, doc.get("l"), doc.get("d"), doc.get("t"))
        total = folded.setdefault(key, [0, 0, 0])
        total[0] += int(doc["a"])
        total[1] += int(doc.get("k") or 0)
        total[2] += int(doc.get("w") or 0)
    return [(*key, *total) for key, total in folded.items() if total[0] > 0]
