"""What the pages ask of the corpus: one function per page, each calling the corpus functions.

Why here and not in the route handlers: these run in a worker thread (the store's calls block), take
plain values and return plain data, so the same function serves the HTML page and its download, and a
test or benchmark can call it without a server. The scanning itself is the corpus commands' own
(:func:`sacorpus.corpus.cli.iter_store` with the same filter, matcher and counters).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sacorpus.corpus.cli import ScanCounts, iter_store
from sacorpus.corpus.collocations import (
    COLLOCATION_FIELDS,
    Collocate,
    CollocationCounter,
    collocates,
    count_from_store,
)
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.kwic import KWIC_FIELDS, KwicHit, kwic_hits, query_tokens, sort_hits
from sacorpus.corpus.kwic import index_substrings as kwic_index_tokens
from sacorpus.corpus.search import (
    SEARCH_FIELDS,
    SearchHit,
    compile_pattern,
    finder,
    index_substrings,
    search_record,
)
from sacorpus.corpus.stats import GROUP_ROW, CorpusStats
from sacorpus.corpus.wordlist import WORDLIST_FIELDS, WordCounter, WordlistRow, wordlist_rows
from sacorpus.storage.base import ArticleStore

SEARCH_MODES = ("phrase", "words", "regex")


class QueryError(ValueError):
    """A query the user typed cannot be run (shown as a 400 page with this message)."""


@dataclass
class Page:
    """One page of results: ``rows``, whether more follow, and what the scan read."""

    rows: list[Any]
    number: int
    size: int
    more: bool
    counts: ScanCounts = field(default_factory=ScanCounts)
    total: int | None = None  # all results, when the page had to find them all (sorting)
    capped: bool = False  # the results stopped at the line cap


def _records(
    store: ArticleStore,
    flt: ArticleFilter,
    fields: tuple[str, ...],
    counts: ScanCounts,
    substrings: Sequence[str] = (),
    tokens: Sequence[str] = (),
) -> Any:
    """The filtered records, narrowed by the store's search index to those holding every one of
    ``substrings`` and ``tokens`` (what the commands read: a page never scans what the index rules out)."""
    return iter_store(store, flt, fields, progress=False, counts=counts, substrings=substrings, tokens=tokens)


def _required_substrings(query: str, mode: str) -> list[str]:
    """What every matching article contains, for the index: the phrase, a regex's literal parts, or
    each of the words."""
    if mode == "words":
        return [s for word in query.split() for s in index_substrings(word)]
    return index_substrings(query, regex=mode == "regex")


def _page_of(results: Iterator[Any], number: int, size: int, counts: ScanCounts) -> Page:
    """Skip the earlier pages' results, keep one page, and look one further to know if more follow."""
    skip = (number - 1) * size
    rows: list[Any] = []
    more = False
    for i, row in enumerate(results):
        if i < skip:
            continue
        if len(rows) == size:
            more = True
            break
        rows.append(row)
    return Page(rows=rows, number=number, size=size, more=more, counts=counts)


def search_matcher(
    query: str, mode: str, case_sensitive: bool
) -> tuple[re.Pattern[str], list[re.Pattern[str]]]:
    """The pattern that marks the snippet, and the patterns an article must all match.

    ``phrase`` is the literal string, ``regex`` a Python regular expression, ``words`` every word
    anywhere in the article (whole words, any order).
    """
    if mode not in SEARCH_MODES:
        raise QueryError(f"unknown search mode {mode!r}; use one of {', '.join(SEARCH_MODES)}")
    if mode != "words":
        pattern = compile_pattern(query, regex=mode == "regex", case_sensitive=case_sensitive)
        return pattern, [pattern]
    words = query.split()
    if not words:
        raise QueryError("the search is empty")
    each = [compile_pattern(rf"\b{re.escape(w)}\b", regex=True, case_sensitive=case_sensitive) for w in words]
    alternation = "|".join(rf"\b{re.escape(w)}\b" for w in words)
    return compile_pattern(alternation, regex=True, case_sensitive=case_sensitive), each


def search(
    store: ArticleStore,
    flt: ArticleFilter,
    query: str,
    *,
    mode: str = "phrase",
    case_sensitive: bool = False,
    page: int = 1,
    size: int = 50,
) -> Page:
    """One page of articles matching the query (snippet around the first match)."""
    pattern, required = search_matcher(query, mode, case_sensitive)
    counts = ScanCounts()
    fields = (*SEARCH_FIELDS, "publication", "language", "dedup_label")

    def hits() -> Iterator[tuple[SearchHit, dict[str, Any]]]:
        records = _records(store, flt, fields, counts, _required_substrings(query, mode))
        try:
            for record in records:
                if len(required) > 1:
                    whole = f"{record.get('title') or ''}\n{record.get('text') or ''}"
                    if not all(next(finder(p).spans(whole), None) is not None for p in required):
                        continue
                hit = search_record(record, pattern)
                if hit is not None:
                    yield hit, record
        finally:
            records.close()

    return _page_of(hits(), page, size, counts)


