"""Near-duplicate labels of stored articles: ingest labelling and the full rebuild, one implementation.

Why a module of its own: the dedup stage (ingest), ``scrapy dedup --rebuild`` and ``scrapy reextract``
must give the same labels, and commands do not import pipelines. Labels come from
:func:`sacorpus.text.dedup.dedup_article` against the store's sentence-hash index.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Mapping
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from tqdm import tqdm

from sacorpus import settings as defaults
from sacorpus.publications import Publication, PublicationRegistry
from sacorpus.sources.urls import UrlPolicy
from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.text.dedup import (
    MAX_EVIDENCE,
    DedupConfig,
    DedupIndex,
    DedupResult,
    Fingerprint,
    dedup_article,
    label_for,
    order_key,
    text_hash,
)
from sacorpus.text.dedup_ahead import Ahead, FingerprintArgs, FingerprintsAhead, compute, default_workers
from sacorpus.text.dedup_memory import LookupRule, MemoryDedupIndex

logger = logging.getLogger(__name__)

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

#: what the labeller remembers per article: (text hash, label, evidence)
Remembered = tuple[str | None, str, list[dict[str, Any]]]


#: Labels given in this run, for the refetch check while the store has not yet written them.
RECENT_LABELS = 2000


def unchanged_refetch(
    store: ArticleStore, url: str, text: str, recent: Mapping[str, Remembered] | None = None
) -> DedupResult | None:
    """The earlier label of an article fetched again with the same text, else None.

    The original (earliest published) copy of a story is ``unique`` and later copies point at it; a
    copy that arrives before its original is relabelled when the original arrives. An unchanged
    article keeps the label it has (from ``recent``: labelled this run, maybe not stored yet, or from
    the store), which already reflects every copy indexed since; labelling it afresh would only
    repeat that work.
    """
    previous = store.dedup_fingerprints([url]).get(url)
    if not previous or previous.get("text_hash") != text_hash(text):
        return None
    fp = Fingerprint.from_record(previous)
    if recent is not None and url in recent and recent[url][0] == previous.get("text_hash"):
        _, label, evidence = recent[url]
        return DedupResult(label, list(evidence), fp)
    stored = store.dedup_labels([url]).get(url)
    if not stored or not stored.get("dedup_label"):
        return None
    return DedupResult(stored["dedup_label"], list(stored.get("dedup_evidence") or []), fp)


def publication_slug(url: str, publication: Publication | None) -> str | bool | None:
    """The "same slug, changed id" key of ``url``: from the publication's ``id_pattern`` when it has one
    (None when the URL carries no id), else True (the generic slug heuristic)."""
    if publication is None or not publication.urls.id_pattern:
        return True
    path_key = UrlPolicy.from_publication(publication).slug_key(url)
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    return f"{host}{path_key}" if path_key else None


def fingerprint_args(record: Any, publications: PublicationRegistry | None = None) -> FingerprintArgs | None:
    """What an article (an item or a stored record) is fingerprinted with; None without text."""
    adapter = ItemAdapter(record) if not isinstance(record, dict) else None
    get = adapter.get if adapter is not None else record.get
    text, url = get("text"), str(get("url"))
    if not text or not str(text).strip():
        return None
    publication = publications.get(get("publication")) if publications is not None else None
    return FingerprintArgs(
        url,
        str(text),
        get("canonical_url"),
        get("sentences") or None,
        publication_slug(url, publication),
        order_key(get("published_at"), get("fetched_at"), url),
    )


def dedup_record(
    store: ArticleStore,
    record: Any,
    config: DedupConfig,
    *,
    keep_unchanged: bool = False,
    recent: Mapping[str, Remembered] | None = None,
    publications: PublicationRegistry | None = None,
    index: DedupIndex | None = None,
    fp: Fingerprint | None = None,
) -> DedupResult | None:
    """Label one article (an item or a stored record) and add it to the index; None without text.

    ``keep_unchanged`` (ingest): an article the index already has with the same text keeps its label.
    ``index``: the index to ask and add to in place of the store's (the rebuild's, in memory).
    ``fp``: the article's fingerprint computed ahead from :func:`fingerprint_args` (the rebuild's,
    which does not keep unchanged articles).
    """
    if fp is None:
        args = fingerprint_args(record, publications)
        if args is None:
            return None
        if keep_unchanged:
            kept = unchanged_refetch(store, args.url, args.text, recent)
            if kept is not None:
                return kept
        fp = compute(args, config)
    return dedup_article(
        store if index is None else index, fp.url, None, config=config, order=fp.order_key, fp=fp
    )


def merge_evidence(
    evidence: list[dict[str, Any]], entry: Mapping[str, Any], config: DedupConfig
) -> tuple[str, list[dict[str, Any]]]:
    """A stored copy's label and evidence once an article that precedes it is known (``entry``)."""
    merged = [e for e in evidence if e.get("url") != entry["url"]]
    merged.append({k: v for k, v in entry.items() if k != "of"})
    merged.sort(key=lambda e: -float(e["score"]))
    return label_for(float(merged[0]["score"]), config), merged[:MAX_EVIDENCE]


