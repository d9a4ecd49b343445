"""The title and text of an article in a blob of their own (the SQLite row's ``text_z``).

Why: a search or a concordance reads the title and the text of every candidate article and nothing
else of its JSON document; decoding the whole document (paragraph languages, links, sentences) to
reach them was most of the cost of a query at 100,000 articles. Kept apart, they cost one small zstd
frame (about 130 bytes more per article than inside the document). Pure Python, as layout.py.
"""

from __future__ import annotations

import struct
from typing import Any

from sacorpus.storage.layout import LayoutError, compress, decompress

#: prefix of a packed title and text
_TEXT = b"TX1"
_TEXT_HEAD = struct.calcsize("<3sBI")
#: fields the SQLite row keeps in a blob of their own, in this order
TEXT_FIELDS = ("title", "text")


def pack_text(doc: dict[str, Any]) -> bytes | None:
    """Take the title and text (where they are strings) out of ``doc`` into a blob of their own.

    Why: a search or a concordance reads the title and the text of every candidate article and
    nothing else of its document; decoding the whole JSON document (paragraph languages, links,
    sentences) to reach them was most of the cost of a query at 100,000 articles. Each field taken
    out stays in ``doc`` as ``null`` at its place and is named in ``_packed``, so the record reads
    back with its keys in the order they were written.
    """
    names = [name for name in TEXT_FIELDS if isinstance(doc.get(name), str)]
    if not names:
        return None
    parts = {name: str(doc[name]).encode("utf-8") for name in names}
    flags = sum(1 << i for i, name in enumerate(TEXT_FIELDS) if name in parts)
    head = struct.pack("<3sBI", _TEXT, flags, len(parts.get("title", b"")))
    for name in names:
        doc[name] = None
    doc["_packed"] = [*(doc.get("_packed") or ()), *names]
    return compress(head + parts.get("title", b"") + parts.get("text", b""), 3)


def unpack_text(blob: bytes | bytearray | memoryview) -> dict[str, str]:
    """The title and text kept in a blob by :func:`pack_text` (only those it holds)."""
    raw = decompress(blob)
    try:
        magic, flags, title_len = struct.unpack("<3sBI", raw[:_TEXT_HEAD])
        if magic != _TEXT:
            raise LayoutError("not a text blob")
        title, text = raw[_TEXT_HEAD : _TEXT_HEAD + title_len], raw[_TEXT_HEAD + title_len :]
        values = dict(zip(TEXT_FIELDS, (title.decode("utf-8"), text.decode("utf-8")), strict=True))
    except (struct.error, UnicodeDecodeError) as exc:
        raise LayoutError(f"corrupt text blob: {exc}") from exc
    return {name: value for i, (name, value) in enumerate(values.items()) if flags & (1 << i)}


def join_text(doc: dict[str, Any], blob: bytes | bytearray | memoryview | None) -> dict[str, Any]:
    """``doc`` with its title and text put back from their blob (None: a row that keeps them inside)."""
    if blob is None:
        return doc
    values = unpack_text(blob)
    doc.update(values)
    packed = [name for name in doc.get("_packed") or () if name not in values]
    if packed:
        doc["_packed"] = packed
    else:
        doc.pop("_packed", None)
    return doc
