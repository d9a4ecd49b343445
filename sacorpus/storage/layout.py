"""The compact row layout shared by both backends: zstd bodies, HTML kept as a delta of its body, and
tokens with their offsets in one packed blob.

Why: the decoded HTML is the raw body decoded, so compressed with the raw body as its dictionary it
costs a few hundred bytes instead of a second copy of the page; the token list and its ``[[start, end],
...]`` offsets are the largest part of the JSON document and are read only by the commands that need
tokens. Every reader here also reads the older layout (zlib blobs, tokens in the JSON document), so
stores written before keep reading and ``scrapy compact`` can migrate them row by row.

Pure Python (no Scrapy, no database driver): the SQLite and MongoDB backends call the same functions.
"""

from __future__ import annotations

import json
import struct
import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from itertools import accumulate, chain
from typing import Any

try:  # Python 3.14 ships zstd in the standard library; before that the backport (same API)
    from compression import zstd  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - depends on the Python version
    from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]

from sacorpus import settings as defaults

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: prefix of HTML compressed with its raw body as the zstd dictionary
_HTML_DELTA = b"HD1"
#: prefix of a body compressed with the article's text as the zstd dictionary
_BODY_TEXT = b"BT1"
#: texts shorter than this (UTF-8 bytes) are not worth a dictionary
MIN_TEXT_DICT = 256
#: prefix of a packed token blob
_TOKENS = b"TK2"
_SEP = "\x00"
#: fields kept out of the JSON document in the compact layout
PACKED_FIELDS = ("body", "html", "tokens", "token_offsets")


class LayoutError(ValueError):
    """A stored blob cannot be decoded (a corrupt row; the store names the URL)."""


def compress(data: bytes, level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL) -> bytes:
    return bytes(zstd.compress(data, level=level))


def decompress(blob: bytes | bytearray | memoryview) -> bytes:
    """Bytes of a zstd or (older layout) zlib blob."""
    raw = bytes(blob)
    try:
        if raw[:4] == ZSTD_MAGIC:
            return bytes(zstd.decompress(raw))
        return zlib.decompress(raw)
    except (zlib.error, zstd.ZstdError) as exc:
        raise LayoutError(f"corrupt compressed blob: {exc}") from exc


def pack_body(
    body: bytes | str | None, level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL, text: str | None = None
) -> bytes | None:
    """The raw body, compressed with the article's text as a raw-content dictionary when it has one.

    Why: the text was extracted from this body, so its sentences are in the page; with the text as
    the dictionary they cost a reference each (about 2 KB less per article at the same level, or the
    same size at level 3 in half the time of level 6). The text is read with every row anyway, so a
    body read costs nothing more.
    """
    if body is None:
        return None
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    hint = text.encode("utf-8") if isinstance(text, str) else b""
    if len(hint) < MIN_TEXT_DICT:
        return compress(raw, level)
    return _BODY_TEXT + bytes(zstd.compress(raw, level=level, zstd_dict=zstd.ZstdDict(hint, is_raw=True)))


def unpack_body(blob: bytes | bytearray | memoryview, text: str | None) -> bytes:
    """The raw body of any layout's blob (``text``: the record's text, for a body packed against it)."""
    raw = bytes(blob)
    if raw[:3] != _BODY_TEXT:
        return decompress(raw)
    if not isinstance(text, str):
        raise LayoutError("the body is stored against the text, and the text is missing")
    try:
        data = zstd.decompress(raw[3:], zstd_dict=zstd.ZstdDict(text.encode("utf-8"), is_raw=True))
    except zstd.ZstdError as exc:
        raise LayoutError(f"corrupt body blob: {exc}") from exc
    return bytes(data)


def pack_html(
    html: str | None, body: bytes | None, level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL
) -> bytes | None:
    """The decoded HTML, compressed with the raw body as a raw-content dictionary when there is one.

    The delta is made at level 3 at most: against its own body it is some 40 bytes at level 3 as at
    level 6, in two thirds of the time (``benchmarks/scale.py`` prints both).
    """
    if html is None:
        return None
    raw = html.encode("utf-8")
    if not body:
        return compress(raw, level)
    dictionary = zstd.ZstdDict(bytes(body), is_raw=True)
    return _HTML_DELTA + bytes(zstd.compress(raw, level=min(level, 3), zstd_dict=dictionary))


