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
  wayback_mode    cdx | homepage | both (default SACORPUS_WAYBACK_MODE "auto" = both; a method the
                  publication gives no data for - prefixes/domains, homepage - is left out)
  wayback_output  json (default) | plain: the CDX answer format asked for
  refetch=1       fetch URLs even when the store already has them (still once per run)

Incremental runs: an article URL the store has is not requested again; within a run the disk-backed
seen filter (sacorpus.frontier) schedules each URL once, keyed by the article's own URL (one article
listed by a feed, a sitemap and three Wayback captures is fetched once). Feeds and sitemaps are
fetched with conditional GET from per-source poll state kept in the store.

Wayback backfill works in calendar-month windows per query (a CDX prefix/domain query, or the
homepage walk-back). A window is recorded done in the store's state (``wayback:<slug>``) once all
its CDX pages were read and its requests scheduled; a re-run skips done windows, a half-read window
resumes from its last resume key, and a run recovering from kill -9 re-lists the windows the killed
run finished (their queued requests were lost with it; the store skips what was saved).
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import re
from collections.abc import AsyncIterator, Iterable
from datetime import UTC, date, datetime, time
from typing import Any, ClassVar
from urllib.parse import urljoin, urlsplit, urlunsplit

import scrapy
from scrapy.exceptions import NotConfigured, UsageError
from scrapy.http import Request, Response

from sacorpus.items import Article
from sacorpus.publications import Publication, PublicationError, load_publication
from sacorpus.sources import feeds, pollstate, sitemaps, wayback
from sacorpus.sources.budget import SourceBudget, interleave_priority
from sacorpus.sources.urls import UrlPolicy, canonicalize
from sacorpus.storage.base import StorageError
from sacorpus.storage.shared import SharedStore

logger = logging.getLogger(__name__)

SOURCE_KINDS = ("feeds", "sitemaps", "news_sitemaps", "robots", "start_urls", "wayback")
_TRUE = {"1", "true", "yes", "on"}
WAYBACK_MODES = ("cdx", "homepage", "both", "auto")


