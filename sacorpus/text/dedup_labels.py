"""Near-duplicate labels of stored articles: the labelling that ingest and the full rebuild share.

Why a module of its own: the dedup stage (ingest), ``scrapy dedup --rebuild`` and ``scrapy reextract``
must give the same labels, and commands do not import pipelines. Labels come from
:func:`sacorpus.text.dedup.dedup_article` against the store's sentence-hash index; the rebuild's
own loop is in :mod:`sacorpus.text.dedup_rebuild`.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from itemadapter import ItemAdapter

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
from sacorpus.text.dedup_ahead import FingerprintArgs, compute

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


def label_fields(result: DedupResult | None) -> dict[str, Any]:
    if result is None:
        return {"dedup_label": None, "dedup_evidence": [], "text_hash": None}
    return {
        "dedup_label": result.label,
        "dedup_evidence": result.evidence,
        "text_hash": result.fingerprint.text_hash,
    }


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
        store.update_fields(url, label_fields(result))
        labels[result.label] += 1
    return labels


__all__ = [
    "RECENT_LABELS",
    "Labeller",
    "dedup_record",
    "fingerprint_args",
    "label_counts",
    "label_fields",
    "label_unlabelled",
    "merge_evidence",
    "unchanged_refetch",
]