class Labeller:
    """Labels articles in arrival order and relabels the copies an earlier-published arrival precedes.

    Why one class for ingest, catch-up and rebuild: the labels must not depend on who gives them. The
    rebuild replays the stored articles in fetch order through the same steps the crawl took, so
    both see the same index at every step and give the same labels; either way the earliest
    published copy ends ``unique`` and its copies point at it. A relabel of a copy the store stage
    has not written yet waits in ``pending`` and is written once the row exists
    (:meth:`flush_pending`).
    """

    def __init__(
        self,
        store: ArticleStore,
        config: DedupConfig,
        publications: PublicationRegistry | None = None,
        recent_size: int = RECENT_LABELS,
        index: DedupIndex | None = None,
    ) -> None:
        self.store = store
        self.index = index  # None: the store's own
        self.config = config
        self.publications = publications if publications is not None else PublicationRegistry()
        self.recent_size = recent_size
        self.recent: OrderedDict[str, Remembered] = OrderedDict()
        self.pending: dict[str, dict[str, Any]] = {}
        self.relabelled = 0
        self.moves: list[tuple[str, str]] = []  # (old label, new label) of each relabel, for the counters

    def label(
        self, record: Any, *, keep_unchanged: bool = False, flush: bool = True, fp: Fingerprint | None = None
    ) -> DedupResult | None:
        """Label one article (item or record), add it to the index and relabel the copies it precedes.

        ``flush``: write the relabels now (ingest); the rebuild takes them from ``pending`` with its
        own batch of writes instead. ``fp``: the article's fingerprint, computed ahead."""
        result = dedup_record(
            self.store,
            record,
            self.config,
            keep_unchanged=keep_unchanged,
            recent=self.recent,
            publications=self.publications,
            index=self.index,
            fp=fp,
        )
        if result is None:
            return None
        url = record["url"] if isinstance(record, dict) else ItemAdapter(record)["url"]
        self._remember(url, (result.fingerprint.text_hash, result.label, result.evidence))
        for entry in result.later:
            self._relabel(entry)
        if flush:
            self.flush_pending()
        return result

    def _remember(self, url: str, value: Remembered) -> None:
        self.recent[url] = value
        self.recent.move_to_end(url)
        while len(self.recent) > self.recent_size:
            self.recent.popitem(last=False)

    def _current(self, url: str) -> Remembered | None:
        if url in self.recent:
            return self.recent[url]
        stored = self.store.dedup_labels([url]).get(url)
        if not stored or not stored.get("dedup_label"):
            return None  # unlabelled: the catch-up labels it against the index, this article included
        return stored.get("text_hash"), stored["dedup_label"], list(stored.get("dedup_evidence") or [])

    def _relabel(self, entry: Mapping[str, Any]) -> None:
        target = str(entry["of"])
        current = self._current(target)
        if current is None:
            return
        label, evidence = merge_evidence(current[2], entry, self.config)
        if label != current[1]:
            self.moves.append((current[1], label))
        self._remember(target, (current[0], label, evidence))
        self.pending[target] = {"dedup_label": label, "dedup_evidence": evidence}
        self.relabelled += 1

    def flush_pending(self) -> int:
        """Write the relabels whose rows are stored; the rest wait (the store stage writes in batches).

        A store error leaves them pending: they are tried again with the next article or at close.
        """
        if not self.pending:
            return 0
        written = 0
        try:
            for url in self.store.has_urls(list(self.pending)):
                if self.store.update_fields(url, self.pending[url]):
                    written += 1
                self.pending.pop(url, None)
        except StorageError:
            pass
        return written


