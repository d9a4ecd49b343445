"""Where a site keeps its feeds and sitemaps, read from its homepage and robots.txt (no Scrapy).

Why: a user adding a publication knows its homepage, rarely its feed or sitemap URLs. Sites announce
feeds in ``<link rel="alternate">`` and in footer links, and sitemaps in robots.txt; the big CMSs put
both at a few well-known paths. This module only lists candidates, most trusted first: whether a
candidate really is a feed or a sitemap is decided by fetching it and reading it with the crawl's own
parsers (:mod:`sacorpus.sources.feeds`, :mod:`sacorpus.sources.sitemaps`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import html as lxml_html

from sacorpus.sources.sitemaps import sitemaps_from_robots, standard_sitemaps

#: where WordPress, Drupal, Hugo, Ghost and friends serve their main feed
FEED_PATHS = ("/feed", "/rss", "/rss.xml", "/feeds", "/atom.xml", "/index.xml")
FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/feed+json", "application/json")
# a link whose path or text says "feed": /feed/, /rss/news.xml, .rss, /atom
_FEED_HREF = re.compile(r"(?:^|/)(?:feeds?|rss|atom)(?:/|\.xml|\.rss|$)|\.(?:rss|atom)$|[-_/]rss[-_.]", re.I)
_FEED_TEXT = re.compile(r"^\s*(?:rss|atom|feeds?|rss[- ]feeds?)\s*$", re.I)


@dataclass(frozen=True)
class Link:
    """A link on a page: its absolute URL (no fragment) and its text."""

    url: str
    text: str


def page_links(html: str, base_url: str) -> list[Link]:
    """Every http(s) ``<a href>`` of a page, absolute, without fragment, in page order, once each."""
    try:
        root = lxml_html.fromstring(html)
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return []
    seen: set[str] = set()
    out: list[Link] = []
    for a in root.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("javascript:", "mailto:", "tel:")):
            continue
        url = urldefrag(urljoin(base_url, href))[0]
        if urlsplit(url).scheme not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        out.append(Link(url, " ".join(a.text_content().split())))
    return out


def announced_feeds(html: str, base_url: str) -> list[str]:
    """Feeds a page announces: ``<link rel="alternate" type="application/rss+xml|atom+xml|feed+json">``."""
    try:
        root = lxml_html.fromstring(html)
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return []
    out: list[str] = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").lower().split(";")[0].strip()
        href = (link.get("href") or "").strip()
        if "alternate" in rel and kind in FEED_TYPES and href:
            url = urljoin(base_url, href)
            if url not in out:
                out.append(url)
    return out


def feed_candidates(html: str, home: str) -> list[str]:
    """Feed URLs to try, most trusted first: announced ones, links that look like feeds, common paths."""
    found = announced_feeds(html, home)
    for link in page_links(html, home):
        path = urlsplit(link.url).path
        if _FEED_HREF.search(path) or _FEED_TEXT.match(link.text):
            found.append(link.url)
    found += [urljoin(home, path) for path in FEED_PATHS]
    return list(dict.fromkeys(found))


def sitemap_candidates(robots_txt: str | bytes | None, home: str) -> list[str]:
    """Sitemap URLs to try: those robots.txt declares, then the standard locations."""
    declared = sitemaps_from_robots(robots_txt, home) if robots_txt else []
    return list(dict.fromkeys([*declared, *standard_sitemaps(home, declared)]))


def same_site(url: str, home: str) -> bool:
    """True when ``url`` is on the homepage's host (``www.`` or not)."""
    a = (urlsplit(url).netloc or "").lower().removeprefix("www.")
    b = (urlsplit(home).netloc or "").lower().removeprefix("www.")
    return a == b


__all__ = [
    "FEED_PATHS",
    "Link",
    "announced_feeds",
    "feed_candidates",
    "page_links",
    "same_site",
    "sitemap_candidates",
]