def unpack_html(blob: bytes | bytearray | memoryview | None, body: bytes | None) -> str | None:
    if blob is None:
        return None
    raw = bytes(blob)
    if raw[:3] != _HTML_DELTA:
        return decompress(raw).decode("utf-8")
    if body is None:
        raise LayoutError("the HTML is stored as a delta of the body, and the body is missing")
    try:
        data = zstd.decompress(raw[3:], zstd_dict=zstd.ZstdDict(bytes(body), is_raw=True))
    except zstd.ZstdError as exc:
        raise LayoutError(f"corrupt HTML blob: {exc}") from exc
    return bytes(data).decode("utf-8")


def pack_tokens(
    tokens: Sequence[str] | None, offsets: Sequence[Sequence[int]] | None, text: str | None = None
) -> bytes | None:
    """Offsets as (gap, length) pairs and only the tokens that differ from their span of ``text``.

    Why: nearly every token is the text between its offsets, so it costs nothing to keep; the few
    that are not (``n't`` from ``n’t``, the Treebank quotes ``````) are kept by index. Gaps and lengths are
    small numbers stored as uint16 when they fit (int32 otherwise) and compress to about a byte each.
    """
    tokens = list(tokens or [])
    offsets = list(offsets or [])
    if not tokens and not offsets:
        return None
    if any(_SEP in t for t in tokens):
        raise LayoutError("a token holds a NUL character")
    starts = [int(o[0]) for o in offsets]
    ends = [int(o[1]) for o in offsets]
    values = [0] * (2 * len(offsets))
    values[0::2] = [s - e for s, e in zip(starts, [0, *ends[:-1]][: len(starts)], strict=True)]
    values[1::2] = [e - s for s, e in zip(starts, ends, strict=True)]
    wide = bool(values) and (min(values) < 0 or max(values) > 0xFFFF)
    pairs = array("i" if wide else "H", values)
    if text is not None and len(offsets) == len(tokens):
        differ = [i for i, (t, a, b) in enumerate(zip(tokens, starts, ends, strict=True)) if text[a:b] != t]
    else:
        differ = list(range(len(tokens)))
    head = struct.pack("<3sBIII", _TOKENS, 1 if wide else 0, len(tokens), len(offsets), len(differ))
    body = (
        pairs.tobytes() + array("I", differ).tobytes() + _SEP.join(tokens[i] for i in differ).encode("utf-8")
    )
    return compress(head + body, 3)


_HEAD = struct.calcsize("<3sBIII")


def _read_blob(raw: bytes) -> tuple[int, array[int], array[int], list[str]]:
    """(token count, the (gap, length) pairs, indexes of the kept tokens, the kept tokens) of a
    decompressed blob."""
    magic, wide, n_tokens, n_offsets, n_differ = struct.unpack("<3sBIII", raw[:_HEAD])
    if magic != _TOKENS:
        raise LayoutError("not a token blob")
    pairs = array("i" if wide else "H")
    at = _HEAD + pairs.itemsize * 2 * n_offsets
    pairs.frombytes(raw[_HEAD:at])
    differ = array("I")
    differ.frombytes(raw[at : at + 4 * n_differ])
    kept = raw[at + 4 * n_differ :].decode("utf-8").split(_SEP) if n_differ else []
    if len(kept) != n_differ:
        raise LayoutError(f"token blob holds {len(kept)} tokens, header says {n_differ}")
    return n_tokens, pairs, differ, kept


def _read_tokens(raw: bytes) -> tuple[int, list[int], list[int], array[int], list[str]]:
    """(token count, starts, ends, indexes of the kept tokens, the kept tokens) of a decompressed blob."""
    n_tokens, pairs, differ, kept = _read_blob(raw)
    # (gap, length) pairs summed in C: start_i = end_(i-1) + gap_i, end_i = start_i + length_i
    bounds = list(accumulate(pairs))
    return n_tokens, bounds[0::2], bounds[1::2], differ, kept


