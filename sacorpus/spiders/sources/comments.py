"""Reader comments: the threads of a publication's articles, read when found and re-polled until done.

Active when the run asks for comments (``-a comments=1`` beside the usual sources, or
``-a sources=comments`` for comments alone; ``SACORPUS_COMMENTS_CRAWL`` for every run, such as the
ones ``scrapy schedule`` starts) and the publication's file has a ``[comments]`` table.
Threads are found on article pages (fetched in this run, or stored earlier: a comments-only run finds
the threads of the stored articles), their poll state is kept in the store, and each run polls the
threads that are due (:mod:`sacorpus.sources.comment_threads`). A done thread costs no request.

Disqus threads are read through the API the embed loads (:mod:`sacorpus.sources.disqus`):
``threads/details`` (the thread's id, is it closed), then ``threads/listPostsThreaded`` page by page,
each page's comments handed on as items before the next page is asked for (bounded memory). The API
host is not one of the publication's: the address guard lets it through only for these requests of a
publication that declares its Disqus forum. These are API calls the publication's own pages make, not
pages to crawl, so robots.txt of the API host is not consulted. On-page sections are read from the
article page itself (re-fetched when due).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

from scrapy.http import Request, Response, TextResponse

from sacorpus.items import Comment
from sacorpus.sources import disqus
from sacorpus.sources.comment_threads import after_poll, is_due, new_thread
from sacorpus.sources.dates import to_utc_iso
from sacorpus.spiders.sources.base import Source
from sacorpus.text.comments import page_comments

logger = logging.getLogger(__name__)

_FIELDS = frozenset(f.name for f in dataclasses.fields(Comment))
#: stored articles read per batch while looking for threads not yet known
_SCAN_BATCH = 200


class CommentSource(Source):
    name = "comments"
    argument = "comments"

    @property
    def active(self) -> bool:
        kinds = self.spider.source_kinds
        asked = self.spider.comments_arg or bool(kinds and "comments" in kinds)
        asked = asked or (kinds is None and bool(self.setting("SACORPUS_COMMENTS_CRAWL")))
        return asked and self.publication.comments is not None

    def configured(self) -> bool:
        if self.spider.comments_arg and self.publication.comments is None:
            self.stats.inc_value("sacorpus/comments/not_declared")
            logger.warning(
                "comments asked for, but %s's file has no [comments] table: no comments are read",
                self.publication.slug,
            )
        return self.active

    def now(self) -> str:
        return to_utc_iso(self.sources.polls.clock.now()) or ""

    def setting(self, name: str) -> Any:
        return self.spider.settings.get(name)

    # --- finding threads --------------------------------------------------------------------------

    def discover(
        self, html: str, article_url: str, published_at: str | None, now: str
    ) -> list[dict[str, Any]]:
        """New poll states for the threads an article page declares (Disqus, an on-page section)."""
        rules = self.publication.comments
        if rules is None or not html:
            return []
        slug, found = self.publication.slug, []
        thread = disqus.find_thread(html, article_url, rules.disqus_forum) if rules.disqus_forum else None
        if thread is not None:
            found.append(
                new_thread(
                    thread.key, slug, article_url, "disqus", now, forum=thread.forum,
                    identifier=thread.identifier, link=thread.url, article_published_at=published_at,
                )
            )  # fmt: skip
        if rules.on_page and page_comments(html, rules, article_url):
            found.append(
                new_thread(
                    f"page:{article_url}", slug, article_url, "page", now, article_published_at=published_at
                )
            )
        return found

    def _stored_threads(self, store: Any, now: str, limit: int) -> list[dict[str, Any]]:
        """Worker thread: threads of stored articles not looked at yet (up to ``limit``).

        Only URLs are scanned; an article is read in full once, when no thread of it is known. One
        without a thread gets a done marker (kind ``none``), so later runs skip it without reading it.
        """
        found: list[dict[str, Any]] = []
        batch: list[str] = []
        for record in store.iter_articles(self.publication.slug, ["url"], _SCAN_BATCH):
            if len(found) >= limit:
                break
            batch.append(record["url"])
            if len(batch) >= _SCAN_BATCH:
                found += self._threads_of(store, batch, now)
                batch = []
        return (found + self._threads_of(store, batch, now))[: max(0, limit)]

    def _threads_of(self, store: Any, urls: list[str], now: str) -> list[dict[str, Any]]:
        known = store.articles_with_threads(urls) if urls else set()
        found = []
        for url in urls:
            if url in known:
                continue
            article = store.get(url) or {}
            states = self.discover(article.get("html") or "", url, article.get("published_at"), now)
            if not states:
                marker = new_thread(f"none:{url}", self.publication.slug, url, "none", now)
                store.set_thread({**marker, "done": True, "done_reason": "no-thread", "next_poll": None})
            found += states
        return found

    async def start(self) -> AsyncIterator[Request]:
        """Due threads first, then the threads of stored articles never looked at."""
        now, limit = self.now(), int(self.setting("SACORPUS_COMMENTS_MAX_THREADS") or 1000)
        due = await self.spider._ask_store(
            "due_threads", self.publication.slug, now, limit, default=[], stat="comment_errors",
            failed="comment threads not readable",
        )  # fmt: skip
        store = await self.spider._open_store()
        fresh = await asyncio.to_thread(self._stored_threads, store, now, limit - len(due)) if store else []
        if due or fresh:
            logger.info("comments: %d threads due, %d new threads on stored articles", len(due), len(fresh))
        for state in [*due, *fresh]:
            for request in self.poll(state):
                yield request

    async def from_article(self, response: Response) -> AsyncIterator[Any]:
        """Comments of an article fetched in this run: its on-page section now, its Disqus thread polled."""
        if not self.active or not isinstance(response, TextResponse):
            return
        url = response.meta.get("sacorpus_url") or self.spider.logical_url(response.url)
        now = self.now()
        for state in self.discover(response.text, url, None, now):
            known = await self.spider._ask_store(
                "get_thread",
                state["key"],
                default=None,
                stat="comment_errors",
                failed="thread state not readable",
            )
            if not is_due(known, now):
                continue
            if state["kind"] == "page":
                records = self._page_records(response, known or state)
                for record in records:
                    yield self.item(record)
                await self.finish(known or state, closed=False, comments=len(records))
            else:
                for request in self.poll(known or state):
                    yield request

    # --- polling ----------------------------------------------------------------------------------

    def poll(self, state: dict[str, Any]) -> Iterator[Request]:
        self.stats.inc_value("sacorpus/comments/threads/polled")
        if state.get("kind") == "page":
            yield self.request(state["article_url"], "comments", sacorpus_comment=state, sacorpus_step="page")
            return
        thread = disqus.DisqusThread(state["forum"], state.get("identifier"), state.get("link"))
        yield self.api_request(disqus.details_url(self.api_base, thread, self.api_key), state, "details")

    @property
    def api_base(self) -> str:
        return str(self.spider.comment_api_base or disqus.DEFAULT_API_BASE)

    @property
    def api_key(self) -> str:
        return str(self.setting("SACORPUS_DISQUS_API_KEY") or disqus.PUBLIC_API_KEY)

    def api_request(self, url: str, state: dict[str, Any], step: str, **meta: Any) -> Request:
        return self.request(
            url, "comments", sacorpus_comment=state, sacorpus_step=step, sacorpus_comments_api=True,
            dont_obey_robotstxt=True, handle_httpstatus_list=[400, 403, 404], **meta,
        )  # fmt: skip

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        meta, state = response.meta, dict(response.meta["sacorpus_comment"])
        step = meta.get("sacorpus_step")
        if step == "page":
            records = self._page_records(response, state)
            for record in records:
                yield self.item(record)
            await self.finish(state, closed=False, comments=len(records))
            return
        try:
            if step == "details":
                details = disqus.parse_details(response.body)
                state.update(
                    thread_id=details["id"], created_at=details["created_at"] or state.get("created_at")
                )
                url = disqus.posts_url(
                    self.api_base, state["forum"], details["id"], None, self.page_size, self.api_key
                )
                yield self.api_request(
                    url, state, "posts", sacorpus_closed=details["closed"], sacorpus_read=0
                )
                return
            records, cursor = disqus.parse_posts(response.body, state["forum"], state["article_url"])
        except disqus.DisqusError as exc:
            self.stats.inc_value("sacorpus/comments/disqus/errors")
            logger.warning("comments of %s not read (%s): %s", state["article_url"], step, exc)
            await self.finish(state, closed=False, comments=0)
            return
        self.stats.inc_value("sacorpus/source/comments/documents")
        for record in records:
            yield self.item(record)
        read, closed = int(meta.get("sacorpus_read") or 0) + len(records), bool(meta.get("sacorpus_closed"))
        pages = int(meta.get("sacorpus_page") or 1)
        if cursor and pages < int(self.setting("SACORPUS_DISQUS_MAX_PAGES") or 1000):
            url = disqus.posts_url(
                self.api_base, state["forum"], state["thread_id"], cursor, self.page_size, self.api_key
            )
            yield self.api_request(
                url, state, "posts", sacorpus_closed=closed, sacorpus_read=read, sacorpus_page=pages + 1
            )
            return
        await self.finish(state, closed=closed and not cursor, comments=read)

    @property
    def page_size(self) -> int:
        return int(self.setting("SACORPUS_DISQUS_PAGE_SIZE") or disqus.MAX_PAGE_SIZE)

    def _page_records(self, response: Response, state: dict[str, Any]) -> list[dict[str, Any]]:
        rules = self.publication.comments
        if rules is None or not isinstance(response, TextResponse):
            return []
        self.stats.inc_value("sacorpus/source/comments/documents")
        return page_comments(response.text, rules, state["article_url"])

    def item(self, record: dict[str, Any]) -> Comment:
        self.stats.inc_value(f"sacorpus/comments/{record.get('source', 'unknown')}")
        values = {k: v for k, v in record.items() if k in _FIELDS}
        return Comment(**{**values, "publication": self.publication.slug})

    async def finish(self, state: dict[str, Any], *, closed: bool, comments: int) -> None:
        """Record a complete poll: done when closed or too old, else due again after the interval."""
        after = after_poll(
            state, self.now(), closed=closed, comments=comments,
            interval=float(self.setting("SACORPUS_COMMENTS_POLL_INTERVAL")),
            max_age_days=float(self.setting("SACORPUS_COMMENTS_MAX_AGE_DAYS")),
        )  # fmt: skip
        if after.get("done"):
            self.stats.inc_value(f"sacorpus/comments/threads/done/{after['done_reason']}")
        await self.spider._ask_store(
            "set_thread", after, default=None, stat="comment_errors", failed="thread state not written"
        )
