"""Wayback backfill, what its two source kinds share: calendar-month windows logged in the store.

Backfill works in calendar-month windows per query (a CDX prefix/domain query, or the homepage
walk-back). A window is recorded done in the store's state (``wayback:<slug>``) once all its CDX
pages were read and its requests scheduled; a re-run skips done windows, a half-read window resumes
from its last resume key, and a run recovering from kill -9 re-lists the windows the killed run
finished (their queued requests were lost with it; the store skips what was saved).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from datetime import date
from typing import TYPE_CHECKING, Any

from scrapy.http import Request

from sacorpus.sources import wayback
from sacorpus.sources.wayback_windows import WindowLog, month_windows, window_key
from sacorpus.spiders.sources.base import Source

if TYPE_CHECKING:
    from sacorpus.spiders.base import PublicationSpider

logger = logging.getLogger(__name__)

Query = tuple[str, str, str]  # (query key, CDX target, matchType)


class WindowState:
    """The persistent log of finished windows of one crawl, shared by the Wayback sources."""

    def __init__(self, spider: PublicationSpider) -> None:
        self.spider = spider
        self._log: WindowLog | None = None
        self._runs: dict[str, str] = {}  # window key -> run id that finished it

    @property
    def key(self) -> str:
        return f"wayback:{self.spider.publication.slug}"

    async def log(self) -> WindowLog:
        """The log; a run recovering from kill -9 redoes the windows the killed run finished."""
        if self._log is None:
            spider = self.spider
            data = await spider.get_state(self.key) or {}
            log = WindowLog.from_dict(data)
            runs = {str(k): str(v) for k, v in dict(data.get("done_runs") or {}).items()}
            job = getattr(spider, "sacorpus_job", None)
            if job is not None and job.recovered:
                redo = {k for k, run in runs.items() if run == job.recovered}
                log.done -= redo
                for key in redo:
                    runs.pop(key, None)
                log.resume_keys.clear()
                spider.crawler.stats.set_value("sacorpus/source/wayback/windows_redone", len(redo))
                logger.info(
                    "recovering from killed run %s: %d Wayback windows listed again", job.recovered, len(redo)
                )
            self._log, self._runs = log, runs
        return self._log

    async def record_page(self, query: str, window: tuple[date, date], resume_key: str | None) -> None:
        """One CDX page read; without a resume key the window is done (for this run's id)."""
        log = await self.log()
        log.record_page(query, window, resume_key)
        if not resume_key:
            job = getattr(self.spider, "sacorpus_job", None)
            self._runs[window_key(query, window)] = job.run if job is not None else ""
            self.spider.crawler.stats.inc_value("sacorpus/source/wayback/windows_done")
        await self.spider.set_state(self.key, {**log.to_dict(), "done_runs": self._runs})


class WaybackSource(Source):
    """A Wayback source kind: CDX queries per calendar month not finished before."""

    argument = "wayback"
    mode = ""  # "cdx" | "homepage": the wayback_mode that selects it
    collapse = "urlkey"

    @property
    def base(self) -> str:
        return self.spider.settings.get("SACORPUS_WAYBACK_BASE") or wayback.WAYBACK

    def queries(self) -> list[Query]:
        raise NotImplementedError

    def configured(self) -> bool:
        return self.publication.sources.wayback is not None and self.mode in self.modes()

    def modes(self) -> set[str]:
        """Which backfill methods run: CDX listings of prefixes/domains, the homepage walk-back, or both."""
        wb = self.publication.sources.wayback
        if wb is None:
            return set()
        mode = self.spider.wayback_mode_arg or self.spider.settings.get("SACORPUS_WAYBACK_MODE") or "auto"
        modes = {"cdx", "homepage"} if mode in ("auto", "both") else {mode}
        if not wb.homepage:
            modes.discard("homepage")
        if not (wb.prefixes or wb.domains):
            modes.discard("cdx")
        return modes

    async def start(self) -> AsyncIterator[Request]:
        spider, wb = self.spider, self.publication.sources.wayback
        assert wb is not None  # configured() checked it
        start, end = spider.wayback_from or wb.start, spider.wayback_to or wb.end or date.today()
        if start is None:
            logger.warning("%s: wayback needs wayback_from (or sources.wayback.from)", spider.name)
            return
        log = await self.sources.windows.log()
        skipped = 0
        for window in month_windows(start, end):
            for query, target, match in self.queries():
                if log.is_done(query, window) and not spider.refetch:
                    skipped += 1
                    continue
                resume = None if self.mode == "homepage" else log.resume_key(query, window)
                yield self.cdx_request((query, target, match), window, resume)
        if skipped:
            self.stats.inc_value("sacorpus/source/wayback/windows_skipped", skipped)
            logger.info("%s: %d Wayback windows finished in earlier runs are skipped", spider.name, skipped)

    def cdx_request(
        self,
        query: Query,
        window: tuple[date, date],
        resume_key: str | None = None,
        captures: Iterable[tuple[str, str, str | None]] = (),
    ) -> Request:
        """One CDX page: rate limited by the "wayback-cdx" slot, backed off on 429/503 by RetryAfterMiddleware."""
        key, target, match = query
        url = wayback.cdx_url(
            target,
            match_type=match,  # type: ignore[arg-type]  # one of the MatchType values, from queries()
            start=window[0],
            end=window[1],
            base=self.base,
            collapse=self.collapse,
            resume_key=resume_key,
            limit=self.spider.settings.getint("SACORPUS_WAYBACK_CDX_LIMIT"),
            output=self.spider.wayback_output,  # type: ignore[arg-type]  # checked by parse_arguments
        )
        return Request(
            url,
            callback=self.spider.parse_source,
            errback=self.spider.source_failed,
            priority=5,
            meta={
                "sacorpus_source": "wayback",
                "sacorpus_source_url": url,
                "sacorpus_handler": self.name,
                "download_slot": "wayback-cdx",
                "autothrottle_dont_adjust_delay": True,
                "sacorpus_seen_key": f"cdx|{window_key(key, window)}|{resume_key or ''}",
                "sacorpus_cdx": (key, target, match, window[0].isoformat(), window[1].isoformat()),
                "sacorpus_homepage_captures": list(captures),
            },
        )

    def read_page(self, response: Any) -> tuple[wayback.CdxPage, Query, tuple[date, date]] | None:
        """The CDX page of a response with its query and window; None (window unfinished) if unreadable."""
        page = wayback.parse_cdx(response.body)
        stats = self.stats
        stats.inc_value("sacorpus/source/wayback/cdx_pages")
        for problem in page.problems:
            stats.inc_value("sacorpus/source/wayback/cdx_problems")
            logger.debug("CDX %s: %s", response.url, problem)
        key, target, match, w_start, w_end = response.meta["sacorpus_cdx"]
        if page.problems and not page.captures and not page.resume_key:
            stats.inc_value("sacorpus/source/wayback/cdx_unreadable")
            logger.warning(
                "CDX answer %s is unreadable (%s); the window stays unfinished",
                response.url,
                page.problems[0],
            )
            return None
        stats.inc_value("sacorpus/source/wayback/captures", len(page.captures))
        return page, (key, target, match), (date.fromisoformat(w_start), date.fromisoformat(w_end))

    async def article_requests(
        self, captures: list[tuple[str, str, str]], source_url: str
    ) -> AsyncIterator[Request]:
        """``(url, timestamp, original)`` -> raw (``id_``) capture requests for URLs the store lacks."""
        spider = self.spider
        urls = [url for url, _, _ in captures]
        known = await spider.stored_urls(urls) if urls and not spider.refetch else set()
        if known:
            self.stats.inc_value("sacorpus/source/already_stored", len(known))
        for url, timestamp, original in captures:
            if url in known:
                continue
            memento = wayback.memento_url(timestamp, original, base=self.base)
            yield spider.article_request(
                memento,
                "wayback",
                source_url,
                {},
                sacorpus_url=url,
                sacorpus_wayback_timestamp=timestamp,
                sacorpus_final_url=memento,
                sacorpus_seen_key=url,
            )
