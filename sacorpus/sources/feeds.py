"""Feed parsing: RSS 0.9x/1.0/2.0, RDF, Atom 0.3/1.0 (via feedparser) and JSON Feed (here).

The feed is a source of article URLs plus fallback metadata (title, authors, date, guid, summary)
for pages whose HTML hides them. Real feeds are often broken, so parsing never raises: an ill-formed
("bozo") feed still returns every entry that could be read, with ``bozo=True`` and the problem text,
which the spider counts in stats.

Safety: feedparser is given a stream (never a bytes/str that it might treat as a file name or URL),
the body is capped (:data:`MAX_FEED_BYTES`), and entity declarations are neutralised by feedparser's
DOCTYPE rewriting (only entities whose value contains no ``&`` survive, so billion-laughs nesting is
dropped) while expat's own amplification limit stops quadratic blow-ups.
"""

from __future__ import annotations

import html
import io
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import feedparser

from sacorpus import settings as defaults
from sacorpus.sources.dates import struct_to_datetime, to_utc_iso

log = logging.getLogger(__name__)

MAX_FEED_BYTES = 16 * 1024 * 1024
MAX_SUMMARY_CHARS = 4000
#: items read from one XML feed document (the first ones, as the publisher orders them)
MAX_FEED_ITEMS: int = defaults.SACORPUS_FEED_MAX_ITEMS
_ITEM_END = re.compile(rb"</(?:[A-Za-z][\w.-]*:)?(?:item|entry)\s*>", re.I)
_TAG = re.compile(r"<[^>]*>")
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1\s*>", re.I | re.S)
_SPACE = re.compile(r"\s+")


@dataclass
class FeedEntry:
    url: str | None  # absolute; FeedBurner's origLink preferred over the tracking link
    link: str | None = None  # absolute; the entry's own link as the feed gives it (tracking link)
    title: str | None = None
    published: str | None = None  # UTC ISO 8601, or None
    published_raw: str | None = None
    updated: str | None = None
    authors: list[str] = field(default_factory=list)
    guid: str | None = None
    summary: str | None = None  # plain text (tags removed), capped
    language: str | None = None


@dataclass
class FeedResult:
    title: str | None = None
    link: str | None = None  # the site's home page as the feed gives it
    kind: str | None = None  # feedparser's version ("rss20", "atom10", ...) or "json1"/"json11"
    language: str | None = None
    entries: list[FeedEntry] = field(default_factory=list)
    bozo: bool = False
    problem: str | None = None


def parse_feed(
    body: bytes, url: str, headers: Mapping[str, str] | None = None, max_items: int = MAX_FEED_ITEMS
) -> FeedResult:
    """Parse one feed document fetched from ``url``; never raises.

    ``headers`` are the HTTP response headers (Content-Type's charset decides the encoding when the
    document does not; Content-Location overrides the base URL). Relative links are resolved against
    xml:base, then the feed URL.
    """
    try:
        return _parse_feed(body, url, headers, max_items)
    except Exception as exc:  # the contract is "never raise": report the problem instead
        log.debug("feed %s failed to parse", url, exc_info=True)
        return FeedResult(bozo=True, problem=f"{type(exc).__name__}: {exc}")


def cut_items(body: bytes, max_items: int) -> tuple[bytes, int]:
    """``body`` ending after its ``max_items``-th item or entry, and how many items were cut off.

    Why: parsing costs milliseconds per item, so a feed of 100,000 items would stall the crawl for
    minutes; a feed lists its items in the publisher's order (newest first), and what a run leaves out
    is read on a later poll. The cut document is read like any truncated feed (bozo, entries kept)."""
    if max_items <= 0:
        return body, 0
    ends = _ITEM_END.finditer(body)
    for count, match in enumerate(ends, start=1):
        if count == max_items:
            rest = list(_ITEM_END.finditer(body, match.end()))
            if not rest:
                return body, 0
            # keep what follows the last item (</channel></rss>, </feed>): the document stays well-formed
            return body[: match.end()] + body[rest[-1].end() :], len(rest)
    return body, 0


