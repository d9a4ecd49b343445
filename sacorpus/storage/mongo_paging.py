"""Reading a MongoDB collection in ``_order``, a batch at a time (keyset paging).

Why keyset paging and not one cursor: a cursor held open across a long export or a crawl's catch-up
times out on the server (and SecantusDB keeps none between batches); asking for the next batch after the
last ``_order`` seen is as cheap on the ``_order`` index and survives a reconnect. Articles and readers'
comments are both read this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pymongo import ASCENDING
from pymongo.collection import Collection
from pymongo.errors import PyMongoError


def ordered_pages(
    collection: Collection[Any],
    query: Mapping[str, Any],
    projection: Mapping[str, Any] | None,
    batch_size: int,
    failure: Callable[[PyMongoError], Exception],
) -> Iterator[dict[str, Any]]:
    """The documents matching ``query`` in ``_order`` (``projection`` must keep ``_order``)."""
    last: str | None = None
    while True:
        page = dict(query)
        if last is not None:
            page["_order"] = {"$gt": last}
        try:
            docs = list(collection.find(page, projection).sort("_order", ASCENDING).limit(max(1, batch_size)))
        except PyMongoError as exc:
            raise failure(exc) from exc
        if not docs:
            return
        yield from docs
        last = docs[-1]["_order"]
