"""PublicationSpider: one spider class that crawls any publication described by its TOML file.

A publication's spider file only names it (``name = "iol"``); everything else comes from
``publications/<name>.toml``. The spider keeps the run's arguments (:mod:`sacorpus.spiders.arguments`)
and hands out the work: each source kind is an object in :mod:`sacorpus.spiders.sources` (feeds,
sitemaps, robots.txt, section pages, Wayback CDX and homepage walk-back) that makes the source requests
and reads their answers; the spider turns the candidates into article requests and the article
response into an :class:`~sacorpus.items.Article` carrying the raw body, which the item pipelines
decode, clean, extract, identify, tokenize, label and store.

Incremental runs: an article URL the store has is not requested again; within a run the disk-backed
seen filter (sacorpus.frontier) schedules each URL once, keyed by the article's own URL (one article
listed by a feed, a sitemap and three Wayback captures is fetched once). Feeds and sitemaps are
fetched with conditional GET from per-source poll state kept in the store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from typing import Any, ClassVar
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import NotConfigured, UsageError
from scrapy.http import Request, Response

from sacorpus.items import Article
from sacorpus.publications import Publication, PublicationError, load_publication
from sacorpus.rendering import configure_rendering
from sacorpus.sources import wayback
from sacorpus.sources.budget import SourceBudget, interleave_priority
from sacorpus.sources.urls import MirrorMap, UrlPolicy, canonicalize
from sacorpus.spiders.arguments import RUN_ARGUMENTS, parse_arguments
from sacorpus.spiders.sources import SourceSet
from sacorpus.spiders.sources.feed import headers_as_text
from sacorpus.storage.base import StorageError
from sacorpus.storage.shared import SharedStore

logger = logging.getLogger(__name__)


class PublicationSpider(scrapy.Spider):
    """Crawls one publication from its validated data file.

    Subclasses set ``name`` (the publication slug). Hooks for the rare layouts data cannot express:
    :meth:`article_request`, :meth:`make_article`, :meth:`links_to_follow`.
    """

    name = ""
    publication_slug: ClassVar[str | None] = None  # defaults to ``name``
    publication_dir: ClassVar[str | None] = None  # where its file is, when not in the package

    custom_settings: dict[str, Any] | None = {}
    #: Run arguments (``-a name=value``) this spider takes; a subclass with its own adds to them.
    run_arguments: ClassVar[frozenset[str]] = RUN_ARGUMENTS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.publication: Publication = self.load_publication()
        self.policy = UrlPolicy.from_publication(self.publication)
        run = self.parse_arguments(kwargs)
        self.since, self.until = run["since"], run["until"]
        self.wayback_from, self.wayback_to = run["wayback_from"], run["wayback_to"]
        self.refetch_arg: bool = run["refetch"]
        self.comments_arg: bool = run["comments"]  # also read the articles' reader comments
        self.source_kinds: tuple[str, ...] | None = run["sources"]
        self.base_url_arg: str | None = kwargs.get("base_url")
        self.wayback_mode_arg: str | None = kwargs.get("wayback_mode")
        self.wayback_output: str = run["wayback_output"]
        self._store: Any = None  # opened on first use (see _open_store)
        self._store_lock = asyncio.Lock()
        self.sources = SourceSet(self)

    @classmethod
    def parse_arguments(cls, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The run arguments (``-a``) checked (:mod:`sacorpus.spiders.arguments`). A classmethod so that
        ``scrapy crawl`` checks them before the crawl starts and reports a bad value as a usage error."""
        return parse_arguments(kwargs, cls.run_arguments)

    # --- settings ---------------------------------------------------------------------------------------

    @classmethod
    def load_publication(cls) -> Publication:
        """The validated publication; a malformed file is a one-line usage error naming file and key."""
        try:
            return load_publication(cls.publication_slug or cls.name, cls.publication_dir)
        except PublicationError as exc:
            raise UsageError(str(exc), print_help=False) from None

    @classmethod
    def update_settings(cls, settings: Any) -> None:
        """Give each spider its own JOBDIR (disk queues, resumable) unless the run sets one, and make
        SACORPUS_WAYBACK_CDX_RATE drive the "wayback-cdx" download slot (one CDX call at a time)."""
        super().update_settings(settings)
        # a malformed publication file (or a renderer it needs but the machine lacks) stops the run here
        configure_rendering(settings, cls.load_publication())
        if settings.get("JOBDIR") is None and settings.get("SACORPUS_JOBDIR_ROOT"):
            settings.set("JOBDIR", f"{settings['SACORPUS_JOBDIR_ROOT']}/{cls.name}", priority="spider")
        rate = settings.getfloat("SACORPUS_WAYBACK_CDX_RATE")
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
        return MirrorMap(self.publication, self.source_base).fetch_url(url)

    def logical_url(self, url: str) -> str:
        """The publication's URL for a fetched one (inverse of :meth:`fetch_url`)."""
        return MirrorMap(self.publication, self.source_base).logical_url(url)

    @property
    def comment_api_base(self) -> str | None:
        """The Disqus API asked for comments, for a publication whose file declares its forum only."""
        rules = self.publication.comments
        return self.settings.get("SACORPUS_DISQUS_API_BASE") if rules and rules.disqus_forum else None

    def _source_hosts(self) -> set[str]:
        return MirrorMap(self.publication, None).source_hosts

    # --- start ----------------------------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Request]:
        async for request in self.sources.start():
            yield request

    async def parse_source(self, response: Response) -> AsyncIterator[Any]:
        """The callback of every source request: the source that made it reads the answer."""
        async for output in self.sources.parse(response):
            yield output

    # callbacks named by requests that earlier versions queued on disk (a JOBDIR resumed after upgrading)
    async def _legacy(self, response: Response, handler: str) -> AsyncIterator[Any]:
        response.meta.setdefault("sacorpus_handler", handler)
        async for output in self.parse_source(response):
            yield output

    def parse_feed(self, response: Response) -> AsyncIterator[Any]:
        return self._legacy(response, "feed")

    def parse_sitemap(self, response: Response) -> AsyncIterator[Any]:
        return self._legacy(response, "sitemap")

    def parse_robots(self, response: Response) -> AsyncIterator[Any]:
        return self._legacy(response, "robots")

    def parse_section(self, response: Response) -> AsyncIterator[Any]:
        return self._legacy(response, "section")

    def parse_cdx(self, response: Response) -> AsyncIterator[Any]:
        homepage = str(response.meta.get("sacorpus_cdx", ("",))[0]).startswith("homepage:")
        return self._legacy(response, "wayback_homepage" if homepage else "wayback_cdx")

    def parse_wayback_homepage(self, response: Response) -> AsyncIterator[Any]:
        return self._legacy(response, "wayback_homepage")

    def source_failed(self, failure: Any) -> None:
        request = failure.request
        self.crawler.stats.inc_value(
            f"sacorpus/source/{request.meta.get('sacorpus_source', 'unknown')}/failed"
        )
        logger.warning("source %s failed: %s", request.url, failure.getErrorMessage())

    # --- articles -------------------------------------------------------------------------------------------

    @property
    def budget(self) -> SourceBudget:
        """This run's limits per source (``SACORPUS_SOURCE_MAX_ENTRIES``, ``SACORPUS_SITEMAP_MAX_*``)."""
        if getattr(self, "_budget", None) is None:
            s = self.settings
            self._budget = SourceBudget(
                max_entries=s.getint("SACORPUS_SOURCE_MAX_ENTRIES"),
                max_children=s.getint("SACORPUS_SITEMAP_MAX_CHILDREN"),
                max_documents=s.getint("SACORPUS_SITEMAP_MAX_DOCUMENTS"),
            )
        return self._budget

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
        stats.inc_value("sacorpus/article/requested", len(taken))  # the run's verdict: did any arrive?
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

    async def parse_article(self, response: Response) -> AsyncIterator[Any]:
        yield self.make_article(response)
        async for found in self.sources.get("comments").from_article(response):
            yield found
        if self.settings.getbool("SACORPUS_FOLLOW_LINKS"):
            candidates: list[tuple[str, dict[str, Any]]] = [
                (url, {}) for url in self.links_to_follow(response)
            ]
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
            headers=headers_as_text(response),
            body=response.body,
            rendered=meta.get("sacorpus_rendered"),
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
        """Links on a page that look like this publication's articles: ``urls.article`` patterns matched
        as allow and deny are (path and query, :meth:`UrlPolicy.is_article`), so one learnt pattern
        serves both."""
        if not self.publication.urls.article or not hasattr(response, "css"):
            return []
        out = []
        for href in response.css("a::attr(href)").getall():
            url = self.logical_url(response.urljoin(href))
            if self.policy.is_article(url):
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
