"""Turn a response body into text: binary sniffing, encoding choice, mojibake repair.

The order of evidence follows the HTML standard's encoding sniffing: a byte-order mark beats the
HTTP header, which beats a ``<meta charset>`` in the first bytes, which beats detection. Declared
encodings are checked rather than trusted: a page labelled UTF-8 that is not valid UTF-8 is
re-detected, ``latin-1``/``ascii`` labels are read as windows-1252 (as browsers do, so curly quotes
survive), and text that was UTF-8 read as Latin-1 somewhere upstream (old dumps, Wayback replays:
"SÃ£o Paulo", "donâ€™t") is repaired with ftfy. Binary bodies (PDF, images, archives) are recognised
by magic bytes and content type so no stage tries to find an article in a JPEG.
"""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)

DETECT_BYTES = 64 * 1024  # detection on more than this is slow and no more accurate
META_SCAN_BYTES = 4096

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"PK\x03\x04", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!", "rar"),
    (b"\x00\x00\x01\x00", "ico"),
    (b"OggS", "ogg"),
    (b"ID3", "mp3"),
    (b"fLaC", "flac"),
    (b"\x1aE\xdf\xa3", "webm"),
    (b"wOFF", "woff"),
    (b"wOF2", "woff2"),
    (b"\xd0\xcf\x11\xe0", "ms-office"),
    (b"\x7fELF", "elf"),
    (b"MZ", "exe"),
)
_BINARY_TYPES = re.compile(
    r"^(image|audio|video|font)/|^application/(pdf|zip|x-zip|octet-stream|gzip|x-gzip|msword|vnd\.|x-rar|"
    r"x-7z|x-tar|x-bzip|ogg|x-shockwave-flash|wasm)",
    re.I,
)
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.I)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.I)
# typical sequences of UTF-8 bytes decoded as windows-1252/latin-1: Ã©, â€™, Ã¢â‚¬â„¢, Â
_MOJIBAKE = re.compile(
    r"[ÃÂ][\x80-\xbf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]|â€|Ã[¡-¿]"
)

# WHATWG: these labels mean windows-1252 in a browser
_AS_CP1252 = {
    "iso-8859-1",
    "iso8859-1",
    "latin-1",
    "latin1",
    "l1",
    "ascii",
    "us-ascii",
    "iso_8859-1",
    "cp819",
    "windows-1252",
    "cp1252",
    "x-cp1252",
}


@dataclass
class Decoded:
    text: str
    encoding: str
    problems: list[str] = field(default_factory=list)
    is_binary: bool = False
    binary_kind: str | None = None  # "pdf", "png", ... when is_binary


