"""Reading a MongoDB collection in ``_order``, a batch at a time.

Why the keys first, then pages of known keys: a cursor held open across a long export or a crawl's
catch-up times out on the server (and SecantusDB keeps none between batches), so the documents come
in separate requests. Asking for "the next batch after the last ``_order`` seen" costs a real MongoDB
an index seek, but SecantusDB (a MongoDB-wire server in Python) decodes every document after that
key before it applies the limit: a full read of 10,000 articles decoded 100,000 documents, of
100,000 articles ten million. So the matching ``_order`` keys are read once (a small projection),
and each page asks for its own keys: a key range when every document matches (an unfiltered read: the
range holds exactly the page), else the keys themselves with ``$in`` (a filtered or narrowed read:
only the page's documents are read). Each document is decoded by the server at most twice. Documents
written after the keys were read are not part of the read (a snapshot of the keys). Articles and
readers' comments are both read this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from pymongo import ASCENDING
from pymongo.collection import Collection
from pymongo.errors import PyMongoError

#: keys per ``$in`` page: SecantusDB answers ``$in`` in time growing faster than the list
IN_PAGE = 100


def ordered_pages(
    collection: Collection[Any],
    query: Mapping[str, Any],
    projection: Mapping[str, Any] | None,
    batch_size: int,
    failure: Callable[[PyMongoError], Exception],
) -> Iterator[dict[str, Any]]:
    """The documents matching ``query`` in ``_order`` (``projection`` must keep ``_order``)."""
    try:
        keys = sorted(
            d["_order"] for d in collection.find(dict(query), {"_order": 1, "_id": 0}) if "_order" in d
        )
    except PyMongoError as exc:
        raise failure(exc) from exc
    size = max(1, batch_size) if not query else min(max(1, batch_size), IN_PAGE)
    for start in range(0, len(keys), size):
        page = keys[start : start + size]
        # the key condition first: SecantusDB plans by the first indexed field of the filter
        bound = {"$in": page} if query else {"$gte": page[0], "$lte": page[-1]}
        try:
            docs = list(collection.find({"_order": bound, **query}, projection).sort("_order", ASCENDING))
        except PyMongoError as exc:
            raise failure(exc) from exc
        yield from docs


def keyed_pages(
    collection: Collection[Any],
    keys: Sequence[str],
    query: Mapping[str, Any],
    projection: Mapping[str, Any] | None,
    failure: Callable[[PyMongoError], Exception],
) -> Iterator[dict[str, Any]]:
    """The documents among ``keys`` (sorted ``_order`` keys, as the postings give them) that match
    ``query``, in ``_order``: pages of known keys without reading the keys first."""
    for start in range(0, len(keys), IN_PAGE):
        page = list(keys[start : start + IN_PAGE])
        try:
            cursor = collection.find({"_order": {"$in": page}, **query}, projection)
            docs = list(cursor.sort("_order", ASCENDING))
        except PyMongoError as exc:
            raise failure(exc) from exc
        yield from docs
