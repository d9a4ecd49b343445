"""What a page worker computed for the stages after the page stage, held until they take it.

Why its own module: the language and tokenize stages and the source-candidate extension (which is no
pipeline) read it, and nothing outside ``sacorpus/pipelines`` imports a pipeline module. Plain data,
no Scrapy: one instance per crawl, on the crawler (:meth:`Precomputed.of`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from sacorpus.sources.candidates import Candidate
from sacorpus.text.page_work import PageWork


class Precomputed:
    """Language and token fields and source links a worker computed, held for stages 400 and 500 and the
    source-candidate extension until they take them.

    Keyed by the item's identity and forgotten with the item; a stage takes them only while what it
    reads is what the worker read (a stage in between that changes the text makes it compute again).
    """

    def __init__(self) -> None:
        self._work: dict[int, PageWork] = {}
        self._links: dict[int, tuple[str, list[Candidate]]] = {}  # the page stage's own reading

    @classmethod
    def of(cls, crawler: Any) -> Precomputed:
        """The crawl's one instance (the page stage fills it, the language and tokenize stages read it)."""
        found = getattr(crawler, "_sacorpus_precomputed", None)
        if not isinstance(found, Precomputed):
            found = cls()
            crawler._sacorpus_precomputed = found
        return found

    def put(self, item: Any, work: PageWork) -> None:
        key = id(item)
        self._work[key] = work
        weakref.finalize(item, self._work.pop, key, None)

    def put_links(self, item: Any, html: str, links: list[Candidate]) -> None:
        """The source links the page stage read from ``html`` in this process (no worker)."""
        key = id(item)
        self._links[key] = (html, links)
        weakref.finalize(item, self._links.pop, key, None)

    def language(self, item: Any, text: str) -> dict[str, Any] | None:
        work = self._work.get(id(item))
        if work is None or work.language is None or (work.item.text or "") != text:
            return None
        found, work.language = work.language, None
        return found

    def tokens(self, item: Any, inputs: tuple[Any, ...]) -> tuple[dict[str, Any], list[str]] | None:
        work = self._work.get(id(item))
        if work is None or work.tokens is None or work.token_inputs != inputs:
            return None
        found, work.tokens = work.tokens, None
        return found

    def source_links(self, item: Any, html: Any) -> list[Candidate] | None:
        read = self._links.pop(id(item), None)
        if read is not None:
            return read[1] if read[0] == html else None
        work = self._work.get(id(item))
        if work is None or work.source_links is None or work.item.html != html:
            return None
        found, work.source_links = work.source_links, None
        return found


def precomputed_or(found: Any, compute: Callable[[], Any]) -> Any:
    """A worker's result when there is one, else the stage's own computation."""
    return found if found is not None else compute()


__all__ = ["Precomputed", "precomputed_or"]
