"""Decompression and decoding of real-world bodies: mislabelled codings, bombs, encodings, mojibake."""

from __future__ import annotations

import codecs
import gzip
import time
import zlib

import brotli
import pytest

from sacorpus.text.compression import decompress
from sacorpus.text.decode import decode_html

HTML = (
    "<html><head><title>Nuus</title></head><body><p>Caf\u00e9 \u2019n na\u00efewe storie oor "
    "Gqeberha en Tshwane.</p></body></html>"
)
BODY = HTML.encode("utf-8") * 20


def test_gzip_without_header_is_sniffed():
    r = decompress(gzip.compress(BODY), None)
    assert r.data == BODY and r.applied == ["gzip"] and r.problem is None


def test_double_gzip():
    r = decompress(gzip.compress(gzip.compress(BODY)), "gzip")
    assert r.data == BODY and r.applied == ["gzip", "gzip"]
    assert r.content_encoding == "gzip+gzip"


def test_truncated_gzip_keeps_prefix_and_says_so():
    data = gzip.compress(bytes(range(256)) * 400)
    r = decompress(data[: len(data) // 2], "gzip")
    assert r.problem == "truncated"
    assert 0 < len(r.data) < 256 * 400
    assert (bytes(range(256)) * 400).startswith(r.data)


def test_bomb_is_capped_quickly():
    bomb = gzip.compress(b"\0" * 30_000_000)
    start = time.monotonic()
    r = decompress(bomb, None, max_bytes=1_000_000)
    assert r.problem == "bomb" and len(r.data) <= 1_000_000
    assert time.monotonic() - start < 5


def test_brotli_labelled():
    r = decompress(brotli.compress(BODY), "br")
    assert r.data == BODY and r.applied == ["br"]


def test_raw_deflate_without_zlib_header():
    c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    r = decompress(c.compress(BODY) + c.flush(), "deflate")
    assert r.data == BODY and r.applied == ["deflate"]


def test_zlib_deflate_unlabelled():
    r = decompress(zlib.compress(BODY), None)
    assert r.data == BODY and r.applied == ["deflate"]


def test_plain_body_labelled_gzip_is_left_alone():
    r = decompress(BODY, "gzip")
    assert r.data == BODY and r.applied == [] and r.problem is None


@pytest.mark.parametrize("junk", [b"\x1f\x8bnot really gzip", b"", b"\x00" * 10])
def test_garbage_never_raises(junk):
    r = decompress(junk, "gzip")
    assert isinstance(r.data, bytes)


def test_latin1_label_reads_cp1252_quotes():
    body = HTML.replace("<head>", "<head><meta charset='iso-8859-1'>").encode("cp1252")
    d = decode_html(body)
    assert d.encoding == "cp1252" and "\u2019n" in d.text and "Caf\u00e9" in d.text


def test_header_charset_cp1252():
    d = decode_html(HTML.encode("cp1252"), {"Content-Type": "text/html; charset=windows-1252"})
    assert "na\u00efewe" in d.text and d.encoding == "cp1252"


def test_utf8_bom_wins_over_wrong_meta():
    body = codecs.BOM_UTF8 + HTML.replace("<head>", "<head><meta charset='windows-1251'>").encode("utf-8")
    d = decode_html(body)
    assert d.encoding == "utf-8" and "Caf\u00e9" in d.text and not d.text.startswith("\ufeff")


def test_meta_charset_used_without_header():
    text = "<html><head><meta http-equiv='Content-Type' content='text/html; charset=koi8-r'></head><body>\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440</body></html>"
    d = decode_html(text.encode("koi8-r"))
    assert "\u041f\u0440\u0438\u0432\u0435\u0442" in d.text and d.encoding == "koi8-r"


def test_mojibake_is_repaired():
    broken = HTML.encode("utf-8").decode("cp1252")  # UTF-8 read as cp1252 in an old dump
    d = decode_html(broken.encode("utf-8"))
    assert "mojibake-repaired" in d.problems
    assert "Caf\u00e9 \u2019n" in d.text


def test_invalid_utf8_is_replaced_not_fatal():
    body = HTML.encode("utf-8") + b"\xff\xfe\xc3 broken"
    d = decode_html(body, {"content-type": "text/html; charset=utf-8"})
    assert "invalid-utf8" in d.problems and "Caf\u00e9" in d.text and "\ufffd" in d.text


@pytest.mark.parametrize(
    "body,ctype,kind",
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", None, "pdf"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", None, "png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg", "jpeg"),
        (b"PK\x03\x04\x14\x00", "application/zip", "zip"),
        (b"\x00\x01\x02\x03" * 64, "application/octet-stream", "application/octet-stream"),
    ],
)
def test_binary_bodies_are_labelled(body, ctype, kind):
    d = decode_html(body, {"Content-Type": ctype} if ctype else None)
    assert d.is_binary and d.binary_kind == kind and d.text == ""


def test_empty_body():
    d = decode_html(b"  \n")
    assert d.problems == ["empty"] and not d.is_binary


PAGE = ("<html><body><p>Die minister sê die reën het die oeste gered.</p></body></html>" * 20).encode("utf-8")


def _raw_deflate(data: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


@pytest.mark.parametrize(
    "body,label,coding",
    [
        (brotli.compress(PAGE), "gzip", "br"),
        (zlib.compress(PAGE), "br", "deflate"),
        (_raw_deflate(PAGE), "gzip", "deflate"),
        (gzip.compress(PAGE), "br", "gzip"),
        (brotli.compress(PAGE), "deflate", "br"),
    ],
)
def test_mislabelled_coding_is_found(body, label, coding):
    result = decompress(body, label)
    assert result.data == PAGE and result.applied == [coding] and result.problem is None


def test_mislabelled_binary_is_left_alone():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    result = decompress(png, "gzip")
    assert result.data == png and result.applied == []


def test_windows_1252_labelled_utf8_stays_windows_1252():
    text = "<html><body><p>Hy sê die reën val, én die boere is bly – “baie bly”.</p></body></html>"
    decoded = decode_html(text.encode("cp1252"), {"Content-Type": "text/html; charset=utf-8"})
    assert decoded.encoding == "cp1252" and "sê die reën" in decoded.text and "“baie bly”" in decoded.text
    assert decoded.problems.count("invalid-utf8") == 1 and "encoding-mismatch" in decoded.problems


def test_stray_bytes_in_real_utf8_keep_utf8():
    body = ("<p>Café owners in Gqeberha say they’re hopeful.</p>" * 5).encode("utf-8") + b"\x92"
    decoded = decode_html(body, {"Content-Type": "text/html; charset=utf-8"})
    assert decoded.encoding == "utf-8" and "they’re" in decoded.text