def _parse_feed(body: bytes, url: str, headers: Mapping[str, str] | None, max_items: int) -> FeedResult:
    if isinstance(body, str):
        body = body.encode("utf-8")
    problems: list[str] = []
    if len(body) > MAX_FEED_BYTES:
        body = body[:MAX_FEED_BYTES]
        problems.append(f"body truncated to {MAX_FEED_BYTES} bytes")
    lowered = _plain_headers(headers)
    if _looks_like_json(body, lowered.get("content-type", "")):
        result = _parse_json_feed(body, url)
        if max_items > 0 and len(result.entries) > max_items:
            problems.append(f"{len(result.entries) - max_items} items past the first {max_items} not read")
            result.entries = result.entries[:max_items]
    else:
        body, cut = cut_items(body, max_items)
        if cut:
            problems.append(f"{cut} items past the first {max_items} not read")
        result = _parse_xml_feed(body, url, lowered)
    if problems:
        result.bozo = True
        result.problem = "; ".join([*problems, *([result.problem] if result.problem else [])])
    return result


# --- XML feeds (feedparser) ----------------------------------------------------------------------


def _parse_xml_feed(body: bytes, url: str, headers: dict[str, str]) -> FeedResult:
    response_headers = dict(headers)
    response_headers.setdefault("content-location", url)
    # Without a Content-Type feedparser flags every document bozo ("NonXMLContentType"); a feed
    # fetched without headers is XML whose own declaration names the encoding.
    response_headers.setdefault("content-type", "application/xml")
    parsed = feedparser.parse(
        io.BytesIO(body),
        response_headers=response_headers,
        resolve_relative_uris=True,
        sanitize_html=True,
    )
    feed = parsed.get("feed", {}) or {}
    base = url
    result = FeedResult(
        title=_clean(feed.get("title")),
        link=_absolute(feed.get("link"), url),
        kind=parsed.get("version") or None,
        language=feed.get("language") or None,
        bozo=bool(parsed.get("bozo")),
    )
    exc = parsed.get("bozo_exception")
    if exc is not None:
        result.problem = f"{type(exc).__name__}: {exc}"[:500]
    for raw in parsed.get("entries", []) or []:
        try:
            result.entries.append(_entry_from_feedparser(raw, base, result.language))
        except Exception as exc:  # one odd entry must not lose the others
            result.bozo = True
            result.problem = f"entry skipped: {type(exc).__name__}: {exc}"[:500]
    return result


def _entry_from_feedparser(raw: Mapping[str, Any], base: str, feed_language: str | None) -> FeedEntry:
    own_link = raw.get("link") or _alternate_link(raw.get("links") or [])
    link = raw.get("feedburner_origlink") or own_link
    guid = raw.get("id") or raw.get("guid") or None
    if not link and guid and re.match(r"^https?://", guid):
        link = guid
    published_raw = raw.get("published") or _own(raw, "updated") or raw.get("created") or None
    published_dt = struct_to_datetime(raw.get("published_parsed") or _own(raw, "updated_parsed"))
    published = to_utc_iso(published_dt) if published_dt else to_utc_iso(published_raw)
    updated_dt = struct_to_datetime(_own(raw, "updated_parsed"))
    language = None
    for key in ("title_detail", "summary_detail"):
        detail = raw.get(key) or {}
        if detail.get("language"):
            language = detail["language"]
            break
    return FeedEntry(
        url=_absolute(link, base),
        link=_absolute(own_link, base),
        title=_clean(raw.get("title")),
        published=published,
        published_raw=published_raw,
        updated=to_utc_iso(updated_dt),
        authors=_authors(raw),
        guid=str(guid) if guid else None,
        summary=_clean(raw.get("summary"), MAX_SUMMARY_CHARS),
        language=language or feed_language,
    )


def _alternate_link(links: list[Mapping[str, Any]]) -> str | None:
    for link in links:
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return str(link["href"])
    return None


def _own(raw: Mapping[str, Any], key: str) -> Any:
    """``raw[key]`` without feedparser's aliases (its dict answers "updated" with "published")."""
    return dict.get(raw, key) if isinstance(raw, dict) else raw.get(key)


