"""Sitemap parsing: urlsets, sitemap indexes, Google News sitemaps, .gz, plain text, feeds as sitemaps.

Sitemaps in the wild use the wrong namespace (Google's 2005 one), no namespace, CDATA, bare text
inside ``<sitemap>``, byte-order marks, leading blank lines and gzip without a ``.gz`` name; they are
also an attack surface (entity expansion, decompression bombs). So: namespaces are ignored (local
names only), gzip is recognised by its magic bytes and inflated with a cap, lxml runs with entity
resolution, DTD loading and network access off and ``recover=True`` so a broken file still yields
what it lists. Nothing here raises; problems are reported on the result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urljoin

from lxml import etree

from sacorpus.sources.dates import to_utc_iso
from sacorpus.text.compression import GZIP_MAGIC, decompress

log = logging.getLogger(__name__)

MAX_SITEMAP_BYTES = 64 * 1024 * 1024  # the protocol allows 50 MB uncompressed; a little slack
MAX_ENTRIES = 100_000  # the protocol allows 50,000 URLs per file

SitemapKind = Literal["urlset", "index", "text", "feed", "unknown"]
_URL_LINE = re.compile(r"^https?://\S+$", re.I)


@dataclass
class SitemapEntry:
    loc: str
    lastmod: str | None = None  # UTC ISO
    news_title: str | None = None
    news_published: str | None = None  # UTC ISO (news:publication_date)
    news_language: str | None = None
    news_publication: str | None = None

    @property
    def date(self) -> str | None:
        """The best date for windowing: the news publication date, else lastmod."""
        return self.news_published or self.lastmod


@dataclass
class SitemapResult:
    kind: SitemapKind = "unknown"
    entries: list[SitemapEntry] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)  # child sitemaps of an index
    sitemap_lastmods: dict[str, str] = field(default_factory=dict)  # child sitemap -> lastmod (UTC ISO)
    problem: str | None = None
    truncated_locs: int = 0  # a <loc> cut off by a truncated document: dropped, never emitted

    @property
    def urls(self) -> list[str]:
        return [e.loc for e in self.entries]


def parse_sitemap(body: bytes, url: str) -> SitemapResult:
    """Parse one sitemap document fetched from ``url``; never raises."""
    try:
        return _parse_sitemap(body, url)
    except Exception as exc:  # the contract is "never raise": report the problem instead
        log.debug("sitemap %s failed", url, exc_info=True)
        return SitemapResult(problem=f"{type(exc).__name__}: {exc}"[:500])


def _parse_sitemap(body: bytes, url: str) -> SitemapResult:
    if isinstance(body, str):
        body = body.encode("utf-8")
    problems: list[str] = []
    if body[:2] == GZIP_MAGIC:  # the page core's inflater, capped: a bomb keeps what came before the cap
        inflated = decompress(body, "gzip", max_bytes=MAX_SITEMAP_BYTES, keep_partial=True)
        body = inflated.data
        if inflated.problem == "bomb":
            problems.append(f"decompressed size over {MAX_SITEMAP_BYTES} bytes; truncated")
        elif inflated.problem:
            problems.append(f"gzip {inflated.problem}")
    elif len(body) > MAX_SITEMAP_BYTES:
        body = body[:MAX_SITEMAP_BYTES]
        problems.append(f"body over {MAX_SITEMAP_BYTES} bytes; truncated")
    stripped = _strip_bom(body).lstrip()
    if not stripped:
        result = SitemapResult(problem="empty document")
    elif stripped[:1] == b"<":
        result = _parse_xml(stripped, url)
        _drop_cut_loc(result, stripped)
    else:
        result = _parse_text(stripped, url)
    if problems:
        result.problem = "; ".join([*problems, *([result.problem] if result.problem else [])])
    return result


_LOC_OPEN = re.compile(rb"<(?:\w+:)?loc\s*>")
_LOC_CLOSE = re.compile(rb"</(?:\w+:)?loc\s*>")


def _drop_cut_loc(result: SitemapResult, body: bytes) -> None:
    """A document cut off inside its last ``<loc>`` (a truncated download or gzip stream): the parser
    recovers that element with half a URL, which would be fetched as an article. It is dropped."""
    opened = [m.end() for m in _LOC_OPEN.finditer(body)]
    if not opened or _LOC_CLOSE.search(body, opened[-1]):
        return
    if result.kind == "index" and result.sitemaps:
        cut = result.sitemaps.pop()
        result.sitemap_lastmods.pop(cut, None)
    elif result.entries:
        result.entries.pop()
    else:
        return
    result.truncated_locs += 1
    result.problem = "; ".join(p for p in (result.problem, "a truncated <loc> was dropped") if p)


def _strip_bom(body: bytes) -> bytes:
    if body.startswith(b"\xef\xbb\xbf"):
        return body[3:]
    if body[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return body.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            return body
    return body


def _parse_text(body: bytes, url: str) -> SitemapResult:
    """Plain-text sitemap: one absolute URL per line (anything else is skipped and counted)."""
    text = body.decode("utf-8", errors="replace")
    result = SitemapResult(kind="text")
    skipped = 0
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if _URL_LINE.match(line) and len(result.entries) < MAX_ENTRIES:
            result.entries.append(SitemapEntry(loc=line))
        else:
            skipped += 1
    if skipped:
        result.problem = f"{skipped} non-URL lines skipped"
    if not result.entries and skipped:
        result.kind = "unknown"
    return result


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def _text(el: etree._Element | None) -> str | None:
    if el is None:
        return None
    text = "".join(el.itertext()).strip()
    return text or None


def _child(el: etree._Element, name: str) -> etree._Element | None:
    for child in el:
        if _local(child.tag) == name:
            return child
    return None


def _strip_doctype(body: bytes) -> bytes:
    """Remove the DOCTYPE (and its internal subset) from the prolog.

    Sitemaps never need a DTD; entity declarations in one are only ever an attack (billion laughs)
    or noise, and libxml2 aborts the whole document when its amplification limit trips, losing
    every URL after the first entity reference.
    """
    start = body.find(b"<!DOCTYPE", 0, 4096)
    if start < 0:
        start = body.find(b"<!doctype", 0, 4096)
    if start < 0:
        return body
    close = body.find(b">", start)
    bracket = body.find(b"[", start, close if close > 0 else None)
    if bracket >= 0:
        end = re.compile(rb"\]\s*>").search(body, bracket)
        close = end.end() - 1 if end else -1
    if close < 0:
        return body[:start]
    return body[:start] + body[close + 1 :]


def _parse_xml(body: bytes, url: str) -> SitemapResult:
    body = _strip_doctype(body)
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=True,
        remove_comments=True,
    )
    try:
        root = etree.fromstring(body, parser=parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        return _salvage(body, url, f"XML error: {exc}")
    if root is None:
        return _salvage(body, url, "XML could not be parsed")
    problem = None
    if parser.error_log:
        problem = f"XML recovered from errors: {parser.error_log[0].message}"[:300]
    name = _local(root.tag)
    if name == "urlset":
        result = _urlset(root, url)
    elif name == "sitemapindex":
        result = _index(root, url)
    elif name in ("rss", "rdf", "feed"):
        result = _feed(body, url)
    else:
        result = SitemapResult(problem=f"unknown root element <{name}>")
    if problem and not result.problem:
        result.problem = problem
    return result


def _salvage(body: bytes, url: str, problem: str) -> SitemapResult:
    """Last resort for documents lxml rejects outright: pull <loc> values with a regex."""
    text = body.decode("utf-8", errors="replace")
    locs = re.findall(r"<(?:\w+:)?loc>\s*(?:<!\[CDATA\[)?\s*(.*?)\s*(?:\]\]>)?\s*</(?:\w+:)?loc>", text, re.S)
    kind: SitemapKind = "index" if re.search(r"<(?:\w+:)?sitemapindex\b", text) else "urlset"
    result = SitemapResult(kind=kind if locs else "unknown", problem=problem)
    for loc in locs[:MAX_ENTRIES]:
        absolute = _absolute(loc, url)
        if absolute:
            if kind == "index":
                result.sitemaps.append(absolute)
            else:
                result.entries.append(SitemapEntry(loc=absolute))
    return result


def _urlset(root: etree._Element, url: str) -> SitemapResult:
    result = SitemapResult(kind="urlset")
    for el, loc in _located(root, "url", url):
        entry = SitemapEntry(loc=loc, lastmod=to_utc_iso(_text(_child(el, "lastmod"))))
        news = _child(el, "news")
        if news is not None:
            entry.news_title = _text(_child(news, "title"))
            entry.news_published = to_utc_iso(_text(_child(news, "publication_date")))
            publication = _child(news, "publication")
            if publication is not None:
                entry.news_publication = _text(_child(publication, "name"))
                entry.news_language = _text(_child(publication, "language"))
        result.entries.append(entry)
        if len(result.entries) >= MAX_ENTRIES:
            result.problem = f"more than {MAX_ENTRIES} entries; rest ignored"
            break
    return result


def _own_text(el: etree._Element) -> str | None:
    text = (el.text or "").strip()
    return text or None


def _located(root: etree._Element, tag: str, base: str) -> Iterator[tuple[etree._Element, str]]:
    """The ``tag`` children (<url> or <sitemap>) of ``root`` with their absolute <loc>; none without one.

    A bare URL as the element's own text (no <loc>) is taken as its loc.
    """
    for el in root:
        if _local(el.tag) != tag:
            continue
        loc_el = _child(el, "loc")
        loc = _absolute(_text(loc_el) if loc_el is not None else _own_text(el), base)
        if loc:
            yield el, loc


def _index(root: etree._Element, url: str) -> SitemapResult:
    result = SitemapResult(kind="index")
    for el, loc in _located(root, "sitemap", url):
        if loc in result.sitemap_lastmods or loc in result.sitemaps:
            continue
        result.sitemaps.append(loc)
        lastmod = to_utc_iso(_text(_child(el, "lastmod")))
        if lastmod:
            result.sitemap_lastmods[loc] = lastmod
        if len(result.sitemaps) >= MAX_ENTRIES:
            result.problem = f"more than {MAX_ENTRIES} sitemaps; rest ignored"
            break
    return result


def _feed(body: bytes, url: str) -> SitemapResult:
    """RSS/Atom used as a sitemap (allowed by the protocol): entry links with their dates."""
    from sacorpus.sources.feeds import parse_feed

    feed = parse_feed(body, url)
    result = SitemapResult(kind="feed", problem=feed.problem if feed.bozo else None)
    for entry in feed.entries:
        if entry.url:
            result.entries.append(SitemapEntry(loc=entry.url, lastmod=entry.updated or entry.published))
    return result


def _absolute(loc: str | None, base: str) -> str | None:
    if not loc:
        return None
    loc = loc.strip()
    if not loc or any(c in loc for c in "\n\r\t "):
        loc = re.sub(r"\s+", "", loc)
    try:
        absolute = urljoin(base, loc) if base else loc
    except ValueError:
        return None
    return absolute if absolute.lower().startswith(("http://", "https://")) else None


# --- robots.txt and windows ------------------------------------------------------------------------


def sitemaps_from_robots(text: str | bytes, base_url: str) -> list[str]:
    """``Sitemap:`` URLs declared in a robots.txt (any group, relative ones resolved), deduplicated."""
    if isinstance(text, bytes):
        text = _strip_bom(text).decode("utf-8", errors="replace")
    text = text.lstrip("\ufeff")
    found: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"^\s*site-?map\s*:\s*(\S+)", line, re.I)
        if not m:
            continue
        absolute = _absolute(m.group(1), base_url)
        if absolute and absolute not in found:
            found.append(absolute)
    return found


#: where sites put their sitemaps when robots.txt names none (the protocol's and the big CMSs' defaults)
STANDARD_SITEMAP_PATHS = ("/sitemap.xml", "/sitemap_index.xml", "/news-sitemap.xml", "/sitemap-news.xml")


def standard_sitemaps(home: str, known: Iterable[str] = ()) -> list[str]:
    """The standard sitemap locations of ``home``'s host, minus those already ``known``."""
    seen = set(known)
    return [u for u in (urljoin(home, path) for path in STANDARD_SITEMAP_PATHS) if u not in seen]