def _as_date(value: str | date | None, name: str) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"argument {name}={value!r} is not a date (YYYY-MM-DD)") from None


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None


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
    #: Run arguments (``-a name=value``) this spider takes; subclasses add theirs. Names starting with
    #: "_" (scrapyd's ``_job``) pass.
    run_arguments: ClassVar[frozenset[str]] = frozenset(
        {"since", "until", "wayback_from", "wayback_to", "refetch", "sources", "base_url"}
        | {"wayback_mode", "wayback_output"}
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.publication: Publication = self.load_publication()
        self.policy = UrlPolicy.from_publication(self.publication)
        args = self.parse_arguments(kwargs)
        self.since, self.until = args["since"], args["until"]
        self.wayback_from, self.wayback_to = args["wayback_from"], args["wayback_to"]
        self.refetch_arg = args["refetch"]
        self.source_kinds = args["sources"]
        self.base_url_arg = kwargs.get("base_url")
        self.wayback_mode_arg = kwargs.get("wayback_mode")
        self.wayback_output = args["wayback_output"]
        self._store: Any = None  # opened on first use (see _open_store)
        self._store_lock = asyncio.Lock()
        self._poll_states: dict[str, dict[str, Any]] = {}  # source URL -> poll state (one per feed/sitemap)
        self._windows: wayback.WindowLog | None = None
        self._window_runs: dict[str, str] = {}  # window key -> run id that finished it

    @classmethod
    def parse_arguments(cls, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The run arguments (``-a``) checked: raises ValueError with one line saying what is wrong.

        A classmethod so that ``scrapy crawl`` checks them before the crawl starts and reports a bad
        value as a usage error, not a traceback.
        """
        unknown_names = sorted(k for k in kwargs if k not in cls.run_arguments and not k.startswith("_"))
        if unknown_names:
            hints = {
                n: difflib.get_close_matches(n, cls.run_arguments, n=1, cutoff=0.7) for n in unknown_names
            }
            said = ", ".join(n + (f" (did you mean {h[0]}?)" if h else "") for n, h in hints.items())
            raise ValueError(f"unknown run argument(s) {said}; known: {', '.join(sorted(cls.run_arguments))}")
        args: dict[str, Any] = {
            name: _as_date(kwargs.get(name), name)
            for name in ("since", "until", "wayback_from", "wayback_to")
        }
        for start, end in (("since", "until"), ("wayback_from", "wayback_to")):
            if args[start] and args[end] and args[start] > args[end]:
                raise ValueError(f"{start}={args[start]} is after {end}={args[end]}: the window is empty")
        args["refetch"] = str(kwargs.get("refetch", "")).lower() in _TRUE
        kinds = kwargs.get("sources")
        args["sources"] = tuple(k.strip() for k in kinds.split(",")) if kinds else None
        unknown = set(args["sources"] or ()) - set(SOURCE_KINDS)
        if unknown:
            raise ValueError(f"unknown source kind(s) {sorted(unknown)}; known: {', '.join(SOURCE_KINDS)}")
        mode = kwargs.get("wayback_mode")
        if mode and mode not in WAYBACK_MODES:
            raise ValueError(f"wayback_mode={mode!r}; known: {', '.join(WAYBACK_MODES)}")
        args["wayback_output"] = kwargs.get("wayback_output") or "json"
        if args["wayback_output"] not in ("json", "plain"):
            raise ValueError(f"wayback_output={args['wayback_output']!r}; known: json, plain")
        return args

    # --- settings ---------------------------------------------------------------------------------------

    @classmethod
    def load_publication(cls) -> Publication:
        """The validated publication; a malformed file is a one-line usage error naming file and key."""
        try:
            return load_publication(cls.publication_slug or cls.name)
        except PublicationError as exc:
            raise UsageError(str(exc), print_help=False) from None

    @classmethod
    def update_settings(cls, settings: Any) -> None:
        """Give each spider its own JOBDIR (disk queues, resumable) unless the run sets one, and make
        SACORPUS_WAYBACK_CDX_RATE drive the "wayback-cdx" download slot (one CDX call at a time)."""
        super().update_settings(settings)
        cls.load_publication()  # a malformed publication file stops the run here, before any crawling
        if settings.get("JOBDIR") is None and settings.get("SACORPUS_JOBDIR_ROOT"):
            settings.set("JOBDIR", f"{settings['SACORPUS_JOBDIR_ROOT']}/{cls.name}", priority="spider")
        rate = settings.getfloat("SACORPUS_WAYBACK_CDX_RATE", 1.0)
        slots = {k: dict(v) for k, v in settings.getdict("DOWNLOAD_SLOTS").items()}
        cdx = slots.setdefault("wayback-cdx", {})
        cdx.pop("randomize_delay", None)
        cdx.update({"concurrency": 1, "jitter": 0, "delay": 1.0 / rate if rate > 0 else 0.0})
        settings.set("DOWNLOAD_SLOTS", slots, priority=max(settings.getpriority("DOWNLOAD_SLOTS") or 0, 30))

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
    def recovering(self) -> bool:
        """This run follows a killed one: its queued requests were lost, so sources are listed in full
        (no conditional GET, finished Wayback windows of the killed run again)."""
        job = getattr(self, "sacorpus_job", None)
        return bool(job is not None and job.recovered)

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
        if parts.netloc and (
            self.publication.owns(parts.hostname or "") or parts.netloc in self._source_hosts()
        ):
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
                yield await self.polled_request(url, self.parse_feed, "feed")
        if self.wants("news_sitemaps"):
            for url in src.news_sitemaps:
                yield await self.polled_request(url, self.parse_sitemap, "news_sitemap")
        if self.wants("sitemaps"):
            for url in src.sitemaps:
                yield await self.polled_request(url, self.parse_sitemap, "sitemap")
        if src.robots and self.wants("robots"):
            yield self.source_request(
                urljoin(self.publication.home, "/robots.txt"), self.parse_robots, "sitemap"
            )
        if self.wants("start_urls"):
            for url in src.start_urls:
                yield self.source_request(url, self.parse_section, "link")
        if src.wayback and self.wants("wayback"):
            async for request in self.wayback_start_requests():
                yield request

    def source_request(self, url: str, callback: Any, kind: str, **meta: Any) -> Request:
        """A feed/sitemap/section request: never filtered as seen (sources are polled again)."""
        return Request(
            url,  # the publication's URL: MirrorMiddleware maps it to base_url when it is downloaded
            callback=callback,
            errback=self.source_failed,
            dont_filter=True,
            priority=10,
            meta={"sacorpus_source": kind, "sacorpus_source_url": url, **meta},
        )

    async def polled_request(self, url: str, callback: Any, kind: str, **meta: Any) -> Request:
        """A feed/sitemap request, conditional (If-None-Match / If-Modified-Since) on its poll state.

        The 304 answer reaches the callback (``handle_httpstatus_list``), which records the poll."""
        request = self.source_request(url, callback, kind, **meta)
        request.meta["handle_httpstatus_list"] = [304]
        if not self.settings.getbool("SACORPUS_CONDITIONAL_GET", True) or self.refetch or self.recovering:
            return request
        headers = pollstate.conditional_headers(await self.poll_state(url))
        if headers:
            for key, value in headers.items():
                request.headers[key] = value
            self.crawler.stats.inc_value(f"sacorpus/source/{kind}/conditional")
        return request

    async def poll_state(self, url: str) -> dict[str, Any]:
        """The poll state of one feed/sitemap (store state ``poll:<url>``; in memory for the run)."""
        if url not in self._poll_states:
            state = await self.get_state(f"poll:{url}")
            self._poll_states[url] = state if state else pollstate.new_state()
        return self._poll_states[url]

    async def record_poll(self, response: Response, guids: Iterable[str]) -> bool:
        """Update the source's poll state and log the proposed next poll; False on 304 (nothing new)."""
        url = response.meta.get("sacorpus_source_url") or self.logical_url(response.url)
        kind = response.meta.get("sacorpus_source", "sitemap")
        state = await self.poll_state(url)
        not_modified = response.status == 304
        fresh = pollstate.record_poll(
            state,
            guids,
            etag=_header(response, "ETag"),
            last_modified=_header(response, "Last-Modified"),
            not_modified=not_modified,
        )
        interval = pollstate.next_interval(state)
        stats = self.crawler.stats
        if not_modified:
            stats.inc_value(f"sacorpus/source/{kind}/not_modified")
        stats.inc_value(f"sacorpus/source/{kind}/new_entries", len(fresh))
        stats.min_value("sacorpus/source/next_poll_min_seconds", interval)
        stats.max_value("sacorpus/source/next_poll_max_seconds", interval)
        logger.info(
            "%s %s: %s, %d new entries; next poll proposed in %d s",
            kind,
            url,
            "not modified" if not_modified else "fetched",
            len(fresh),
            interval,
        )
        await self.set_state(f"poll:{url}", state)
        return not not_modified

    def source_failed(self, failure: Any) -> None:
        request = failure.request
        self.crawler.stats.inc_value(
            f"sacorpus/source/{request.meta.get('sacorpus_source', 'unknown')}/failed"
        )
        logger.warning("source %s failed: %s", request.url, failure.getErrorMessage())

    # --- feeds and sitemaps -------------------------------------------------------------------------------

    async def parse_feed(self, response: Response) -> AsyncIterator[Request]:
        if response.status == 304:
            await self.record_poll(response, ())
            return
        # parsed in a worker thread: a long feed must not hold up the downloads of the other sources
        result = await asyncio.to_thread(
            feeds.parse_feed,
            response.body,
            self.logical_url(response.url),
            _headers_as_text(response),
            self.settings.getint("SACORPUS_FEED_MAX_ITEMS"),
        )
        stats = self.crawler.stats
        await self.record_poll(response, [e.guid or e.url or "" for e in result.entries])
        stats.inc_value("sacorpus/source/feed/documents")
        if result.bozo:
            stats.inc_value("sacorpus/source/feed/bozo")
            logger.warning(
                "feed %s is ill-formed (%s); using what could be read", response.url, result.problem
            )
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
        found = sitemaps.sitemaps_from_robots(text, self.logical_url(response.url))
        if not found:  # robots.txt names no sitemap: the standard locations not requested already are tried
            src, active = self.publication.sources, self.source_kinds or SOURCE_KINDS
            listed = (
                *(src.sitemaps if "sitemaps" in active else ()),
                *(src.news_sitemaps if "news_sitemaps" in active else ()),
            )
            found = sitemaps.standard_sitemaps(self.publication.home, listed)
            self.crawler.stats.inc_value("sacorpus/source/sitemap/standard_locations_tried", len(found))
        for url in self.within_budget(list(found), None, response):
            yield await self.polled_request(url, self.parse_sitemap, "sitemap", sacorpus_depth=0)

    async def parse_sitemap(self, response: Response) -> AsyncIterator[Request]:
        if response.status == 304:
            await self.record_poll(response, ())
            return
        result = sitemaps.parse_sitemap(response.body, self.logical_url(response.url))
        stats = self.crawler.stats
        await self.record_poll(response, [*result.sitemaps, *(e.loc for e in result.entries)])
        stats.inc_value("sacorpus/source/sitemap/documents")
        if result.truncated_locs:
            stats.inc_value("sacorpus/source/sitemap/truncated_locs", result.truncated_locs)
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
                for url in self.within_budget(result.sitemaps, result.sitemap_lastmods, response):
                    yield await self.polled_request(url, self.parse_sitemap, kind, sacorpus_depth=depth + 1)
        candidates = []
        for entry in result.entries:
            when = entry.news_published or entry.lastmod
            if not sitemaps.in_window(when, self.since, self.until):
                continue
            fallback = {
                "title": entry.news_title,
                "published": entry.news_published,
                "language": entry.news_language,
                "lastmod": entry.lastmod,
            }
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

    @property
    def budget(self) -> SourceBudget:
        """This run's limits per source (settings ``SACORPUS_SOURCE_MAX_ENTRIES``, ``..._SITEMAP_...``)."""
        if getattr(self, "_budget", None) is None:
            s = self.settings
            self._budget = SourceBudget(
                max_entries=s.getint("SACORPUS_SOURCE_MAX_ENTRIES"),
                max_children=s.getint("SACORPUS_SITEMAP_MAX_CHILDREN"),
                max_documents=s.getint("SACORPUS_SITEMAP_MAX_DOCUMENTS"),
            )
        return self._budget

    def within_budget(
        self, urls: list[str], lastmods: dict[str, str] | None, response: Response
    ) -> list[str]:
        """The sitemap documents of ``response`` to fetch: newest first, within this run's budget."""
        kept, left_out = self.budget.children(urls, lastmods)
        if left_out:
            self.crawler.stats.inc_value("sacorpus/budget/sitemaps_left_out", left_out)
            logger.warning(
                "%s lists %d sitemaps; %d left out by the budget (SACORPUS_SITEMAP_MAX_CHILDREN / "
                "SACORPUS_SITEMAP_MAX_DOCUMENTS)",
                response.url,
                len(urls),
                left_out,
            )
        return kept

    async def article_requests(
        self, candidates: list[tuple[str, dict[str, Any]]], kind: str, response: Response
    ) -> AsyncIterator[Request]:
        """Turn (url, fallback metadata) pairs into article requests, skipping URLs the store has.

        A source gives at most ``SACORPUS_SOURCE_MAX_ENTRIES`` new entries a run (counted after the
        already-stored check, so the next run takes the next ones), the newest first, ranked so that
        every source's first entries are fetched before any source's later ones."""
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
        new = [(logical, fallback) for logical, (_url, fallback) in wanted.items() if logical not in known]
        taken, left_out = self.budget.entries(new)
        if left_out:
            stats.inc_value("sacorpus/budget/entries_left_out", left_out)
            logger.warning(
                "%s lists %d more new entries than SACORPUS_SOURCE_MAX_ENTRIES (%d); the newest were taken",
                response.url,
                left_out,
                self.budget.max_entries,
            )
        source_url = response.meta.get("sacorpus_source_url") or self.logical_url(response.url)
        for rank, (logical, fallback) in enumerate(taken):
            request = self.article_request(logical, kind, source_url, dict(fallback))
            request.priority = interleave_priority(rank)
            yield request

    def article_request(
        self, url: str, kind: str, source_url: str | None, fallback: dict[str, Any], **meta: Any
    ) -> Request:
        """An article request; the seen filter keys it by the article URL (once per run, also with refetch)."""
        return Request(
            url,  # the publication's URL, also in the disk queue: a resumed run may use another base_url
            callback=self.parse_article,
            errback=self.article_failed,
            meta={
                "sacorpus_url": url,
                "sacorpus_source": kind,
                "sacorpus_source_url": source_url,
                "sacorpus_fallback": fallback,
                "sacorpus_seen_key": url,
                **meta,
            },
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
        final_url = meta.get("sacorpus_final_url") or self.logical_url(response.url)
        timestamp = meta.get("sacorpus_wayback_timestamp")
        if meta.get("sacorpus_source") == "wayback":
            # The archive redirects to the nearest capture: the capture fetched is the one in the final URL.
            memento = wayback.parse_memento_url(response.url)
            if memento:
                timestamp, final_url = memento[0].ljust(14, "0"), response.url
        return Article(
            url=url,
            publication=self.publication.slug,
            source=meta.get("sacorpus_source", "link"),
            source_url=meta.get("sacorpus_source_url"),
            final_url=final_url,
            wayback_timestamp=timestamp,
            status=response.status,
            headers=_headers_as_text(response),
            body=response.body,
            fallback=self._with_mirror(dict(meta.get("sacorpus_fallback") or {})),
        )

    def _with_mirror(self, fallback: dict[str, Any]) -> dict[str, Any]:
        """Fetched from a mirror or fixture site (``base_url``): the page core maps the links and the
        canonical URL it finds back to the publication's own host."""
        base = self.source_base
        if base:
            b, home = urlsplit(base), urlsplit(self.publication.home)
            fallback["mirror"] = [f"{b.scheme}://{b.netloc}", f"{home.scheme}://{home.netloc}"]
        return fallback

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

    async def get_state(self, key: str) -> dict[str, Any] | None:
        """Component state from the store (off the reactor thread); None when absent or unavailable."""
        return await self._ask_store(
            "get_state", key, default=None, stat="state_errors", failed=f"store state {key} not readable"
        )

    async def set_state(self, key: str, value: dict[str, Any]) -> None:
        await self._ask_store(
            "set_state",
            key,
            value,
            default=None,
            stat="state_errors",
            failed=f"store state {key} not written",
        )

    async def stored_urls(self, urls: list[str]) -> set[str]:
        """URLs among ``urls`` that the store already has; on an outage none (fetch again instead)."""
        return await self._ask_store(
            "has_urls",
            urls,
            default=set(),
            stat="lookup_errors",
            failed="store lookup failed; fetching without the already-stored check",
        )

    async def _ask_store(self, method: str, *args: Any, default: Any, stat: str, failed: str) -> Any:
        """Call a blocking store method off the reactor thread; a store outage never stops the crawl."""
        store = await self._open_store()
        if store is None:
            return default
        try:
            return await asyncio.to_thread(getattr(store, method), *args)
        except Exception as exc:
            self.crawler.stats.inc_value(f"sacorpus/store/{stat}")
            logger.warning("%s: %s", failed, exc)
            return default

    async def _open_store(self) -> Any:
        """The crawl's one store (:class:`SharedStore`, shared with the dedup and store stages), opened
        off the reactor thread; None when it cannot be used (the already-stored check is then skipped)."""
        async with self._store_lock:  # concurrent callers wait for the one attempt
            if self._store is None and self.settings.getbool("SACORPUS_STORE_ENABLED"):
                try:
                    self._store = await asyncio.to_thread(SharedStore.of(self.crawler).open)
                except (NotConfigured, StorageError) as exc:
                    self._store = False
                    self.crawler.stats.inc_value("sacorpus/store/lookup_errors")
                    logger.warning("store not available for the already-stored check: %s", exc)
        return self._store or None

    def closed(self, reason: str) -> None:
        """Hook for subclasses (the demo stops its site here); the shared store closes itself."""

    # --- Wayback backfill ---------------------------------------------------------------------------------

    @property
    def wayback_base(self) -> str:
        return self.settings.get("SACORPUS_WAYBACK_BASE") or wayback.WAYBACK

    @property
    def wayback_state_key(self) -> str:
        return f"wayback:{self.publication.slug}"

    def wayback_modes(self) -> set[str]:
        """Which backfill methods run: CDX listings of prefixes/domains, the homepage walk-back, or both."""
        wb = self.publication.sources.wayback
        if wb is None:
            return set()
        has_cdx = bool(wb.prefixes or wb.domains)
        mode = self.wayback_mode_arg or self.settings.get("SACORPUS_WAYBACK_MODE") or "auto"
        if mode == "auto":
            mode = "both"
        modes = {"cdx", "homepage"} if mode == "both" else {mode}
        if not wb.homepage:
            modes.discard("homepage")
        if not has_cdx:
            modes.discard("cdx")
        return modes

    def wayback_queries(self) -> list[tuple[str, str, str]]:
        """``(query key, CDX url, matchType)`` per query; prefixes inside a listed domain are covered by it."""
        wb = self.publication.sources.wayback
        modes = self.wayback_modes()
        out: list[tuple[str, str, str]] = []
        if "cdx" in modes:
            domains = [d.lower().strip(".") for d in wb.domains]
            out += [(f"domain:{d}", d, "domain") for d in domains]
            for prefix in wb.prefixes:
                host = (urlsplit(prefix if "://" in prefix else f"http://{prefix}").hostname or "").lower()
                if any(host == d or host.endswith("." + d) for d in domains):
                    continue
                out.append((f"prefix:{prefix}", prefix, "prefix"))
        if "homepage" in modes:
            out.append((f"homepage:{wb.homepage}", wb.homepage, "exact"))
        return out

    async def window_log(self) -> wayback.WindowLog:
        """The persistent log of finished windows; a run recovering from kill -9 redoes the killed run's."""
        if self._windows is None:
            data = await self.get_state(self.wayback_state_key) or {}
            log = wayback.WindowLog.from_dict(data)
            runs = {str(k): str(v) for k, v in dict(data.get("done_runs") or {}).items()}
            job = getattr(self, "sacorpus_job", None)
            if job is not None and job.recovered:
                redo = {k for k, run in runs.items() if run == job.recovered}
                log.done -= redo
                for key in redo:
                    runs.pop(key, None)
                log.resume_keys.clear()
                self.crawler.stats.set_value("sacorpus/source/wayback/windows_redone", len(redo))
                logger.info(
                    "recovering from killed run %s: %d Wayback windows listed again", job.recovered, len(redo)
                )
            self._windows, self._window_runs = log, runs
        return self._windows

    async def record_window_page(self, query: str, window: tuple[date, date], resume_key: str | None) -> None:
        log = await self.window_log()
        log.record_page(query, window, resume_key)
        if not resume_key:
            job = getattr(self, "sacorpus_job", None)
            self._window_runs[wayback.window_key(query, window)] = job.run if job is not None else ""
            self.crawler.stats.inc_value("sacorpus/source/wayback/windows_done")
        await self.set_state(self.wayback_state_key, {**log.to_dict(), "done_runs": self._window_runs})

    async def wayback_start_requests(self) -> AsyncIterator[Request]:
        """CDX queries for the run's window: one per query and calendar month not finished before."""
        wb = self.publication.sources.wayback
        start = self.wayback_from or wb.start
        end = self.wayback_to or wb.end or date.today()
        if start is None:
            logger.warning("%s: wayback needs wayback_from (or sources.wayback.from)", self.name)
            return
        log = await self.window_log()
        skipped = 0
        for window in wayback.month_windows(start, end):
            for query, target, match in self.wayback_queries():
                if log.is_done(query, window) and not self.refetch:
                    skipped += 1
                    continue
                resume = None if query.startswith("homepage:") else log.resume_key(query, window)
                yield self.cdx_request(query, target, match, window, resume)
        if skipped:
            self.crawler.stats.set_value("sacorpus/source/wayback/windows_skipped", skipped)
            logger.info("%s: %d Wayback windows finished in earlier runs are skipped", self.name, skipped)

    def cdx_request(
        self,
        query: str,
        target: str,
        match: str,
        window: tuple[date, date],
        resume_key: str | None = None,
        captures: Iterable[tuple[str, str, str | None]] = (),
    ) -> Request:
        """One CDX page: rate limited by the "wayback-cdx" slot, backed off on 429/503 by RetryAfterMiddleware."""
        homepage = query.startswith("homepage:")
        url = wayback.cdx_url(
            target,
            match_type=match,
            start=window[0],
            end=window[1],
            base=self.wayback_base,
            collapse="digest" if homepage else "urlkey",
            resume_key=resume_key,
            limit=self.settings.getint("SACORPUS_WAYBACK_CDX_LIMIT", 5000),
            output=self.wayback_output,
        )
        return Request(
            url,
            callback=self.parse_cdx,
            errback=self.source_failed,
            priority=5,
            meta={
                "sacorpus_source": "wayback",
                "sacorpus_source_url": url,
                "download_slot": "wayback-cdx",
                "autothrottle_dont_adjust_delay": True,
                "sacorpus_seen_key": f"cdx|{wayback.window_key(query, window)}|{resume_key or ''}",
                "sacorpus_cdx": (query, target, match, window[0].isoformat(), window[1].isoformat()),
                "sacorpus_homepage_captures": list(captures),
            },
        )

    async def parse_cdx(self, response: Response) -> AsyncIterator[Request]:
        page = wayback.parse_cdx(response.body)
        stats = self.crawler.stats
        stats.inc_value("sacorpus/source/wayback/cdx_pages")
        for problem in page.problems:
            stats.inc_value("sacorpus/source/wayback/cdx_problems")
            logger.debug("CDX %s: %s", response.url, problem)
        query, target, match, w_start, w_end = response.meta["sacorpus_cdx"]
        window = (date.fromisoformat(w_start), date.fromisoformat(w_end))
        if page.problems and not page.captures and not page.resume_key:
            stats.inc_value("sacorpus/source/wayback/cdx_unreadable")
            logger.warning(
                "CDX answer %s is unreadable (%s); the window stays unfinished",
                response.url,
                page.problems[0],
            )
            return
        stats.inc_value("sacorpus/source/wayback/captures", len(page.captures))
        if query.startswith("homepage:"):
            captures = [
                *response.meta.get("sacorpus_homepage_captures", ()),
                *((c.timestamp, c.original, c.digest) for c in page.captures),
            ]
            if page.resume_key:
                yield self.cdx_request(query, target, match, window, page.resume_key, captures)
                return  # homepage windows are recorded whole: the walk-back needs every capture
            for request in self.walk_back_requests(captures, window, response.url):
                yield request
            await self.record_window_page(query, window, None)
            return
        if page.resume_key:
            yield self.cdx_request(query, target, match, window, page.resume_key)
        by_url: dict[str, wayback.Capture] = {}
        for capture in page.captures:
            url = canonicalize(capture.original)
            if self.policy.is_article(url):
                by_url.setdefault(url, capture)
            else:
                stats.inc_value("sacorpus/source/wayback/not_article")
        async for request in self.wayback_article_requests(
            [(url, c.timestamp, c.original) for url, c in by_url.items()], response.url
        ):
            yield request
        await self.record_window_page(query, window, page.resume_key)

    def walk_back_requests(
        self, captures: list[tuple[str, str, str | None]], window: tuple[date, date], source_url: str
    ) -> Iterable[Request]:
        """Homepage versions from the window's end back to its start, one per distinct content digest."""
        pool = [
            wayback.Capture(urlkey="", timestamp=ts, original=original, digest=digest, statuscode=200)
            for ts, original, digest in captures
        ]
        end = datetime.combine(window[1], time(23, 59, 59), tzinfo=UTC)
        for capture in wayback.walk_back(pool, end, stop=window[0]):
            self.crawler.stats.inc_value("sacorpus/source/wayback/homepage_versions")
            yield Request(
                capture.memento(self.wayback_base),
                callback=self.parse_wayback_homepage,
                errback=self.source_failed,
                priority=3,
                meta={
                    "sacorpus_source": "wayback",
                    "sacorpus_source_url": source_url,
                    "sacorpus_homepage": (capture.timestamp, capture.original),
                },
            )

    async def parse_wayback_homepage(self, response: Response) -> AsyncIterator[Request]:
        """A raw homepage capture: its article links become captures near the homepage's time."""
        timestamp, original = response.meta["sacorpus_homepage"]
        memento = wayback.parse_memento_url(response.url)
        if memento:
            timestamp = memento[0].ljust(14, "0")
        capture = wayback.Capture(urlkey="", timestamp=timestamp, original=original)
        links = wayback.homepage_links(
            response.body, capture, accept=self.policy.is_article, base=self.wayback_base
        )
        self.crawler.stats.inc_value("sacorpus/source/wayback/homepage_links", len(links))
        wanted: dict[str, tuple[str, str, str]] = {}
        for link in links:
            parsed = wayback.parse_memento_url(link)
            if parsed:
                url = canonicalize(parsed[1])
                wanted.setdefault(url, (url, parsed[0], parsed[1]))
        async for request in self.wayback_article_requests(list(wanted.values()), response.url):
            yield request

    async def wayback_article_requests(
        self, captures: list[tuple[str, str, str]], source_url: str
    ) -> AsyncIterator[Request]:
        """``(url, timestamp, original)`` -> raw (``id_``) capture requests for URLs the store lacks."""
        urls = [url for url, _, _ in captures]
        known = await self.stored_urls(urls) if urls and not self.refetch else set()
        if known:
            self.crawler.stats.inc_value("sacorpus/source/already_stored", len(known))
        for url, timestamp, original in captures:
            if url in known:
                continue
            memento = wayback.memento_url(timestamp, original, base=self.wayback_base)
            yield Request(
                memento,
                callback=self.parse_article,
                errback=self.article_failed,
                meta={
                    "sacorpus_url": url,
                    "sacorpus_source": "wayback",
                    "sacorpus_source_url": source_url,
                    "sacorpus_wayback_timestamp": timestamp,
                    "sacorpus_fallback": {},
                    "sacorpus_final_url": memento,
                    "sacorpus_seen_key": url,
                },
            )