def unpack_tokens(
    blob: bytes | bytearray | memoryview, text: str | None = None, *, with_offsets: bool = True
) -> tuple[list[str], list[list[int]]]:
    n_tokens, starts, ends, differ, kept = _read_tokens(decompress(blob))
    # a reader of the tokens alone (word lists, collocations) skips the list of pairs, half the cost
    offsets = list(map(list, zip(starts, ends, strict=True))) if with_offsets else []
    if len(differ) < n_tokens and (text is None or len(starts) != n_tokens):
        raise LayoutError("the tokens are stored as spans of the text, and the text is missing")
    tokens = (
        list(map(text.__getitem__, map(slice, starts, ends)))
        if len(differ) < n_tokens and text is not None
        else [""] * n_tokens
    )
    for i, token in zip(differ, kept, strict=True):
        tokens[i] = token
    return tokens, offsets


#: tokens whose offsets are summed together when one of them is needed (see :class:`TokenSpans`)
SPAN_BLOCK = 64


class TokenSpans:
    """An article's tokens and offsets read on demand from the packed blob: a concordance finds its
    matches in the text and builds only the tokens around them (building every token and offset
    pair of each matching article was most of a KWIC's time).

    The offsets are summed block by block (:data:`SPAN_BLOCK` tokens) when a token of the block is
    asked for: a block's first offset comes from the sums of the blocks before it, taken once per
    article over the small integers of the blob (Python keeps those as shared objects, so summing
    them costs a fraction of building every offset). ``kept`` holds the tokens that are not their
    span of the text (``n't`` from ``n’t``, Treebank quotes), by index. ``None`` from :meth:`read`
    when the blob has no offset per token (the caller then reads the lists).
    """

    def __init__(self, text: str, pairs: array[int], kept: dict[int, str]) -> None:
        self.text, self.kept, self._pairs = text, kept, pairs
        self._n = len(pairs) // 2
        step = 2 * SPAN_BLOCK
        # the end of the token before each block (0 before the first), and each block's first start
        self._cursors = [0, *accumulate(sum(pairs[j : j + step]) for j in range(0, len(pairs), step))]
        self._firsts = [c + pairs[2 * k * SPAN_BLOCK] for k, c in enumerate(self._cursors[:-1])]
        self._blocks: dict[int, tuple[list[int], list[int]]] = {}

    @classmethod
    def read(cls, blob: bytes | bytearray | memoryview, text: str | None) -> TokenSpans | None:
        n_tokens, pairs, differ, kept = _read_blob(decompress(blob))
        if text is None or len(pairs) != 2 * n_tokens or not n_tokens:
            return None
        spans = cls(text, pairs, dict(zip(differ, kept, strict=True)))
        return spans if spans._cursors[-1] <= len(text) else None  # the last end is in the text

    def __len__(self) -> int:
        return self._n

    def _block(self, k: int) -> tuple[list[int], list[int]]:
        """(starts, ends) of block ``k``."""
        found = self._blocks.get(k)
        if found is None:
            at = 2 * k * SPAN_BLOCK
            bounds = list(accumulate(self._pairs[at : at + 2 * SPAN_BLOCK], initial=self._cursors[k]))
            found = self._blocks[k] = (bounds[1::2], bounds[2::2])
        return found

    def start(self, i: int) -> int:
        return self._block(i // SPAN_BLOCK)[0][i % SPAN_BLOCK]

    def end(self, i: int) -> int:
        return self._block(i // SPAN_BLOCK)[1][i % SPAN_BLOCK]

    def first_from(self, at: int) -> int:
        """The first token starting at or after character ``at`` (``bisect_left`` over the starts)."""
        k = bisect_left(self._firsts, at)
        if k > 0:
            starts = self._block(k - 1)[0]
            i = bisect_left(starts, at)
            if i < len(starts):
                return (k - 1) * SPAN_BLOCK + i
        return min(k * SPAN_BLOCK, self._n)

    def last_at(self, at: int) -> int:
        """The last token starting at or before character ``at`` (-1: none; ``bisect_right`` - 1)."""
        k = bisect_right(self._firsts, at)
        if k == 0:
            return -1
        return (k - 1) * SPAN_BLOCK + bisect_right(self._block(k - 1)[0], at) - 1

    def token(self, i: int) -> str:
        kept = self.kept.get(i)
        if kept is not None:
            return kept
        starts, ends = self._block(i // SPAN_BLOCK)
        return self.text[starts[i % SPAN_BLOCK] : ends[i % SPAN_BLOCK]]

    def tokens(self, start: int, stop: int) -> list[str]:
        return [self.token(i) for i in range(max(0, start), min(stop, self._n))]


def pack_document(doc: Mapping[str, Any]) -> bytes:
    """The rest of a record (no body, HTML or tokens) as zstd-compressed JSON."""
    try:
        text = json.dumps(doc, ensure_ascii=False, default=str, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise LayoutError(f"not JSON-serialisable: {exc}") from exc
    return compress(text.encode("utf-8"), 3)


def unpack_document(data: str | bytes | bytearray | memoryview) -> dict[str, Any]:
    """The JSON document of a row, compressed (compact layout) or plain text (older layout)."""
    if isinstance(data, str):
        result: dict[str, Any] = json.loads(data)
        return result
    result = json.loads(decompress(data).decode("utf-8"))
    return result


def _packable(tokens: Any, offsets: Any) -> bool:
    """Whether the token fields have the shape the packed encoding keeps exactly.

    Each test is a ``map`` over the list (run in C): this is called for every stored article.
    """
    if isinstance(tokens, list) and not (set(map(type, tokens)) <= {str} and _SEP not in "".join(tokens)):
        return False
    if isinstance(offsets, list):
        return (
            set(map(type, offsets)) <= {list, tuple}
            and set(map(len, offsets)) <= {2}
            and set(map(type, chain.from_iterable(offsets))) <= {int}
        )
    return True


def split_record(
    record: Mapping[str, Any], level: int = defaults.SACORPUS_STORE_ZSTD_LEVEL
) -> tuple[dict[str, Any], bytes | None, bytes | None, bytes | None]:
    """(JSON document, body blob, HTML blob, token blob) of a record in the compact layout.

    ``_packed`` in the document names the token fields taken out, so they read back exactly (an
    empty list stays an empty list, a missing field stays missing).
    """
    doc = {k: v for k, v in record.items() if k not in ("body", "html")}
    packed = [k for k in ("tokens", "token_offsets") if isinstance(doc.get(k), list)]
    if not _packable(doc.get("tokens"), doc.get("token_offsets")):
        packed = []  # a damaged record keeps its token fields in the JSON, as they came: never refused
    if packed:
        doc["_packed"] = packed
    raw_body = record.get("body")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    tokens = pack_tokens(
        doc.pop("tokens", None) if "tokens" in packed else None,
        doc.pop("token_offsets", None) if "token_offsets" in packed else None,
        doc.get("text") if isinstance(doc.get("text"), str) else None,
    )
    text = doc.get("text") if isinstance(doc.get("text"), str) else None
    return doc, pack_body(body, level, text), pack_html(record.get("html"), body, level), tokens


def join_record(
    doc: dict[str, Any],
    body_blob: bytes | bytearray | memoryview | None,
    html_blob: bytes | bytearray | memoryview | None,
    tokens_blob: bytes | bytearray | memoryview | None,
    *,
    with_offsets: bool = True,
) -> dict[str, Any]:
    """The record again from its stored parts (any layout); blobs not read are passed as None;
    ``with_offsets=False`` leaves the token offsets out (the reader asked for the tokens only)."""
    record = doc
    text = record.get("text")
    body = unpack_body(body_blob, text if isinstance(text, str) else None) if body_blob is not None else None
    record["body"] = body
    if html_blob is not None:
        record["html"] = unpack_html(html_blob, body)
    else:
        record.setdefault("html", None)  # rows from before the HTML had its own column keep it in data
    packed = record.pop("_packed", None)
    if packed:
        text = record.get("text")
        tokens, offsets = (
            unpack_tokens(tokens_blob, text if isinstance(text, str) else None, with_offsets=with_offsets)
            if tokens_blob is not None
            else ([], [])
        )
        for name, value in (("tokens", tokens), ("token_offsets", offsets)):
            if name in packed and (with_offsets or name == "tokens"):
                record[name] = value
    return record
