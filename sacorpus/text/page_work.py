"""The pure work of stages 300-500 on one article, and the record that lets it run in another process.

Why: the page core, language identification and tokenization are pure and costly; a crawl on several
cores runs them in worker processes (``SACORPUS_PAGE_WORKERS``). One thing is not pure: the page core
asks the publication's :class:`LineHistory` (lines and title strings its other pages repeat) and adds
the page to it, and that history is the crawl's, learnt in the order pages reach the page stage. A
worker holds a replica of it (a few pages behind) and answers from it through a
:class:`RecordingHistory`, which writes down every answer it gave and every observation the page made.
The crawl's process then :func:`replay`\\ s that record against its own history in page order: when
every answer is the one its history gives, the worker's result is exactly what the crawl's process
would have computed (the core is a function of the page and those answers), and the page's
observations are applied; otherwise the page is computed again with the right history.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sacorpus.items import Article
from sacorpus.publications import Publication
from sacorpus.sources.candidates import Candidate, source_links
from sacorpus.text.analysis import language_fields, token_fields
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.page import PageOptions, process_page

#: One thing the page asked or told its history: ("title?", key, page, answer), ("line?", key, answer),
#: ("title+", keys, page), ("line+", keys).
Event = tuple[Any, ...]


class RecordingHistory(LineHistory):
    """A history's answers, written down with the page's observations.

    In a worker (``learns=False``) the replica does not learn them: the crawl's process sends every
    worker what it commits, in commit order. In the crawl's process (``learns=True``, a page computed
    there) the history learns them as it always does, and the record goes to the workers' replicas.
    """

    def __init__(self, history: LineHistory, learns: bool = False) -> None:
        super().__init__(history.min_pages, history.max_lines)
        self._pages = history._pages  # shared, not copied
        self._titles = history._titles
        self.learns = learns
        self.events: list[Event] = []

    def title_repeated(self, key: bytes, page: bytes) -> bool:
        answer = super().title_repeated(key, page)
        self.events.append(("title?", key, page, answer))
        return answer

    def line_repeated(self, key: bytes) -> bool:
        answer = super().line_repeated(key)
        self.events.append(("line?", key, answer))
        return answer

    def observe_title_keys(self, keys: list[bytes], page: bytes) -> None:
        self.events.append(("title+", keys, page))
        if self.learns:
            super().observe_title_keys(keys, page)

    def observe_keys(self, keys: list[bytes]) -> None:
        self.events.append(("line+", keys))
        if self.learns:
            super().observe_keys(keys)


def replay(history: LineHistory, events: list[Event]) -> bool:
    """Apply a page's observations to ``history`` when every recorded answer is the one it gives now;
    False (and ``history`` untouched) otherwise.

    The worker answered from a replica that does not learn the page's own observations, so an answer
    given after the page told the same table something holds only where that telling cannot change it:
    a title question about the page that told (a page's own statement never counts towards "other
    pages") while the table is too small for the tellings to have forgotten anything. A line question
    after the page's lines were counted is always refused (the counts changed).
    """
    told_lines = False
    title_pages: set[bytes] = set()
    title_keys: set[bytes] = set()  # keys the page's tellings put in the title table
    for event in events:
        kind = event[0]
        if kind == "title?":
            if title_pages and (
                event[2] not in title_pages or not history.keeps_titles_when_told(title_keys)
            ):
                return False
            if history.title_repeated(event[1], event[2]) != event[3]:
                return False
        elif kind == "line?":
            if told_lines or history.line_repeated(event[1]) != event[2]:
                return False
        elif kind == "title+":
            title_pages.add(event[2])
            title_keys.update(event[1])
        else:
            told_lines = True
    for event in events:
        if event[0] == "title+":
            history.observe_title_keys(event[1], event[2])
        elif event[0] == "line+":
            history.observe_keys(event[1])
    return True


def observations(events: list[Event]) -> list[Event]:
    """The part of a record a replica learns from (what the page told its history)."""
    return [event for event in events if event[0] in ("title+", "line+")]


def learn(history: LineHistory, told: list[Event]) -> None:
    """A replica learns what the crawl's process committed (:func:`observations`), in commit order."""
    for event in told:
        if event[0] == "title+":
            history.observe_title_keys(event[1], event[2])
        else:
            history.observe_keys(event[1])


def apply_page(item: Article, fields: dict[str, Any]) -> None:
    """Copy the page core's fields onto an item; anchors go to ``fallback`` for the tokenize stage."""
    anchors = fields.pop("anchors", None)
    if item.canonical_url:
        fields.pop("canonical_url", None)  # the spider's own canonical (a mirror's target) wins
    for name, value in fields.items():
        setattr(item, name, value)
    if anchors is not None:
        item.fallback["anchors"] = anchors


def token_inputs(get: Callable[[str], Any]) -> tuple[Any, ...]:
    """What the tokenize stage reads of an article or comment (``get``: a field by name), in the order
    :func:`token_fields` takes it; a precomputed result holds while these are unchanged."""
    fallback = get("fallback") or {}
    return (
        get("text") or "",
        get("language"),
        get("title_clean") or get("title"),
        fallback.get("anchors") if isinstance(fallback, dict) else None,
        get("html"),
        get("final_url") or get("url"),
    )


@dataclass
class PageStage:
    """What stage 300 gives besides the item's fields: its stats counters, and the other hosts' feed
    and sitemap links read from the same parse (None when not asked for or not read)."""

    counters: list[tuple[str, int]]
    source_links: list[Candidate] | None = None


def page_stage(
    item: Article,
    publication: Publication | None,
    captured: date | None,
    options: PageOptions,
    history: LineHistory | None,
) -> PageStage:
    """Stage 300 on ``item`` in place (fields, problems)."""
    result = process_page(
        item.body,
        item.headers,
        item.url,
        publication,
        captured,
        html=item.html,
        fallback=item.fallback,
        options=options,
        history=history,
    )
    apply_page(item, result.article_fields(item.final_url or item.url))
    for problem in result.problems:
        item.note(problem)
    links = result.extracted.source_links if result.extracted is not None else None
    return PageStage(result.counters(), links)


@dataclass
class PageWork:
    """What a worker did to one article: the article after the page stage, its stats counters, the
    history record, and (when those stages are on) the language and token fields computed from it."""

    item: Article
    counters: list[tuple[str, int]]
    events: list[Event]
    language: dict[str, Any] | None = None
    tokens: tuple[dict[str, Any], list[str]] | None = None
    token_inputs: tuple[Any, ...] = ()
    source_links: list[Candidate] | None = None  # feeds and sitemaps of other hosts it links to
    cpu_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


def work_page(
    item: Article,
    publication: Publication | None,
    captured: date | None,
    options: PageOptions,
    history: RecordingHistory,
    stages: tuple[bool, ...],
    max_paragraphs: int,
) -> PageWork:
    """Stage 300 on ``item`` (in place) and, for ``stages`` (language, tokenize, source candidates)
    switched on, the fields stages 400 and 500 would compute from it and the feed and sitemap links
    the source-candidate extension reads from it. A stage that raises is left to the crawl's process, which
    computes it again and reports it as it always does."""
    cpu = time.process_time()
    stage = page_stage(item, publication, captured, options, history)
    work = PageWork(item, stage.counters, history.events)
    if stages[0]:
        try:
            work.language = language_fields(item.text or "", max_paragraphs)
        except Exception as exc:  # the crawl's process runs the stage again and reports it
            work.errors.append(f"language:{type(exc).__name__}")
    if stages[1] and (work.language is not None or not stages[0]):
        inputs = list(token_inputs(lambda name: getattr(item, name, None)))
        if work.language is not None:
            inputs[1] = work.language["language"]  # what stage 400 will have set
        work.token_inputs = tuple(inputs)
        try:
            work.tokens = token_fields(*work.token_inputs)
        except Exception as exc:
            work.errors.append(f"tokenize:{type(exc).__name__}")
    if len(stages) > 2 and stages[2] and item.html:
        found = stage.source_links
        work.source_links = found if found is not None else source_links(item.html, item.url)
    work.cpu_seconds = time.process_time() - cpu
    return work


__all__ = [
    "Event",
    "PageStage",
    "PageWork",
    "RecordingHistory",
    "apply_page",
    "learn",
    "observations",
    "page_stage",
    "replay",
    "token_inputs",
    "work_page",
]
