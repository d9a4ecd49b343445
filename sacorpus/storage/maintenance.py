"""Long jobs over a whole store: rebuild the corpus indexes, check the kept counts, compact the rows.

Why apart from the backends: each job is the same loop over ``iter_articles`` on SQLite and MongoDB
(batched, resumable where it rewrites, with a progress callback); the backends supply the steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.counts_check import streamed_differences

FTS = "index:fts"
COUNTS = "index:word_counts"
INDEXES = (FTS, COUNTS)
#: what the indexes read of an article
INDEX_FIELDS = (
    "url",
    "fetched_at",  # the key the search terms are posted under (MongoDB)
    "publication",
    "published_at",
    "language",
    "dedup_label",
    "title",
    "text",
    "tokens",
    "page_type",  # and the two counts: the group totals a store may keep (MongoDB)
    "token_count",
    "word_count",
)
COMPACT_STATE = "compact"

Progress = Callable[[int], Any]


def _noop(n: int) -> None:
    return None


def rebuild_indexes(
    store: ArticleStore,
    names: tuple[str, ...] = INDEXES,
    *,
    batch_size: int = 500,
    progress: Progress = _noop,
) -> int:
    """Empty the named indexes and add every stored article again; returns the articles indexed.

    Run it while no crawl writes to the store (a write during the rebuild may be counted twice).
    """
    store._reset_indexes(names)
    batch: list[dict[str, Any]] = []
    n = 0
    for record in store.iter_articles(fields=INDEX_FIELDS, batch_size=batch_size):
        batch.append(record)
        if len(batch) >= batch_size:
            store._index_batch(batch, names)
            n += len(batch)
            progress(len(batch))
            batch = []
    if batch:
        store._index_batch(batch, names)
        n += len(batch)
        progress(len(batch))
    store._mark_ready(names)
    return n


def check_counts(store: ArticleStore, *, batch_size: int = 500, progress: Progress = _noop) -> list[str]:
    """Where the kept word counts differ from a full recount of the stored tokens (empty: equal)."""
    if not store.index_ready(COUNTS):
        return ["the word counts are not built (run scrapy wordlist --rebuild-counts)"]

    def records() -> Any:
        for record in store.iter_articles(fields=INDEX_FIELDS, batch_size=batch_size):
            progress(1)
            yield record

    return streamed_differences(store.iter_kept_counts(), records())


def compact(store: ArticleStore, *, batch_size: int = 500, progress: Progress = _noop) -> int:
    """Rewrite every article in the store's current layout, batch by batch; returns how many.

    Resumable: the (fetched_at, url) position after each batch is kept in the store's state, so an
    interrupted run continues where it stopped; a rewrite reads back every field equal (the same
    record is written again). The indexes are rebuilt at the end when they were not ready before.
    """
    state = store.get_state(COMPACT_STATE) or {}
    after = state.get("after")
    done = int(state.get("done") or 0)
    batch: list[dict[str, Any]] = []

    def flush() -> None:
        nonlocal done
        store.upsert_articles(batch)
        done += len(batch)
        last = batch[-1]
        store.set_state(COMPACT_STATE, {"after": [last.get("fetched_at") or "", last["url"]], "done": done})
        progress(len(batch))
        batch.clear()

    for record in store.iter_articles(batch_size=batch_size):
        if after is not None and [record.get("fetched_at") or "", record["url"]] <= after:
            continue
        batch.append(record)
        if len(batch) >= batch_size:
            flush()
    if batch:
        flush()
    missing = tuple(name for name in INDEXES if not store.index_ready(name))
    if missing:
        rebuild_indexes(store, missing, batch_size=batch_size)
    store.set_state(COMPACT_STATE, {"after": None, "done": 0, "finished": done})
    return done