def sniff_binary(body: bytes, content_type: str | None = None) -> str | None:
    """The kind of binary body (``"pdf"``, ``"png"``, ...) or None for text."""
    head = body[:16]
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            if kind == "exe" and b"<" in body[:64]:
                continue  # "MZ" is too short a magic to trust against text
            return kind
    if head[:4] == b"RIFF" and body[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return body[8:12].decode("ascii").strip().lower()
    if body[4:8] == b"ftyp":
        return "mp4"
    if content_type and _BINARY_TYPES.search(content_type.strip()) and not _looks_textual(body):
        return content_type.split(";")[0].strip().lower()
    if not any(body.startswith(b) for b, _ in _BOMS) and b"\x00" in body[:1024]:
        sample = body[:1024]
        if sample.count(b"\x00") > len(sample) // 8 and not _utf16_without_bom(sample):
            return "binary"
    return None


def _looks_textual(body: bytes) -> bool:
    head = body[:1024].lstrip().lower()
    return head.startswith((b"<!doctype", b"<html", b"<?xml", b"<head", b"<body", b"<!--", b"{", b"<meta"))


def _utf16_without_bom(sample: bytes) -> bool:
    """'<\\0h\\0t\\0' patterns: UTF-16 text, not binary."""
    return sample[1::2].count(0) > len(sample) * 0.4 or sample[0::2].count(0) > len(sample) * 0.4


def _normalise(name: str | None) -> str | None:
    if not name:
        return None
    name = name.strip().strip("\"'").lower()
    if name in _AS_CP1252:
        return "cp1252"
    try:
        info = codecs.lookup(name)
    except LookupError:
        return None
    return info.name


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    if not headers:
        return None
    for key, value in headers.items():
        if isinstance(key, bytes):
            key = key.decode("latin-1")
        if key.lower() == name:
            if isinstance(value, list | tuple):
                value = value[0] if value else None
            if isinstance(value, bytes):
                value = value.decode("latin-1")
            return value
    return None


def declared_encodings(body: bytes, headers: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(source, encoding) pairs in order of authority: bom, header, meta."""
    found: list[tuple[str, str]] = []
    for bom, bom_enc in _BOMS:
        if body.startswith(bom):
            found.append(("bom", bom_enc))
            break
    ctype = _header(headers, "content-type")
    header_match = _HEADER_CHARSET.search(ctype) if ctype else None
    header_enc = _normalise(header_match.group(1)) if header_match else None
    if header_enc:
        found.append(("header", header_enc))
    meta_match = _META_CHARSET.search(body[:META_SCAN_BYTES])
    meta_enc = _normalise(meta_match.group(1).decode("ascii", "replace")) if meta_match else None
    if meta_enc:
        found.append(("meta", meta_enc))
    return found


def _detect(body: bytes) -> str | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover
        return None
    best = from_bytes(body[:DETECT_BYTES]).best()
    return _normalise(best.encoding) if best else None


def has_mojibake(text: str, sample: int = 200_000) -> bool:
    """True when the text carries enough UTF-8-read-as-Latin-1 sequences to be worth repairing."""
    hits = len(_MOJIBAKE.findall(text[:sample]))
    return hits >= 3 or (hits >= 1 and len(text) < 2000)


def repair_mojibake(text: str) -> str:
    """Undo UTF-8 decoded as Latin-1/cp1252 (possibly twice). Only the encoding is touched."""
    import ftfy

    return ftfy.fix_encoding(text)


def decode_html(body: bytes, headers: Mapping[str, str] | None = None) -> Decoded:
    """Decode a (decompressed) body to text; never raises.

    ``problems`` may carry: ``empty``, ``binary``, ``invalid-utf8`` (declared UTF-8 but not valid; bad
    bytes replaced), ``encoding-mismatch`` (the declared encoding could not decode the body),
    ``undeclared-encoding`` (detected), ``mojibake-repaired``.
    """
    body = body or b""
    problems: list[str] = []
    if not body.strip():
        return Decoded(text="", encoding="utf-8", problems=["empty"])
    kind = sniff_binary(body, _header(headers, "content-type"))
    if kind:
        return Decoded(text="", encoding="binary", problems=["binary"], is_binary=True, binary_kind=kind)

    declared = declared_encodings(body, headers)
    if declared and declared[0][0] == "bom":
        encoding = declared[0][1]
        return _finish(body[len(_bom_of(body)) :].decode(encoding, errors="replace"), encoding, problems)
    found = _decode_declared(body, declared, problems)
    text, encoding = found if found else _decode_undeclared(body, declared, problems)
    return _finish(text, encoding, problems)


_WIDE = ("utf-16", "utf-32", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")


def _decode_declared(
    body: bytes, declared: list[tuple[str, str]], problems: list[str]
) -> tuple[str, str] | None:
    """(text, encoding) by the first declared encoding that decodes the body, or None."""
    for _source, enc in declared:
        if enc in _WIDE:
            continue  # a meta tag cannot honestly declare UTF-16 in an ASCII-compatible file
        if enc != "utf-8" and not body.isascii():
            try:  # valid multi-byte UTF-8 is never an accident: the label is wrong
                text = body.decode("utf-8")
                problems.append("encoding-mismatch")
                return text, "utf-8"
            except UnicodeDecodeError:
                pass
        try:
            return body.decode(enc), enc
        except UnicodeDecodeError:
            if enc == "cp1252":  # undefined cp1252 bytes: browsers map them to C1 controls
                return body.decode("latin-1"), enc
            problems.append("invalid-utf8" if enc == "utf-8" else "encoding-mismatch")
        except LookupError:
            continue
    return None


def _decode_undeclared(body: bytes, declared: list[tuple[str, str]], problems: list[str]) -> tuple[str, str]:
    """(text, encoding) when no declared encoding fits: UTF-8, plain Western text, or detection."""
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if "invalid-utf8" in problems and _mostly_utf8(body):
        return body.decode("utf-8", errors="replace"), "utf-8"
    western = _plain_cp1252(body)
    if western is not None:  # no UTF-8 sequence at all, and reads as Western text
        problems.append("encoding-mismatch")
        return western, "cp1252"
    detected = _detect(body)
    if not declared:
        problems.append("undeclared-encoding")
    if detected and detected not in ("utf-8", "ascii"):
        return body.decode(detected, errors="replace"), detected
    if "invalid-utf8" in problems or detected == "utf-8":
        if "invalid-utf8" not in problems:
            problems.append("invalid-utf8")
        return body.decode("utf-8", errors="replace"), "utf-8"
    return body.decode("cp1252", errors="replace"), "cp1252"


def _mostly_utf8(body: bytes) -> bool:
    """A few stray bytes in otherwise valid UTF-8: keep UTF-8 and replace them.

    Without a single valid multi-byte sequence the body is not UTF-8 at all, whatever the label says
    (a windows-1252 page served as UTF-8): replacing its bytes would lose every accented letter.
    """
    sample = body[:DETECT_BYTES].decode("utf-8", errors="replace")
    bad = sample.count("\ufffd")
    good = sum(1 for ch in sample if ord(ch) > 127) - bad
    return good > 0 and bad <= max(good, 16)


_WESTERN_MARKS = frozenset("‘’‚“”„–—…€«»°£§©®·´¨¸ªº¿¡•™")


def _plain_cp1252(body: bytes) -> str | None:
    """``body`` as windows-1252 when every non-ASCII character it gives is a letter or common
    punctuation (the web's default for mislabelled Latin-script pages), else None (detection decides).

    Charset detectors guess windows-1250 or similar for short Afrikaans, Dutch or Portuguese texts
    ("sê" would become "sę"); the WHATWG default for a wrong label on such a page is windows-1252.
    """
    try:
        text = body.decode("cp1252")
    except UnicodeDecodeError:
        return None
    for ch in set(text):
        if ord(ch) > 127 and not (ch.isalpha() or ch in _WESTERN_MARKS or ch == "\xa0"):
            return None
    return text


def _finish(text: str, encoding: str, problems: list[str]) -> Decoded:
    problems = list(dict.fromkeys(problems))  # header and meta may report the same fault
    if has_mojibake(text):
        fixed = repair_mojibake(text)
        if fixed != text:
            text = fixed
            problems.append("mojibake-repaired")
    if "\x00" in text:
        text = text.replace("\x00", "")
    return Decoded(text=text, encoding=encoding, problems=problems)


def _bom_of(body: bytes) -> bytes:
    for bom, _enc in _BOMS:
        if body.startswith(bom):
            return bom
    return b""


__all__ = ["Decoded", "declared_encodings", "decode_html", "has_mojibake", "repair_mojibake", "sniff_binary"]
