"""Undo HTTP content codings, whatever the headers claim.

Servers and archives get ``Content-Encoding`` wrong in every direction: gzip bodies without the
header (sitemaps, Wayback replays), bodies labelled gzip that were already decoded by a proxy,
gzip inside gzip, truncated downloads, raw deflate without the zlib header, brotli. The magic bytes
are the only reliable evidence, so :func:`decompress` sniffs them and uses the header as a hint.
It never raises: a problem is reported in :attr:`Decompressed.problem` and the best data so far is
kept, so a truncated page still yields its first paragraphs. Output is capped (``max_bytes``) so a
decompression bomb costs at most that much memory.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from sacorpus import settings as defaults

try:  # brotli is a declared dependency, but the core must not die without it
    import brotli
except ImportError:  # pragma: no cover
    brotli = None

GZIP_MAGIC = b"\x1f\x8b"
MAX_LAYERS = 4  # gzip in gzip in gzip... more is an attack or a bug
_CHUNK = 64 * 1024


@dataclass
class Decompressed:
    """The decoded body, the codings undone (outermost first) and at most one problem label."""

    data: bytes
    applied: list[str] = field(default_factory=list)
    problem: str | None = None  # "truncated" | "bomb" | "corrupt" | "too-many-layers"

    @property
    def content_encoding(self) -> str | None:
        return "+".join(self.applied) or None


class _Bomb(Exception):
    """Output past the cap; ``partial`` is what came before it (kept where a caller wants it)."""

    def __init__(self, partial: bytes | bytearray = b"") -> None:
        super().__init__("decompressed size over the cap")
        self.partial = bytes(partial)


def _inflate_one(data: bytes, wbits: int, max_bytes: int) -> tuple[bytes, bool, bytes]:
    """One deflate stream: (output, complete, data after the stream). Raises _Bomb, zlib.error."""
    d = zlib.decompressobj(wbits)
    out = bytearray()
    pos = 0
    while pos < len(data):
        chunk = data[pos : pos + _CHUNK]
        pos += _CHUNK
        out += d.decompress(chunk, max_bytes + 1 - len(out))
        while d.unconsumed_tail and len(out) <= max_bytes:
            out += d.decompress(d.unconsumed_tail, max_bytes + 1 - len(out))
        if len(out) > max_bytes:
            raise _Bomb(out[:max_bytes])
        if d.eof:
            return bytes(out), True, d.unused_data + data[pos:]
    out += d.flush()
    if len(out) > max_bytes:
        raise _Bomb(out[:max_bytes])
    return bytes(out), d.eof, b""


def _inflate(data: bytes, wbits: int, max_bytes: int) -> tuple[bytes, bool]:
    """Inflate with a streaming decompressor; returns (output, complete). Raises _Bomb, zlib.error.

    A gzip body may hold several members one after another (RFC 1952; sitemaps made by appending):
    they are all inflated, under one cap."""
    out, complete, rest = _inflate_one(data, wbits, max_bytes)
    while complete and wbits > zlib.MAX_WBITS and rest[:2] == GZIP_MAGIC:
        try:
            more, complete, rest = _inflate_one(rest, wbits, max_bytes - len(out))
        except _Bomb as bomb:
            raise _Bomb(out + bomb.partial) from None
        out += more
    return out, complete


def _brotli(data: bytes, max_bytes: int) -> tuple[bytes, bool]:
    if brotli is None:  # pragma: no cover
        raise zlib.error("brotli not installed")
    d = brotli.Decompressor()
    out = bytearray()
    for pos in range(0, len(data), _CHUNK):
        out += d.process(data[pos : pos + _CHUNK])
        if len(out) > max_bytes:
            raise _Bomb(out[:max_bytes])
    return bytes(out), d.is_finished()


def _looks_like_zlib(data: bytes) -> bool:
    return len(data) >= 2 and (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0


def _looks_like_text(data: bytes) -> bool:
    head = data[:512].lstrip()
    return (
        head[:1] in (b"<", b"{", b"[")
        or head[:3] == b"\xef\xbb\xbf"
        or head[:2] in (b"\xff\xfe", b"\xfe\xff")
    )


def decompress(
    body: bytes,
    content_encoding: str | None = None,
    *,
    max_bytes: int = defaults.SACORPUS_GZIP_MAX_BYTES,
    keep_partial: bool = False,
) -> Decompressed:
    """Undo every compression layer found in ``body``; never raises on bad data.

    gzip and zlib are recognised by magic bytes whether labelled or not; brotli and raw deflate have
    no magic, so they are tried only when the header names them (or, for raw deflate, when a
    ``deflate`` label does not fit zlib). Output beyond ``max_bytes`` is a ``bomb``: the data is cut
    there, and the data is dropped unless ``keep_partial`` (a sitemap keeps the entries before the cap).
    A stream that ends early is ``truncated`` and keeps what was decoded.
    """
    data = body or b""
    result = Decompressed(data=data)
    hints = [h.strip().lower() for h in (content_encoding or "").split(",") if h.strip()]
    hints = [h for h in hints if h not in ("identity", "none", "utf-8", "binary")]
    hint = hints[-1] if hints else None  # the outermost coding is listed last

    for _layer in range(MAX_LAYERS + 1):
        if not data:
            break
        if len(result.applied) >= MAX_LAYERS:
            if data[:2] == GZIP_MAGIC:
                result.problem = "too-many-layers"
            break
        kind = _layer_kind(data, hint)
        if kind is None:
            break
        hint = None  # the label describes one layer at most; deeper layers must show magic bytes
        try:
            out, complete = _undo(kind, data, max_bytes)
        except _Bomb as bomb:  # a page past the cap is dropped; a sitemap keeps what came before it
            result.applied.append(kind)
            result.problem = "bomb"
            result.data = bomb.partial if keep_partial else b""
            return result
        except Exception:  # zlib.error, brotli.error: bad data, never a crash
            other = _other_coding(data, kind, max_bytes) if hints and not result.applied else None
            if other is not None:  # mislabelled: brotli sent as gzip, zlib as br, raw deflate as gzip
                kind, out, complete = other
            elif (
                kind in ("zlib", "br", "deflate")
                and result.applied == []
                and not _strict(kind, content_encoding)
            ):
                break  # a guess that did not work: keep the body as it is
            else:
                result.problem = "corrupt"
                break
        result.applied.append("deflate" if kind == "zlib" else kind)
        data = out
        result.data = data
        if not complete:
            result.problem = "truncated"
            break
    result.data = data
    return result


def _layer_kind(data: bytes, hint: str | None) -> str | None:
    """The compression of the outer layer: gzip by magic bytes, brotli/deflate by label, zlib by its header."""
    if data[:2] == GZIP_MAGIC:
        return "gzip"
    if hint in ("br", "brotli") and not _looks_like_text(data):
        return "br"
    if hint in ("deflate", "x-deflate", "gzip", "x-gzip") and not _looks_like_text(data):
        return "zlib" if _looks_like_zlib(data) else "deflate"
    if _looks_like_zlib(data) and not _looks_like_text(data):
        return "zlib"
    return None


def _undo(kind: str, data: bytes, max_bytes: int) -> tuple[bytes, bool]:
    """One layer of ``kind``; raises _Bomb past ``max_bytes`` and zlib/brotli errors on bad data."""
    if kind == "gzip":
        return _inflate(data, 16 + zlib.MAX_WBITS, max_bytes)
    if kind == "zlib":
        return _inflate(data, zlib.MAX_WBITS, max_bytes)
    if kind == "deflate":
        return _inflate(data, -zlib.MAX_WBITS, max_bytes)
    return _brotli(data, max_bytes)


def _other_coding(data: bytes, failed: str, max_bytes: int) -> tuple[str, bytes, bool] | None:
    """The coding a mislabelled body really has: the first other one that decodes it completely to
    something that looks like a page (or another compressed layer). Bombs count as failures here."""
    for kind in ("gzip", "zlib", "br", "deflate"):
        if kind == failed:
            continue
        try:
            out, complete = _undo(kind, data, max_bytes)
        except Exception:  # _Bomb included: a guess must not cost a bomb's memory twice
            continue
        if complete and out and (_looks_like_text(out) or out[:2] == GZIP_MAGIC or _looks_like_zlib(out)):
            return kind, out, complete
    return None


def _strict(kind: str, content_encoding: str | None) -> bool:
    """True when the header explicitly named this coding (a failure is then corruption, not a bad guess)."""
    label = (content_encoding or "").lower()
    return (kind == "br" and "br" in label) or (kind in ("zlib", "deflate") and "deflate" in label)


__all__ = ["Decompressed", "decompress"]