def rebuild_index(
    store: ArticleStore,
    config: DedupConfig,
    progress: bool = True,
    batch_size: int = 500,
    in_memory: bool = True,
    memory_mb: float | None = None,
    workers: int = 0,
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
    asks only about what it added, so the questions are answered from dicts and the store gets the
    whole index in one bulk load at the end (article by article it was most of the time on SQLite
    and hundreds of round trips an article on MongoDB). Memory grows with the index (about 6 KB an
    article of 50 sentences): past ``memory_mb`` the index is written to the store (the same bulk load)
    and the store answers from there on, as at ingest, so a large corpus is rebuilt in bounded memory
    with the same labels. No list of all articles is kept.
    ``workers``: processes that fingerprint the next batch while this one is labelled
    (:mod:`sacorpus.text.dedup_ahead`; 0: each article is fingerprinted as it is labelled).
    """
    store.dedup_clear()
    labels: Counter[str] = Counter()
    rule = LookupRule(store.dedup_lookup_limit, store.dedup_lookup_sorted)
    index = MemoryDedupIndex(store.dedup_max_ids, rule) if in_memory else None  # False: the store's
    labeller = Labeller(store, config, index=index)
    size = max(1, min(batch_size, labeller.recent_size))  # a relabel within the batch finds its target
    records = store.iter_articles(fields=_FIELDS, batch_size=size)
    bar = tqdm(total=store.count(), unit="article", desc="dedup --rebuild", disable=not progress)
    with bar, store.relabelling(), FingerprintsAhead(config, workers) as ahead:
        # the count moves of every relabel are settled once at the end (relabelling)

        def next_chunk() -> tuple[list[dict[str, Any]], Ahead | None]:
            chunk = list(islice(records, size))
            if not ahead.active:
                return chunk, None
            return chunk, ahead.submit([fingerprint_args(r, labeller.publications) for r in chunk])

        chunk, fingerprints = next_chunk()
        while chunk:
            following = next_chunk()  # fingerprinted by the workers while this chunk is labelled
            with store.batched():  # one commit per chunk (SQLite)
                fps: list[Fingerprint | None] = [None] * len(chunk)
                if fingerprints is not None:
                    fps = fingerprints.result()
                _label_chunk(store, labeller, chunk, fps, labels)
            bar.update(len(chunk))
            if index is not None and memory_mb is not None and index.approx_bytes() > memory_mb * 2**20:
                logger.info(
                    "dedup --rebuild: the index of %d articles passed %g MB in memory; written to the "
                    "store, which answers from here on (SACORPUS_DEDUP_REBUILD_MEMORY_MB)",
                    len(index),
                    memory_mb,
                )
                store.dedup_bulk_load(index.records())
                index = labeller.index = None
            chunk, fingerprints = following
        if index is not None:
            store.dedup_bulk_load(index.records())
    return _final_counts(store, labels, labeller.relabelled)


def rebuild_options(settings: Any) -> dict[str, Any]:
    """:func:`rebuild_index`'s ``memory_mb`` and ``workers`` from a command's settings (defaults in
    sacorpus/settings.py; ``SACORPUS_DEDUP_REBUILD_WORKERS`` unset: one worker where there are two cores)."""
    memory = settings.get("SACORPUS_DEDUP_REBUILD_MEMORY_MB", defaults.SACORPUS_DEDUP_REBUILD_MEMORY_MB)
    workers = settings.get("SACORPUS_DEDUP_REBUILD_WORKERS", defaults.SACORPUS_DEDUP_REBUILD_WORKERS)
    return {
        "memory_mb": None if memory in (None, "") else float(memory),
        "workers": default_workers() if workers in (None, "") else int(workers),
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
        given[record["url"]] = _label_fields(result)
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


def _label_fields(result: DedupResult | None) -> dict[str, Any]:
    if result is None:
        return {"dedup_label": None, "dedup_evidence": [], "text_hash": None}
    return {
        "dedup_label": result.label,
        "dedup_evidence": result.evidence,
        "text_hash": result.fingerprint.text_hash,
    }


def _final_counts(store: ArticleStore, labels: Counter[str], relabelled: int) -> Counter[str]:
    """The labels as they stand after the relabels (counted while labelling, a copy relabelled later
    would be counted under its first label)."""
    if not relabelled:
        return labels
    return Counter(r.get("dedup_label") or "no_text" for r in store.iter_articles(fields=["dedup_label"]))


def label_counts(store: ArticleStore) -> Counter[str]:
    return Counter(r.get("dedup_label") or "none" for r in store.iter_articles(fields=["dedup_label"]))


def label_unlabelled(
    store: ArticleStore, config: DedupConfig, publications: PublicationRegistry | None = None
) -> Counter[str]:
    """Label and fingerprint every stored article that has text but no label, in fetched order.

    Rows written while the index could not be reached, or re-imported from a spill file without a
    label, would otherwise never be compared with anything: their duplicates would stay undetected.
    Copies they precede are relabelled as at ingest.
    """
    labels: Counter[str] = Counter()
    labeller = Labeller(store, config, publications)
    for url in store.unlabelled_urls():
        record = store.get(url)
        result = labeller.label(record, keep_unchanged=True) if record else None
        if result is None:
            continue
        store.update_fields(url, _label_fields(result))
        labels[result.label] += 1
    return labels


__all__ = [
    "RECENT_LABELS",
    "Labeller",
    "dedup_record",
    "fingerprint_args",
    "label_counts",
    "label_unlabelled",
    "merge_evidence",
    "rebuild_index",
    "rebuild_options",
    "unchanged_refetch",
]
