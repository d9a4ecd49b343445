"""``scrapy dedup --rebuild`` (and ``scrapy reextract``): clear the index and label every stored article again.

Why apart from the labelling (:mod:`sacorpus.text.dedup_labels`): the rebuild is a loop of its own
around the same :class:`Labeller` - chunks read in fetch order, an index in memory, fingerprints
computed ahead in a worker process, labels written back a chunk at a time and count moves settled
once at the end - while ingest labels one article at a time.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from tqdm import tqdm

from sacorpus import settings as defaults
from sacorpus.publications import PublicationRegistry
from sacorpus.storage.base import ArticleStore
from sacorpus.text.dedup import DedupConfig, Fingerprint
from sacorpus.text.dedup_ahead import Ahead, FingerprintsAhead, default_workers
from sacorpus.text.dedup_labels import Labeller, fingerprint_args, label_fields
from sacorpus.text.dedup_memory import LookupRule, MemoryDedupIndex

logger = logging.getLogger(__name__)

#: the store state a rebuild keeps: when it started, and when it finished (None while its index is
#: incomplete; see :func:`unfinished_rebuild`)
REBUILD_STATE = "dedup_rebuild"

_FIELDS = (
    "url",
    "publication",
    "text",
    "canonical_url",
    "sentences",
    "fetched_at",
    "published_at",
    "text_hash",
    "dedup_label",
    "dedup_evidence",
)


def rebuild_index(
    store: ArticleStore,
    config: DedupConfig,
    progress: bool = True,
    batch_size: int = 500,
    in_memory: bool = True,
    memory_mb: float | None = None,
    workers: int = 0,
    publications: PublicationRegistry | None = None,
) -> Counter[str]:
    """Clear the dedup index and re-label every stored article, replaying the crawl's fetch order.

    The earliest published copy of a story ends ``unique`` (see :class:`Labeller`); the labels are the
    ones ingest gave. Returns the label counts (``no_text`` for articles without text, which keep no
    label; ``relabelled`` for copies relabelled when their original came later).

    Why batches: the articles are read ``batch_size`` at a time (only the fields labelling needs),
    and their labels written together at the end of each batch in one transaction (one bulk request
    on MongoDB), skipping the articles whose label, evidence and text hash are already the ones given
    (a rebuild with the settings of the crawl rewrites nothing). The word counts of the relabelled
    articles move once, at the end, for those whose count key changed (``store.relabelling()``).
    Why the index in memory (:class:`MemoryDedupIndex`): the rebuild is the index's only writer and
    asks only about what it added, so the questions are answered in memory and the store gets the
    whole index in one bulk load at the end (article by article it was most of the time on SQLite
    and hundreds of round trips an article on MongoDB). Memory grows with the index (about 2.3 KB an
    article of 46 sentences): past ``memory_mb`` the index is written to the store (the same bulk load)
    and the store answers from there on, as at ingest, so a large corpus is rebuilt in bounded memory
    with the same labels. No list of all articles is kept.
    ``workers``: processes that fingerprint the next batch while this one is labelled
    (:mod:`sacorpus.text.dedup_ahead`; 0: each article is fingerprinted as it is labelled).
    """
    started = datetime.now(UTC).isoformat(timespec="seconds")
    store.set_state(REBUILD_STATE, {"started": started, "finished": None})  # before the index is cleared
    store.dedup_clear()
    labels: Counter[str] = Counter()
    rule = LookupRule(store.dedup_lookup_limit, store.dedup_lookup_sorted)
    index = MemoryDedupIndex(store.dedup_max_ids, rule) if in_memory else None  # False: the store's
    labeller = Labeller(store, config, publications, index=index)  # id_pattern slugs as at ingest
    size = max(1, min(batch_size, labeller.recent_size))  # a relabel within the batch finds its target
    records = store.iter_articles(fields=_FIELDS, batch_size=size)
    bar = tqdm(total=store.count(), unit="article", desc="dedup --rebuild", disable=not progress)
    # the count moves of every relabel are settled once at the end (relabelling)
    with bar, store.relabelling(), FingerprintsAhead(config, workers) as ahead:
        for chunk, fps in _fingerprinted_chunks(records, size, ahead, labeller):
            with store.batched():  # one commit per chunk (SQLite)
                _label_chunk(store, labeller, chunk, fps, labels)
            bar.update(len(chunk))
            if index is not None and _past_budget(index, memory_mb):
                store.dedup_bulk_load(index.records())  # the store answers from here on
                index = labeller.index = None
        if index is not None:
            store.dedup_bulk_load(index.records())
    store.set_state(
        REBUILD_STATE, {"started": started, "finished": datetime.now(UTC).isoformat(timespec="seconds")}
    )
    return _final_counts(store, labels, labeller.relabelled)


def _past_budget(index: MemoryDedupIndex, memory_mb: float | None) -> bool:
    """Whether the index in memory passed ``memory_mb`` (logged: it is then written to the store)."""
    if memory_mb is None or index.approx_bytes() <= memory_mb * 2**20:
        return False
    logger.info(
        "dedup --rebuild: the index of %d articles passed %g MB in memory; written to the store, which "
        "answers from here on (SACORPUS_DEDUP_REBUILD_MEMORY_MB)",
        len(index),
        memory_mb,
    )
    return True


def unfinished_rebuild(store: ArticleStore) -> str | None:
    """When a rebuild that did not finish (interrupted, killed, a store failure) started, else None.

    Its index is incomplete: the articles after the point it reached are missing from it, so an
    article labelled against it could be called ``unique`` beside a stored copy.
    """
    state = store.get_state(REBUILD_STATE) or {}
    return None if state.get("finished") or not state.get("started") else str(state["started"])


def finish_unfinished_rebuild(store: ArticleStore, config: DedupConfig, settings: Any = None) -> bool:
    """Rebuild the index again when a rebuild left it incomplete (the crawl does this before it labels
    anything); returns whether it did."""
    started = unfinished_rebuild(store)
    if started is None:
        return False
    logger.warning(
        "dedup: a dedup --rebuild started %s did not finish, so the index is incomplete; rebuilding it "
        "before labelling (%d articles)",
        started,
        store.count(),
    )
    rebuild_index(store, config, progress=False, **rebuild_options(settings or {}))
    return True


def _fingerprinted_chunks(
    records: Iterator[dict[str, Any]], size: int, ahead: FingerprintsAhead, labeller: Labeller
) -> Iterator[tuple[list[dict[str, Any]], list[Fingerprint | None]]]:
    """Chunks of ``size`` records with their fingerprints (None: computed as each is labelled); the
    next chunk is read and handed to the workers before this one is given out."""

    def read() -> tuple[list[dict[str, Any]], Ahead | None]:
        chunk = list(islice(records, size))
        if not chunk or not ahead.active:
            return chunk, None
        return chunk, ahead.submit([fingerprint_args(r, labeller.publications) for r in chunk])

    chunk, fingerprints = read()
    while chunk:
        following = read()  # fingerprinted by the workers while this chunk is labelled
        yield chunk, fingerprints.result() if fingerprints is not None else [None] * len(chunk)
        chunk, fingerprints = following


def rebuild_options(settings: Any) -> dict[str, Any]:
    """:func:`rebuild_index`'s ``memory_mb``, ``workers`` and ``publications`` (whose ``id_pattern`` gives
    slug evidence, as at ingest) from a command's settings (defaults in sacorpus/settings.py;
    ``SACORPUS_DEDUP_REBUILD_WORKERS`` unset: one worker where there are two cores)."""
    memory = settings.get("SACORPUS_DEDUP_REBUILD_MEMORY_MB", defaults.SACORPUS_DEDUP_REBUILD_MEMORY_MB)
    workers = settings.get("SACORPUS_DEDUP_REBUILD_WORKERS", defaults.SACORPUS_DEDUP_REBUILD_WORKERS)
    return {
        "memory_mb": None if memory in (None, "") else float(memory),
        "workers": default_workers() if workers in (None, "") else int(workers),
        "publications": PublicationRegistry.from_settings(settings),
    }


def _label_chunk(
    store: ArticleStore,
    labeller: Labeller,
    chunk: list[dict[str, Any]],
    fps: list[Fingerprint | None],
    labels: Counter[str],
) -> None:
    """Label a chunk of stored records, then write the labels that changed and the relabels.

    A copy fetched before its original is labelled, then relabelled when the original comes: what is
    compared with the stored row is its last label in the chunk, so an unchanged store is not written.
    """
    given: dict[str, dict[str, Any]] = {}
    for record, fp in zip(chunk, fps, strict=True):
        result = labeller.label(record, flush=False, fp=fp)
        labels[result.label if result is not None else "no_text"] += 1
        given[record["url"]] = label_fields(result)
    for url, relabel in labeller.pending.items():  # relabels are later than labels: they win
        given[url] = {**given.get(url, {}), **relabel}
    labeller.pending.clear()
    stored = {record["url"]: record for record in chunk}
    store.update_labels(
        {
            url: fields
            for url, fields in given.items()
            if (row := stored.get(url)) is None or any(row.get(k) != v for k, v in fields.items())
        }
    )


def _final_counts(store: ArticleStore, labels: Counter[str], relabelled: int) -> Counter[str]:
    """The labels as they stand after the relabels (counted while labelling, a copy relabelled later
    would be counted under its first label)."""
    if not relabelled:
        return labels
    return Counter(r.get("dedup_label") or "no_text" for r in store.iter_articles(fields=["dedup_label"]))


__all__ = [
    "REBUILD_STATE",
    "finish_unfinished_rebuild",
    "rebuild_index",
    "rebuild_options",
    "unfinished_rebuild",
]