def _authors(raw: Mapping[str, Any]) -> list[str]:
    names: list[str] = []
    for author in raw.get("authors") or []:
        name = author.get("name") if isinstance(author, Mapping) else None
        name = _clean(name) if name else None
        if name and name not in names:
            names.append(name)
    if not names and raw.get("author"):
        name = _clean(raw["author"])
        if name:
            names.append(name)
    return names


# --- JSON Feed -----------------------------------------------------------------------------------


def _looks_like_json(body: bytes, content_type: str) -> bool:
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return False
    return "json" in content_type.lower() or b"jsonfeed.org" in body[:4096] or b'"items"' in body


def _parse_json_feed(body: bytes, url: str) -> FeedResult:
    """JSON Feed 1.0 / 1.1 (https://jsonfeed.org/version/1.1)."""
    try:
        data = json.loads(body.decode("utf-8-sig", errors="replace"))
    except ValueError as exc:
        return FeedResult(kind="json", bozo=True, problem=f"invalid JSON: {exc}"[:500])
    if not isinstance(data, dict):
        return FeedResult(kind="json", bozo=True, problem="JSON Feed is not an object")
    version = str(data.get("version") or "")
    result = FeedResult(
        title=_clean(_str(data.get("title"))),
        link=_absolute(_str(data.get("home_page_url")), url),
        kind="json11" if version.endswith("/1.1") else "json1",
        language=_str(data.get("language")),
    )
    if "jsonfeed.org/version/" not in version:
        result.bozo = True
        result.problem = f"not a JSON Feed version: {version[:80]!r}"
    feed_authors = _json_authors(data)
    items = data.get("items")
    if not isinstance(items, list):
        result.bozo = True
        result.problem = "JSON Feed has no items list"
        return result
    for item in items:
        if not isinstance(item, dict):
            result.bozo = True
            result.problem = "non-object item skipped"
            continue
        link = _str(item.get("url")) or _str(item.get("external_url"))
        guid = _str(item.get("id"))
        if not link and guid and re.match(r"^https?://", guid):
            link = guid
        published_raw = _str(item.get("date_published")) or _str(item.get("date_modified"))
        summary = (
            _str(item.get("summary")) or _str(item.get("content_text")) or _str(item.get("content_html"))
        )
        result.entries.append(
            FeedEntry(
                url=_absolute(link, url),
                link=_absolute(link, url),
                title=_clean(_str(item.get("title"))),
                published=to_utc_iso(published_raw),
                published_raw=published_raw,
                updated=to_utc_iso(_str(item.get("date_modified"))),
                authors=_json_authors(item) or feed_authors,
                guid=guid,
                summary=_clean(summary, MAX_SUMMARY_CHARS),
                language=_str(item.get("language")) or result.language,
            )
        )
    return result


def _json_authors(obj: Mapping[str, Any]) -> list[str]:
    raw = obj.get("authors")
    if not isinstance(raw, list):
        raw = [obj["author"]] if isinstance(obj.get("author"), dict) else []
    names = []
    for author in raw:
        if isinstance(author, dict):
            name = _clean(_str(author.get("name")))
            if name and name not in names:
                names.append(name)
    return names


# --- helpers -------------------------------------------------------------------------------------


def _plain_headers(headers: Mapping[Any, Any] | None) -> dict[str, str]:
    """Lower-cased ``str -> str`` headers from a dict or Scrapy's ``Headers`` (bytes keys, list values)."""
    plain: dict[str, str] = {}
    for key, value in (headers or {}).items():
        if isinstance(value, list | tuple):
            value = value[-1] if value else ""
        if isinstance(key, bytes):
            key = key.decode("latin-1")
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        plain[str(key).lower()] = str(value)
    return plain


def _str(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return text or None
    return None


def _clean(value: Any, limit: int | None = None) -> str | None:
    """Plain text: tags removed, entities decoded, whitespace collapsed."""
    if not isinstance(value, str):
        return None
    text = _SPACE.sub(" ", html.unescape(_TAG.sub(" ", _SCRIPT.sub(" ", value)))).strip()
    if limit is not None and len(text) > limit:
        text = text[:limit].rstrip() + "…"
    return text or None


def _absolute(link: Any, base: str) -> str | None:
    if not isinstance(link, str) or not link.strip():
        return None
    text: str = link.strip()
    try:
        return urljoin(base, text) if base else text
    except ValueError:
        return text
