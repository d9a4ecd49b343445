"""Source candidates: feeds and sitemaps of *other* sites that a crawled page points to.

Why: news pages link to their peers (syndicated stories, "also on", partner widgets, embedded
community papers), and each peer's ``<link rel="alternate" type="application/rss+xml">`` or feed and
sitemap link found that way is a publication the corpus may want next. The crawl never fetches them (the
address guard keeps a crawl on its publication's domains); it records them with counts so that
``scrapy sources --candidates`` can list what turns up most. Plain functions over a page's HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

FEED_TYPES = frozenset(
    {"application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml"}
)
# the paths feeds and sitemaps are published at (WordPress, Arc XP, Drupal, Blogger, plain files)
_FEED_PATH = re.compile(
    r"(^|/)(feed|rss|atom|rss2|feeds?/posts/default)/?$|\.(rss|atom)$|(^|/)(rss|feed|atom|index)[\w-]*\.xml$",
    re.I,
)
_SITEMAP_PATH = re.compile(r"(^|/)[\w-]*sitemap[\w-]*\.xml(\.gz)?$", re.I)
# a comment thread's feed is not a source of articles
_NOT_A_SOURCE = re.compile(r"/comments/feed/?$|/wp-json/|/oembed", re.I)
MAX_LINKS = 2000  # links read per page: a page with more is a link farm, not a news page


@dataclass(frozen=True)
class Candidate:
    url: str  # absolute, without fragment
    kind: str  # "feed" | "sitemap"

    @property
    def host(self) -> str:
        host = (urlsplit(self.url).hostname or "").lower()
        return host.removeprefix("www.")


def _clean(href: str | None, base: str) -> str | None:
    if not href or len(href) > 2000:
        return None
    try:
        parts = urlsplit(urljoin(base, href.strip()))
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", parts.query, ""))


def kind_of_link(url: str) -> str | None:
    """``feed`` or ``sitemap`` for a URL shaped like one (by its path), else None."""
    path = urlsplit(url).path
    if _NOT_A_SOURCE.search(path):
        return None
    if _SITEMAP_PATH.search(path):
        return "sitemap"
    if _FEED_PATH.search(path):
        return "feed"
    return None


# Every path kind_of_link accepts holds one of these once case-folded (Python's ``re.I`` also lets a
# dotless "ı" stand for "i"): an anchor whose href and base hold none is no source, and is skipped
# before the costly URL joining (a news page has hundreds of anchors, nearly none of them feeds).
_SOURCE_WORDS = ("feed", "rss", "atom", "sitemap", ".xml")


def _may_be_source(text: str) -> bool:
    folded = text.casefold().replace("ı", "i")
    return any(word in folded for word in _SOURCE_WORDS)


def _links(root: etree._Element, base: str) -> Iterator[Candidate]:
    for link in root.iter("link"):
        rel = str(link.get("rel") or "").lower().split()
        kind = "feed" if str(link.get("type") or "").strip().lower() in FEED_TYPES else None
        if "alternate" in rel and kind:
            url = _clean(link.get("href"), base)
            if url and not _NOT_A_SOURCE.search(urlsplit(url).path):
                yield Candidate(url, kind)
        elif "sitemap" in rel:
            url = _clean(link.get("href"), base)
            if url:
                yield Candidate(url, "sitemap")
    every = _may_be_source(urlsplit(base).path)  # a relative href may take the base's path
    for n, anchor in enumerate(root.iter("a")):
        if n >= MAX_LINKS:
            return
        href = anchor.get("href")
        if not every and not (href and _may_be_source(href)):
            continue
        url = _clean(href, base)
        kind = kind_of_link(url) if url else None
        if url and kind:
            yield Candidate(url, kind)


def find_candidates(html: str, page_url: str, own: Callable[[str], bool]) -> list[Candidate]:
    """Feeds and sitemaps ``html`` points to on hosts ``own`` (host -> bool) does not claim; never raises.

    The page's own host counts as owned too (a mirror or a fixture site serving the publication).
    """
    return not_owned(source_links(html, page_url), own)


def source_links(html: str, page_url: str) -> list[Candidate]:
    """Feeds and sitemaps ``html`` points to on other hosts than the page's, each once; never raises.

    The part of :func:`find_candidates` that reads the page (a page worker runs it, see
    ``SACORPUS_PAGE_WORKERS``); which hosts the publication owns is the crawl's to say.
    """
    if not html or "<" not in html:
        return []
    try:
        root = lxml_html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return []
    return tree_links(root, page_url)


def tree_links(root: etree._Element, page_url: str) -> list[Candidate]:
    """:func:`source_links` of a parsed page (the page core reads them from its own parse, before it
    cleans the tree, so the page is parsed once)."""
    page_host = (urlsplit(page_url).hostname or "").lower()
    base = _clean(next(iter(root.xpath("//base/@href")), None), page_url) or page_url
    seen: dict[str, Candidate] = {}
    for candidate in _links(root, base):
        host = (urlsplit(candidate.url).hostname or "").lower()
        if host == page_host or candidate.url in seen:
            continue
        seen[candidate.url] = candidate
    return list(seen.values())


def not_owned(candidates: list[Candidate], own: Callable[[str], bool]) -> list[Candidate]:
    """The candidates on hosts ``own`` does not claim."""
    return [c for c in candidates if not own((urlsplit(c.url).hostname or "").lower())]


__all__ = ["Candidate", "find_candidates", "kind_of_link", "not_owned", "source_links", "tree_links"]
