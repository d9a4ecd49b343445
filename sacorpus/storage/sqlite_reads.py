"""Reading article rows for a query: the columns a set of fields needs, and the records made from them.

Why a reader per query: a search or a concordance over 100,000 articles reads a few thousand candidate
rows and wants only the title, the text, the tokens and a few indexed columns of each. Those live
outside the JSON document (the indexed columns, the ``text_z`` blob, the packed tokens), so such a
query selects them and never decodes the document: it was most of the cost of a query. A row that
keeps its text or tokens inside the document (an older layout, a record whose tokens could not be
packed) is read whole, as before, so every row reads the same whichever path it takes (values as
``record.get`` sees them; an empty token list and a missing one alike).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sacorpus.storage.base import StorageError
from sacorpus.storage.layout import (
    LayoutError,
    TokenSpans,
    join_record,
    unpack_document,
    unpack_tokens,
)
from sacorpus.storage.layout_text import join_text
from sacorpus.storage.sqlite_rows import COLUMNS

#: the indexed columns a lean read takes as they are (``fetched_at`` is stored as '' when missing)
_LEAN_COLUMNS = tuple(c for c in COLUMNS if c not in ("url", "fetched_at"))
_TOKEN_FIELDS = frozenset({"tokens", "token_offsets", "token_spans"})
LEAN_FIELDS = frozenset({"url", *_LEAN_COLUMNS, "title", "text"}) | _TOKEN_FIELDS


def decode_row(
    data: str | bytes,
    body: bytes | None,
    html_z: bytes | None = None,
    tokens_z: bytes | None = None,
    text_z: bytes | None = None,
    with_offsets: bool = True,
) -> dict[str, Any]:
    """The record of a whole row (any layout); blobs not read are passed as None."""
    try:
        doc = join_text(unpack_document(data), text_z)
        return join_record(doc, body, html_z, tokens_z, with_offsets=with_offsets)
    except (LayoutError, ValueError) as exc:
        raise StorageError(f"a stored row cannot be decoded: {exc}") from exc


def token_spans(blob: bytes, text: Any) -> TokenSpans | None:
    """The tokens of a packed blob read on demand (see :class:`TokenSpans`)."""
    try:
        return TokenSpans.read(blob, text if isinstance(text, str) else None)
    except (LayoutError, ValueError) as exc:
        raise StorageError(f"a stored row cannot be decoded: {exc}") from exc


class RowReader:
    """The SELECT list for ``fields`` (None: every field) and the record of each selected row.

    Every SELECT starts with ``fetched_at, url`` (the keyset paging reads them).
    """

    def __init__(self, fields: Iterable[str] | None) -> None:
        wanted = set(fields) | {"url"} if fields is not None else None
        self.wanted = wanted
        self.with_body = wanted is None or "body" in wanted
        self.with_html = wanted is None or "html" in wanted
        self.with_tokens = wanted is None or bool({"tokens", "token_offsets"} & wanted)
        self.with_offsets = wanted is None or "token_offsets" in wanted
        self.spans = wanted is not None and "token_spans" in wanted  # tokens read on demand (KWIC)
        self.lean = wanted is not None and wanted <= LEAN_FIELDS
        if self.lean:
            assert wanted is not None
            self.columns = [c for c in _LEAN_COLUMNS if c in wanted]
            tokens = bool(_TOKEN_FIELDS & wanted)
            whole = "text_z IS NULL" + (" OR tokens_z IS NULL" if tokens else "")
            tail = [
                "text_z",
                "tokens_z" if tokens else "NULL",
                f"CASE WHEN {whole} THEN data END",
                "NULL",
                "NULL",
            ]
            self.select = ", ".join(["fetched_at", "url", *self.columns, *tail])
        else:
            self.select = (
                "fetched_at, url, text_z"
                + (", tokens_z" if self.with_tokens or self.spans else ", NULL")
                + ", data"
                + (", body" if self.with_body or self.with_html else ", NULL")
                + (", html_z" if self.with_html else ", NULL")
            )

    def record(self, row: tuple[Any, ...]) -> dict[str, Any]:
        if self.lean and row[-3] is None:
            record = self._lean(row)
        else:
            text_z, tokens_z, data, body, html_z = row[-5:]
            record = self._whole(data, body, html_z, tokens_z, text_z)
        wanted = self.wanted
        return {k: v for k, v in record.items() if k in wanted} if wanted is not None else record

    def _whole(self, data: Any, body: Any, html_z: Any, tokens_z: Any, text_z: Any) -> dict[str, Any]:
        spans = self.spans and tokens_z is not None
        record = decode_row(data, body, html_z, None if spans else tokens_z, text_z, self.with_offsets)
        if spans:
            found = token_spans(tokens_z, record.get("text"))
            if found is None:  # no offset per token: the lists, as without spans
                record = decode_row(data, body, html_z, tokens_z, text_z, self.with_offsets)
            record["token_spans"] = found
        if not self.with_body:
            record.pop("body", None)
        return record

    def _lean(self, row: tuple[Any, ...]) -> dict[str, Any]:
        """A row whose text and (when asked) tokens are in their blobs: no document decoded."""
        record: dict[str, Any] = dict(
            zip(("url", *self.columns), row[1 : 2 + len(self.columns)], strict=True)
        )
        text_z, tokens_z = row[2 + len(self.columns)], row[3 + len(self.columns)]
        try:
            join_text(record, text_z)
            if tokens_z is None:
                return record
            text = record.get("text")
            found = token_spans(tokens_z, text) if self.spans else None
            if found is not None:
                record.update(tokens=[], token_offsets=[], token_spans=found)
                return record
            tokens, offsets = unpack_tokens(tokens_z, text, with_offsets=self.with_offsets)
        except (LayoutError, ValueError) as exc:
            raise StorageError(f"a stored row cannot be decoded: {exc}") from exc
        record["tokens"] = tokens
        if offsets:  # an empty list and none read alike here (the document would say which)
            record["token_offsets"] = offsets
        if self.spans:
            record["token_spans"] = None
        return record
