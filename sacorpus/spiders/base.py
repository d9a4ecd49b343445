"""PublicationSpider: one spider class that crawls any publication described by its TOML file.

A publication's spider file only names it (``name = "iol"``); everything else comes from
``publications/<name>.toml``. Sources are read with the pure parsers in :mod:`sacorpus.sources` and
turned into article requests here; the article response becomes an :class:`~sacorpus.items.Article`
carrying the raw body, which the item pipelines decode, clean, extract, identify, tokenize, label and
store.

Run arguments (``-a name=value``):
  base_url        fetch every source and article from this host instead (fixture sites, mirrors);
                  stored URLs keep the publication's own host
  sources         comma list of source kinds to use: feeds,sitemaps,news_sitemaps,robots,start_urls,wayback
  since, until    date window (YYYY-MM-DD) for sitemap/feed entries with a date
  wayback_from, wayback_to   backfill this date range from the Wayback Machine
  refetch=1       fetch URLs even when the store already has them
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterable
from datetime import date
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit, urlunsplit

import scrapy
from scrapy.http import Request, Response
from scrapy.utils.misc import load_object

from sacorpus.items import Article
from sacorpus.publications import Publication, load_publication
from sacorpus.sources import feeds, sitemaps, wayback
from sacorpus.sources.urls import UrlPolicy, canonicalize

logger = logging.getLogger(__name__)

SOURCE_KINDS = ("feeds", "sitemaps", "news_sitemaps", "robots", "start_urls", "wayback")
_TRUE = {"1", "true", "yes", "on"}


def _as_date(value: str | date | None, name: str) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"argument {name}={value!r} is not a date (YYYY-MM-DD)") from None


def _headers_as_text(response: Response) -> dict[str, str]:
    """Response headers as str -> str (last value wins), so the item stays JSON-serialisable."""
    out: dict[str, str] = {}
    for key, values in response.headers.items():
        if values:
            out[key.decode("latin-1").lower()] = values[-1].decode("latin-1")
    return out


class PublicationSpider(scrapy.Spider):
    """Crawls one publication from its validated data file.

    Subclasses set ``name`` (the publication slug). Hooks for the rare layouts data cannot express:
    :meth:`article_request`, :meth:`make_article`, :meth:`links_to_follow`.
    """

    name: ClassVar[str] = ""
    publication_slug: ClassVar[str | None] = None  # defaults to ``name``

    custom_settings: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.publication: Publication = load_publication(self.publication_slug or self.name)
        self.policy = UrlPolicy.from_publication(self.publication)
        self.since = _as_date(kwargs.get("since"), "since")
        self.until = _as_date(kwargs.get("until"), "until")
        self.wayback_from = _as_date(kwargs.get("wayback_from"), "wayback_from")
        self.wayback_to = _as_date(kwargs.get("wayback_to"), "wayback_to")
        self.refetch_arg = str(kwargs.get("refetch", "")).lower() in _TRUE
        kinds = kwargs.get("sources")
        self.source_kinds = tuple(k.strip() for k in kinds.split(",")) if kinds else None
        if self.source_kinds:
            unknown = set(self.source_kinds) - set(SOURCE_KINDS)
            if unknown:
                raise ValueError(f"unknown source kind(s) {sorted(unknown)}; known: {', '.join(SOURCE_KINDS)}")
        self.base_url_arg = kwargs.get("base_url")
        self._store = None
        # With refetch, requests bypass the (persistent) seen filter; URLs listed by several sources
        # (RSS, Atom, sitemaps) must still be fetched once per run.
        self._refetched: set[str] = set()

    # --- settings ---------------------------------------------------------------------------------------

    @classmethod
    def update_settings(cls, settings: Any) -> None:
        """Give each spider its own JOBDIR (disk queues, resumable) unless the run sets one."""
        super().update_settings(settings)
        if settings.get("JOBDIR") is None and settings.get("SACORPUS_JOBDIR_ROOT"):
            settings.set("JOBDIR", f"{settings['SACORPUS_JOBDIR_ROOT']}/{cls.name}", priority="spider")

    @property
    def source_base(self) -> str | None:
        return self.base_url_arg or self.settings.get("SACORPUS_SOURCE_BASE") or None

    def wants(self, kind: str) -> bool:
        if self.source_kinds is not None:
            return kind in self.source_kinds
        if kind == "wayback":
            # Backfill only when asked for, or when the publication has no live source (defunct titles).
            src = self.publication.sources
            live = src.feeds or src.sitemaps or src.news_sitemaps or src.robots or src.start_urls
            return bool(self.wayback_from or self.wayback_to or not live)
        return True

    @property
    def refetch(self) -> bool:
        return self.refetch_arg or self.settings.getbool("SACORPUS_REFETCH")

    # --- host mapping (fixture sites, mirrors) ------------------------------------------------------------

    def fetch_url(self, url: str) -> str:
        """The URL to download: the publication's hosts are replaced by ``base_url`` when one is set."""
        base = self.source_base
        if not base:
            return url
        parts = urlsplit(url)
        if parts.netloc and (self.publication.owns(parts.hostname or "") or parts.netloc in self._source_hosts()):
            b = urlsplit(base)
            return urlunsplit((b.scheme, b.netloc, parts.path, parts.query, parts.fragment))
        return url

    def logical_url(self, url: str) -> str:
        """The publication's URL for a fetched one (inverse of :meth:`fetch_url`)."""
        base = self.source_base
        if not base:
            return url
        parts = urlsplit(url)
        b = urlsplit(base)
        if parts.netloc == b.netloc:
            home = urlsplit(self.publication.home)
            return urlunsplit((home.scheme, home.netloc, parts.path, parts.query, parts.fragment))
        return url

    def _source_hosts(self) -> set[str]:
        src = self.publication.sources
        urls = (*src.feeds, *src.sitemaps, *src.news_sitemaps, *src.start_urls, self.publication.home)
        return {urlsplit(u).netloc for u in urls}

    # --- start ----------------------------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Request]:
        src = self.publication.sources
        if self.wants("feeds"):
            for url in src.feeds:
                yield self.source_request(url, self.parse_feed, "feed")
        if self.wants("news_sitemaps"):
            for url in src.news_sitemaps:
                yield self.source_request(url, self.parse_sitemap, "news_sitemap")
        if self.wants("sitemaps"):
            for url in src.sitemaps:
                yield self.source_request(url, self.parse_sitemap, "sitemap")
        if src.robots and self.wants("robots"):
            yield self.source_request(urljoin(self.publication.home, "/robots.txt"), self.parse_robots, "sitemap")
        if self.wants("start_urls"):
            for url in src.start_urls:
                yield self.source_request(url, self.parse_section, "link")
        if src.wayback and self.wants("wayback"):
            for request in self.wayback_start_requests():
                yield request

    def source_request(self, url: str, callback: Any, kind: str, **meta: Any) -> Request:
        """A feed/sitemap/section request: never filtered as seen (sources are polled again)."""
        return Request(
            self.fetch_url(url),
            callback=callback,
            errback=self.source_failed,
            dont_filter=True,
            priority=10,
            meta={"sacorpus_source": kind, "sacorpus_source_url": url, **meta},
        )

    def source_failed(self, failure: Any) -> None:
        request = failure.request
        self.crawler.stats.inc_value(f"sacorpus/source/{request.meta.get('sacorpus_source', 'unknown')}/failed")
        logger.warning("source %s failed: %s", request.url, failure.getErrorMessage())

    # --- feeds and sitemaps -------------------------------------------------------------------------------

    async def parse_feed(self, response: Response) -> AsyncIterator[Request]:
        result = feeds.parse_feed(response.body, self.logical_url(response.url), _headers_as_text(response))
        stats = self.crawler.stats
        stats.inc_value("sacorpus/source/feed/documents")
        if result.bozo:
            stats.inc_value("sacorpus/source/feed/bozo")
            logger.warning("feed %s is ill-formed (%s); using what could be read", response.url, result.problem)
        candidates = []
        for entry in result.entries:
            if not entry.url or not sitemaps.in_window(entry.published, self.since, self.until):
                continue
            fallback = {
                "title": entry.title,
                "published": entry.published,
                "published_raw": entry.published_raw,
                "authors": list(entry.authors),
                "guid": entry.guid,
                "summary": entry.summary,
                "language": entry.language,
            }
            candidates.append((entry.url, fallback))
        stats.inc_value("sacorpus/source/feed/entries", len(candidates))
        async for request in self.article_requests(candidates, "feed", response):
            yield request

    async def parse_robots(self, response: Response) -> AsyncIterator[Request]:
        text = response.text if hasattr(response, "text") else response.body.decode("utf-8", "replace")
        for url in sitemaps.sitemaps_from_robots(text, self.logical_url(response.url)):
            yield self.source_request(url, self.parse_sitemap, "sitemap", sacorpus_depth=0)

    async def parse_sitemap(self, response: Response) -> AsyncIterator[Request]:
        result = sitemaps.parse_sitemap(response.body, self.logical_url(response.url))
        stats = self.crawler.stats
        stats.inc_value("sacorpus/source/sitemap/documents")
        if result.problem:
            stats.inc_value("sacorpus/source/sitemap/problems")
            logger.warning("sitemap %s: %s", response.url, result.problem)
        depth = response.meta.get("sacorpus_depth", 0)
        kind = response.meta.get("sacorpus_source", "sitemap")
        if result.sitemaps:
            if depth >= self.settings.getint("SACORPUS_SITEMAP_MAX_DEPTH"):
                stats.inc_value("sacorpus/source/sitemap/too_deep")
                logger.warning("sitemap index %s is nested deeper than %d; not followed", response.url, depth)
            else:
                for url in result.sitemaps:
                    yield self.source_request(url, self.parse_sitemap, kind, sacorpus_depth=depth + 1)
        candidates = []
        for entry in result.entries:
            when = entry.news_published or entry.lastmod
            if not sitemaps.in_window(when, self.since, self.until):
                continue
            fallback = {"title": entry.news_title, "published": entry.news_published,
                        "language": entry.news_language, "lastmod": entry.lastmod}
            candidates.append((entry.loc, {k: v for k, v in fallback.items() if v}))
        kind = "news_sitemap" if any(e.news_published or e.news_title for e in result.entries) else kind
        stats.inc_value("sacorpus/source/sitemap/entries", len(candidates))
        async for request in self.article_requests(candidates, kind, response):
            yield request

    async def parse_section(self, response: Response) -> AsyncIterator[Request]:
        """A section or home page: follow the links that look like articles."""
        candidates = [(url, {}) for url in self.links_to_follow(response)]
        async for request in self.article_requests(candidates, "link", response):
            yield request

    # --- articles -------------------------------------------------------------------------------------------

    async def article_requests(
        self, candidates: list[tuple[str, dict[str, Any]]], kind: str, response: Response
    ) -> AsyncIterator[Request]:
        """Turn (url, fallback metadata) pairs into article requests, skipping URLs the store has."""
        stats = self.crawler.stats
        wanted: dict[str, tuple[str, dict[str, Any]]] = {}
        for url, fallback in candidates:
            logical = canonicalize(self.logical_url(url))
            if not self.policy.allowed(logical):
                stats.inc_value("sacorpus/source/denied")
                continue
            wanted.setdefault(logical, (url, fallback))
        known = await self.stored_urls(list(wanted)) if wanted and not self.refetch else set()
        if known:
            stats.inc_value("sacorpus/source/already_stored", len(known))
        source_url = response.meta.get("sacorpus_source_url") or self.logical_url(response.url)
        for logical, (_url, fallback) in wanted.items():
            if logical in known or not self._first_this_run(logical):
                continue
            yield self.article_request(logical, kind, source_url, fallback)

    def _first_this_run(self, url: str) -> bool:
        """Without refetch the scheduler's seen filter does this; with it, a per-run set does."""
        if not self.refetch:
            return True
        if url in self._refetched:
            return False
        self._refetched.add(url)
        return True

    def article_request(self, url: str, kind: str, source_url: str | None, fallback: dict[str, Any],
                        **meta: Any) -> Request:
        return Request(
            self.fetch_url(url),
            callback=self.parse_article,
            errback=self.article_failed,
            dont_filter=self.refetch,
            meta={"sacorpus_url": url, "sacorpus_source": kind, "sacorpus_source_url": source_url,
                  "sacorpus_fallback": fallback, **meta},
        )

    def article_failed(self, failure: Any) -> None:
        request = failure.request
        self.crawler.stats.inc_value("sacorpus/article/failed")
        logger.warning("article %s failed: %s", request.url, failure.getErrorMessage())

    async def parse_article(self, response: Response) -> AsyncIterator[Article | Request]:
        yield self.make_article(response)
        if self.settings.getbool("SACORPUS_FOLLOW_LINKS"):
            candidates = [(url, {}) for url in self.links_to_follow(response)]
            async for request in self.article_requests(candidates, "link", response):
                yield request

    def make_article(self, response: Response) -> Article:
        meta = response.meta
        url = meta.get("sacorpus_url") or self.logical_url(response.url)
        return Article(
            url=url,
            publication=self.publication.slug,
            source=meta.get("sacorpus_source", "link"),
            source_url=meta.get("sacorpus_source_url"),
            final_url=meta.get("sacorpus_final_url") or self.logical_url(response.url),
            wayback_timestamp=meta.get("sacorpus_wayback_timestamp"),
            status=response.status,
            headers=_headers_as_text(response),
            body=response.body,
            fallback=dict(meta.get("sacorpus_fallback") or {}),
        )

    def links_to_follow(self, response: Response) -> Iterable[str]:
        """Links on a page that look like this publication's articles (``urls.article`` patterns)."""
        patterns = [re.compile(p) for p in self.publication.urls.article]
        if not patterns or not hasattr(response, "css"):
            return []
        out = []
        for href in response.css("a::attr(href)").getall():
            url = self.logical_url(response.urljoin(href))
            if any(p.search(url) for p in patterns):
                out.append(url)
        return out

    # --- the store (incremental runs) -------------------------------------------------------------------

    async def stored_urls(self, urls: list[str]) -> set[str]:
        """URLs among ``urls`` that the store already has (queried off the reactor thread)."""
        store = self._open_store()
        if store is None:
            return set()
        try:
            return await asyncio.to_thread(store.has_urls, urls)
        except Exception as exc:  # a store outage must not stop the crawl: fetch again instead
            self.crawler.stats.inc_value("sacorpus/store/lookup_errors")
            logger.warning("store lookup failed (%s); fetching without the already-stored check", exc)
            return set()

    def _open_store(self) -> Any:
        if self._store is None and self.settings.getbool("SACORPUS_STORE_ENABLED"):
            try:
                cls = load_object(self.settings["SACORPUS_STORE"])
                self._store = cls.from_settings(self.settings)
                self._store.open()
            except Exception as exc:
                self.crawler.stats.inc_value("sacorpus/store/lookup_errors")
                logger.warning("store not available for the already-stored check: %s", exc)
                self._store = False
        return self._store or None

    def closed(self, reason: str) -> None:
        if self._store:
            self._store.close()

    # --- Wayback backfill ---------------------------------------------------------------------------------

    def wayback_start_requests(self) -> Iterable[Request]:
        """CDX queries for the run's window, one per prefix/domain and month (see sources.wayback)."""
        wb = self.publication.sources.wayback
        start = self.wayback_from or wb.start
        end = self.wayback_to or wb.end or date.today()
        if start is None:
            logger.warning("%s: wayback needs wayback_from (or sources.wayback.from)", self.name)
            return
        base = self.settings.get("SACORPUS_WAYBACK_BASE")
        targets = [(p, "prefix") for p in wb.prefixes] + [(d, "domain") for d in wb.domains]
        for w_start, w_end in wayback.month_windows(start, end):
            for target, match in targets:
                url = wayback.cdx_url(target, match_type=match, start=w_start, end=w_end, base=base)
                yield Request(url, callback=self.parse_cdx, errback=self.source_failed, dont_filter=True,
                              priority=5,
                              meta={"sacorpus_source": "wayback", "sacorpus_source_url": url,
                                    "download_slot": "wayback-cdx", "sacorpus_cdx": (target, match, w_start, w_end)})

    async def parse_cdx(self, response: Response) -> AsyncIterator[Request]:
        page = wayback.parse_cdx(response.body)
        stats = self.crawler.stats
        stats.inc_value("sacorpus/source/wayback/cdx_pages")
        for problem in page.problems:
            stats.inc_value("sacorpus/source/wayback/cdx_problems")
            logger.debug("CDX %s: %s", response.url, problem)
        base = self.settings.get("SACORPUS_WAYBACK_BASE")
        if page.resume_key:
            target, match, w_start, w_end = response.meta["sacorpus_cdx"]
            url = wayback.cdx_url(target, match_type=match, start=w_start, end=w_end, base=base,
                                  resume_key=page.resume_key)
            yield Request(url, callback=self.parse_cdx, errback=self.source_failed, dont_filter=True, priority=5,
                          meta={**{k: v for k, v in response.meta.items() if k.startswith("sacorpus_")},
                                "download_slot": "wayback-cdx"})
        by_url: dict[str, wayback.Capture] = {}
        for capture in page.captures:
            by_url.setdefault(canonicalize(capture.original), capture)
        known = await self.stored_urls(list(by_url)) if by_url and not self.refetch else set()
        for url, capture in by_url.items():
            if url in known or not self.policy.allowed(url) or not self._first_this_run(url):
                continue
            yield Request(
                wayback.memento_url(capture.timestamp, capture.original, base=base),
                callback=self.parse_article,
                errback=self.article_failed,
                meta={"sacorpus_url": url, "sacorpus_source": "wayback", "sacorpus_source_url": response.url,
                      "sacorpus_wayback_timestamp": capture.timestamp, "sacorpus_fallback": {},
                      "sacorpus_final_url": wayback.memento_url(capture.timestamp, capture.original, base=base)},
            )
