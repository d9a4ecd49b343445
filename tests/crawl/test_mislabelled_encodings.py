"""Pages with wrong Content-Encoding or charset labels reach the page core and are stored right.

A loopback site serves one article per fault; a real crawl must store each with its text (or, for a
decompression bomb, as an empty article whose problems say why), never drop it in the download layer.
"""

from __future__ import annotations

import gzip
import zlib

import brotli
import pytest

from sacorpus.demo.server import Resource, SiteServer

pytestmark = pytest.mark.slow

HOST = "http://demo.sacorpus.invalid"
SENTENCE = (
    "Die minister sê die reën het die boere se oeste in die Karoo gered, en die paaie is weer oop. "
    "Boere in die distrik het gesê hulle is dankbaar, maar die skade aan damme moet nog herstel word. "
)


def _page(n: int) -> bytes:
    return (
        f"<html><head><meta charset='utf-8'><title>Reën red oeste {n}</title></head><body><article>"
        f"<h1>Reën red oeste {n}</h1>"
        + "".join(f"<p>{SENTENCE} (Deel {k}.)</p>" for k in range(6))
        + "</article></body></html>"
    ).encode("utf-8")


def _raw_deflate(data: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


CASES = {  # slug: (body, Content-Encoding label, charset label)
    "brotli-as-gzip": (brotli.compress(_page(1)), "gzip", "utf-8"),
    "zlib-as-br": (zlib.compress(_page(2)), "br", "utf-8"),
    "raw-deflate-as-gzip": (_raw_deflate(_page(3)), "gzip", "utf-8"),
    "gzip-twice": (gzip.compress(gzip.compress(_page(4))), "gzip", "utf-8"),
    "cp1252-as-utf8": (
        _page(5).decode("utf-8").replace("charset='utf-8'", "").encode("cp1252"),
        None,
        "utf-8",
    ),
    "truncated-bomb": (gzip.compress(b"\0" * 30_000_000)[:20_000], "gzip", "utf-8"),
}


def _site() -> SiteServer:
    resources = {}
    items = []
    for n, (slug, (body, coding, charset)) in enumerate(CASES.items()):
        path = f"/news/2026/11/2{n}/{slug}-{10000 + n}"
        headers = {"Content-Encoding": coding} if coding else {}
        resources[path] = Resource(body, f"text/html; charset={charset}", headers)
        items.append(f"<item><title>{slug}</title><link>{HOST}{path}</link></item>")
    rss = f"<?xml version='1.0'?><rss version='2.0'><channel><title>t</title>{''.join(items)}</channel></rss>"
    resources["/rss.xml"] = Resource(rss.encode(), "application/rss+xml")
    return SiteServer(resources)


def test_every_mislabelled_page_is_stored(crawl):
    with _site() as server:
        run = crawl(
            "demo",
            "-a",
            f"base_url={server.base_url}",
            "-a",
            "sources=feeds",
            "-s",
            "ROBOTSTXT_OBEY=False",
            "-s",
            "SACORPUS_GZIP_MAX_BYTES=5000000",
        )
    assert run.returncode == 0, run.log[-3000:]
    got = {item["url"].rsplit("/", 1)[-1].rsplit("-", 1)[0]: item for item in run.items}
    assert set(got) == set(CASES), run.log[-3000:]
    for slug in ("brotli-as-gzip", "zlib-as-br", "raw-deflate-as-gzip", "gzip-twice"):
        assert "Die minister sê die reën" in (got[slug]["text"] or ""), (slug, got[slug]["problems"])
    western = got["cp1252-as-utf8"]
    assert "sê" in western["text"] and "sę" not in western["text"]
    assert western["encoding"] == "cp1252"
    bomb = got["truncated-bomb"]
    assert not bomb["text"] and "gzip:bomb" in bomb["problems"]
