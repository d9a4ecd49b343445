"""An article as a MongoDB document and back: the compact layout, the ordering key, the size limit.

Why apart from the store: the benchmark's bulk loader (benchmarks/scale_mongo.py) makes the same
documents without the store's write path, and the store's module stays within the house's length.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bson
from bson import Binary

from sacorpus import settings as defaults
from sacorpus.storage.base import StorageError
from sacorpus.storage.layout import LayoutError, join_record, split_record
from sacorpus.storage.mongo_postings import order_key

#: MongoDB refuses documents over 16 MiB; a record is trimmed below this, largest stored parts first
MAX_DOC_BYTES = 15 * 1024 * 1024
_TRIM_ORDER = (
    "html_z",
    "body_z",
    "tokens_z",
    "token_offsets",
    "tokens",
    "paragraph_languages",
    "sentences",
    "links",
    "quotes",
)


def _binary(value: bytes | None) -> Binary | None:
    return Binary(value) if value is not None else None


def _to_doc(record: Mapping[str, Any], level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL) -> dict[str, Any]:
    """The stored document in the compact layout (zstd body ``body_z``, the HTML as a delta of the body
    ``html_z``, packed tokens ``tokens_z``; the search terms are posted apart: mongo_postings), trimmed
    of its largest stored parts, HTML first, and flagged in ``problems`` when it is too large for
    MongoDB."""
    if not record.get("url"):
        raise StorageError("a record without url cannot be stored")
    try:
        doc, body, html, tokens = split_record({k: v for k, v in record.items() if k != "_id"}, level)
    except LayoutError as exc:
        raise StorageError(f"record {record.get('url')!r} cannot be stored: {exc}") from exc
    doc["body_z"], doc["html_z"], doc["tokens_z"] = _binary(body), _binary(html), _binary(tokens)
    doc["fetched_at"] = record.get("fetched_at") or ""
    # one indexed key for (fetched_at, url) order: keyset paging without $or (a scan on SecantusDB)
    doc["_order"] = order_key(doc)
    return _fit(doc)


def _fit(doc: dict[str, Any]) -> dict[str, Any]:
    if len(bson.encode(doc)) <= MAX_DOC_BYTES:
        return doc
    trimmed = []
    for name in _TRIM_ORDER:
        if doc.get(name):
            doc[name] = None if name.endswith("_z") else []
            trimmed.append(name.removesuffix("_z"))
            if len(bson.encode(doc)) <= MAX_DOC_BYTES:
                break
    if len(bson.encode(doc)) > MAX_DOC_BYTES:  # the text itself: keep what fits
        doc["text"] = (doc.get("text") or "")[: MAX_DOC_BYTES // 8]
        trimmed.append("text")
    doc["problems"] = [*list(doc.get("problems") or []), "store:trimmed:" + "+".join(trimmed)]
    return doc


def _from_doc(doc: Mapping[str, Any], with_body: bool = True) -> dict[str, Any]:
    record = {k: v for k, v in doc.items() if k not in _HIDDEN}
    body = doc.get("body_z") if with_body or doc.get("html_z") is not None else None
    try:
        record = join_record(record, body, doc.get("html_z"), doc.get("tokens_z"))
    except LayoutError as exc:
        raise StorageError(f"the stored document of {doc.get('url')!r} cannot be decoded: {exc}") from exc
    if not with_body:
        record["body"] = None
    return record


_HIDDEN = ("_id", "body_z", "html_z", "tokens_z", "_order", "terms")
