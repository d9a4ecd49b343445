"""Rows of the SQLite ``articles`` table: the whole row of a record, and updates of a few fields.

Why a light update: a relabel (``dedup_label``, ``dedup_evidence``, ``text_hash``) changes a few
hundred bytes of the JSON document, yet rewriting the row recompressed the body and its HTML delta
and replaced the article's FTS entry (the dedup rebuild ran at 27 articles/s). Fields that leave the
text, the tokens and the raw parts alone are set in the document and its indexed columns only; when
the count key changes (a relabel to or from ``duplicate``, a new publication, date or language), the
article's counts move between keys from its packed tokens, nothing else read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from sacorpus import settings as defaults
from sacorpus.storage.base import INDEXED_FIELDS, StorageError
from sacorpus.storage.counts import CountDelta, CountKey, count_key
from sacorpus.storage.layout import (
    LayoutError,
    pack_document,
    split_record,
    unpack_document,
    unpack_tokens,
)
from sacorpus.storage.layout_text import join_text, pack_text

COLUMNS = INDEXED_FIELDS  # url first
STORED = (*COLUMNS, "data", "body", "html_z", "tokens_z", "token_count", "word_count", "has_text", "text_z")
#: what the counts and the search index need of an article's previous version
INDEX_FIELDS = ("url", "publication", "published_at", "language", "dedup_label", "title", "text", "tokens")
#: fields a light update cannot set: they live in the packed blobs, the search index or derived columns
HEAVY_FIELDS = frozenset(
    {"body", "html", "tokens", "token_offsets", "text", "title", "token_count", "word_count", "_packed"}
)
_SET_COLUMNS = ", ".join(f"{c} = ?" for c in ("data", *COLUMNS[1:]))
#: rows read in one statement
_CHUNK = 500


def row_for(record: Mapping[str, Any], level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL) -> tuple[Any, ...]:
    """Indexed columns, the compressed JSON of the rest, and the packed body, HTML, tokens and text.

    Why apart: the decoded HTML is most of a record (163 KB of 170 KB for a typical page) and is the
    body decoded, so it is kept as a zstd delta of the body; tokens and offsets are packed (see
    sacorpus.storage.layout) and read only by the commands that need them.
    """
    if not record.get("url"):
        raise StorageError("a record without url cannot be stored")
    try:
        doc, body, html, tokens = split_record(record, level)
        text = pack_text(doc)
        packed_doc = pack_document(doc)
    except LayoutError as exc:
        raise StorageError(f"record {record.get('url')!r} cannot be stored: {exc}") from exc
    counts = [
        record.get(n) if isinstance(record.get(n), int) else None for n in ("token_count", "word_count")
    ]
    has_text = 1 if record.get("text") else 0
    return (*_columns(record), packed_doc, body, html, tokens, *counts, has_text, text)


def _columns(record: Mapping[str, Any]) -> list[Any]:
    values = [record.get(c) for c in COLUMNS]
    values[COLUMNS.index("fetched_at")] = record.get("fetched_at") or ""
    return values


def light_updates(
    cur: sqlite3.Cursor,
    updates: Mapping[str, Mapping[str, Any]],
    delta: CountDelta | None,
    note: Callable[[str, CountKey], bool] | None = None,
) -> dict[str, bool | None]:
    """Set each URL's ``fields`` in the document and indexed columns of its compact row; moves the
    counts of those whose count key changes into ``delta`` (None: counts not kept), unless ``note``
    keeps the move for later. Per URL: True when set, None when the row needs a whole rewrite
    instead (an older-layout row, or a field the light path cannot set), False when not stored.

    Why many at once: a rebuild relabels thousands of articles; the rows are read ``_CHUNK`` at a
    time and written in one statement, not two statements per article.
    """
    results: dict[str, bool | None] = {
        url: None for url, fields in updates.items() if HEAVY_FIELDS & set(fields)
    }
    light = [url for url in updates if url not in results]
    stored: dict[str, Any] = {}
    for i in range(0, len(light), _CHUNK):
        chunk = light[i : i + _CHUNK]
        marks = ",".join("?" * len(chunk))
        stored.update(cur.execute(f"SELECT url, data FROM articles WHERE url IN ({marks})", chunk).fetchall())
    writes = []
    for url in light:
        data = stored.get(url)
        if data is None or isinstance(data, str):
            # not stored (False); the older layout (None: the whole rewrite moves it to the compact one)
            results[url] = None if isinstance(data, str) else False
            continue
        try:
            writes.append(_updated_row(cur, url, unpack_document(data), updates[url], delta, note))
        except (LayoutError, ValueError) as exc:
            raise StorageError(f"the stored row of {url!r} cannot be updated: {exc}") from exc
        results[url] = True
    cur.executemany(f"UPDATE articles SET {_SET_COLUMNS} WHERE url = ?", writes)
    return results


def _updated_row(
    cur: sqlite3.Cursor,
    url: str,
    doc: dict[str, Any],
    fields: Mapping[str, Any],
    delta: CountDelta | None,
    note: Callable[[str, CountKey], bool] | None,
) -> tuple[Any, ...]:
    """The UPDATE parameters of one row with ``fields`` set; its counts moved (or noted) first."""
    before = count_key(doc)
    doc.update(fields)
    doc["url"] = url
    after = count_key(doc)
    if delta is not None and after != before and not (note is not None and note(url, before)):
        # the blobs only for a move made now (a noted one reads them when it is settled)
        tokens_z, text_z = cur.execute(
            "SELECT tokens_z, text_z FROM articles WHERE url = ?", (url,)
        ).fetchone()
        move_counts(join_text(dict(doc), text_z), tokens_z, before, after, delta)
    return (pack_document(doc), *_columns(doc)[1:], url)


def move_counts(
    doc: Mapping[str, Any], tokens_z: bytes | None, before: CountKey, after: CountKey, delta: CountDelta
) -> None:
    """Count the article out under its old key and in under its new one, from its packed tokens."""
    tokens = doc.get("tokens")
    if "tokens" in (doc.get("_packed") or ()):
        text = doc.get("text")
        tokens = (
            unpack_tokens(tokens_z, text if isinstance(text, str) else None, with_offsets=False)[0]
            if tokens_z
            else []
        )
    delta.move(tokens if isinstance(tokens, list) else [], before, after)