def concordance(
    store: ArticleStore,
    flt: ArticleFilter,
    phrase: str,
    *,
    width: int = 40,
    case_sensitive: bool = False,
    sort: str = "none",
    max_lines: int = 20_000,
) -> tuple[list[KwicHit], ScanCounts, bool]:
    """Concordance lines of a word or phrase (at most ``max_lines``, sorted), and whether it stopped there."""
    query = query_tokens(phrase, lang=flt.languages[0] if len(flt.languages) == 1 else "en")
    if not query or all(q == "*" for q in query):
        raise QueryError("the phrase needs at least one word that is not *")
    counts = ScanCounts()
    lines: list[KwicHit] = []
    records = _records(store, flt, KWIC_FIELDS, counts, tokens=kwic_index_tokens(query))
    try:
        for record in records:
            lines.extend(kwic_hits(record, query, width=width, case_sensitive=case_sensitive))
            if len(lines) >= max_lines:
                break
    finally:
        records.close()
    capped = len(lines) >= max_lines
    return sort_hits(lines[:max_lines], sort), counts, capped


def kwic_page(lines: list[KwicHit], counts: ScanCounts, capped: bool, page: int, size: int) -> Page:
    start = (page - 1) * size
    return Page(
        rows=lines[start : start + size],
        number=page,
        size=size,
        more=start + size < len(lines),
        counts=counts,
        total=len(lines),
        capped=capped,
    )


def wordlist(
    store: ArticleStore, flt: ArticleFilter, *, lower: bool, min_count: int = 1
) -> tuple[list[WordlistRow], WordCounter, ScanCounts]:
    """Every word of the filtered articles by frequency, with the totals."""
    counter = WordCounter(lower=lower)
    counts = ScanCounts()
    kept = store.word_counts(flt.store_filter())  # the kept counts when they can answer the filter
    if kept is not None:
        counter = WordCounter.from_kept(kept, lower=lower)
        counts.scanned = counts.matched = kept.articles
    else:
        for record in _records(store, flt, WORDLIST_FIELDS, counts):
            counter.add(record.get("tokens") or [])
    return wordlist_rows(counter.counts, counter.total_words, min_count=min_count), counter, counts


def collocation_table(
    store: ArticleStore,
    flt: ArticleFilter,
    node: str,
    *,
    window: int = 5,
    measure: str = "ll",
    min_count: int = 3,
) -> tuple[list[Collocate], CollocationCounter, ScanCounts]:
    """Attracted collocates of ``node`` ranked by ``measure``."""
    if not node.strip():
        raise QueryError("give a node word")
    try:
        counter = CollocationCounter(node=node.strip(), window=window)
    except ValueError as exc:
        raise QueryError(str(exc)) from exc
    counts = ScanCounts()
    count_from_store(
        counter,
        store.word_counts(flt.store_filter()),
        lambda tokens: _records(store, flt, COLLOCATION_FIELDS, counts, tokens=tokens),
    )
    try:
        rows = collocates(counter, measure=measure, min_count=min_count, top=None)
    except ValueError as exc:
        raise QueryError(str(exc)) from exc
    return rows, counter, counts


@dataclass
class StatsSummary:
    """What the stats page draws: totals per publication, articles per day, languages, dedup labels."""

    stats: CorpusStats
    daily: Counter[tuple[str, str]] = field(default_factory=Counter)  # (publication, YYYY-MM-DD)
    languages: Counter[str] = field(default_factory=Counter)
    labels: Counter[str] = field(default_factory=Counter)
    counts: ScanCounts = field(default_factory=ScanCounts)


def corpus_stats(store: ArticleStore, flt: ArticleFilter) -> StatsSummary:
    """The stats page from the store's grouped sums per day (no article is read, as ``scrapy stats``)."""
    summary = StatsSummary(stats=CorpusStats(by="publication"))
    for *values, articles, tokens, words in store.group_counts(flt.store_filter(), period=10):
        group = dict(zip(GROUP_ROW, values, strict=True))
        summary.stats.add_group(group, articles, tokens, words)
        day = group.get("published_at")
        if isinstance(day, str) and len(day) >= 10:
            summary.daily[(str(group.get("publication")), day[:10])] += articles
        summary.languages[str(group.get("language") or "(none)")] += articles
        summary.labels[str(group.get("dedup_label") or "(none)")] += articles
    summary.counts.scanned = summary.counts.matched = summary.stats.total.articles
    return summary
