"""Near-duplicate labels of stored articles: ingest labelling and the full rebuild, one implementation.

Why a module of its own: the dedup stage (ingest), ``scrapy dedup --rebuild`` and ``scrapy reextract``
must give the same labels, and commands do not import pipelines. Labels come from
:func:`sacorpus.text.dedup.dedup_article` against the store's sentence-hash index.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from tqdm import tqdm

from sacorpus.publications import Publication, PublicationRegistry
from sacorpus.sources.urls import UrlPolicy
from sacorpus.storage.base import ArticleStore
from sacorpus.text.dedup import DedupConfig, DedupResult, Fingerprint, dedup_article, text_hash

_FIELDS = ("url", "publication", "text", "canonical_url", "sentences", "fetched_at")


#: Labels given in this run, for the refetch check while the store has not yet written them.
RECENT_LABELS = 2000


def unchanged_refetch(
    store: ArticleStore,
    url: str,
    text: str,
    recent: Mapping[str, tuple[str | None, str, list[Any]]] | None = None,
) -> DedupResult | None:
    """The earlier label of an article fetched again with the same text, else None.

    Labels follow arrival order: the first copy of a story is ``unique``, later copies point at it.
    Re-labelling a refetched article against an index that already holds its later copies would
    turn the original into a ``duplicate`` of its own copies, so an unchanged article keeps its label:
    from ``recent`` (labelled this run, maybe not stored yet) or from the store.
    """
    previous = store.dedup_fingerprints([url]).get(url)
    if not previous or previous.get("text_hash") != text_hash(text):
        return None
    fp = Fingerprint.from_record(previous)
    if recent is not None and url in recent and recent[url][0] == previous.get("text_hash"):
        _, label, evidence = recent[url]
        return DedupResult(label, list(evidence), fp)
    stored = store.get(url)
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


def dedup_record(
    store: ArticleStore,
    record: Any,
    config: DedupConfig,
    *,
    keep_unchanged: bool = False,
    recent: Mapping[str, tuple[str | None, str, list[Any]]] | None = None,
    publications: PublicationRegistry | None = None,
) -> DedupResult | None:
    """Label one article (an item or a stored record) and add it to the index; None without text.

    ``keep_unchanged`` (ingest): an article the index already has with the same text keeps its label.
    """
    adapter = ItemAdapter(record) if not isinstance(record, dict) else None
    get = adapter.get if adapter is not None else record.get
    text = get("text")
    if not text or not str(text).strip():
        return None
    if keep_unchanged:
        kept = unchanged_refetch(store, get("url"), str(text), recent)
        if kept is not None:
            return kept
    publication = publications.get(get("publication")) if publications is not None else None
    return dedup_article(
        store,
        get("url"),
        text,
        canonical_url=get("canonical_url"),
        sentences=get("sentences") or None,
        config=config,
        slug=publication_slug(get("url"), publication),
    )


def rebuild_index(
    store: ArticleStore, config: DedupConfig, progress: bool = True, batch_size: int = 500
) -> Counter[str]:
    """Clear the dedup index and re-label every stored article in fetched_at order.

    Returns the label counts (``no_text`` for articles without text, which keep no label).
    """
    store.dedup_clear()
    labels: Counter[str] = Counter()
    publications = PublicationRegistry()  # each article's own id_pattern gives its slug evidence
    total = store.count()
    with tqdm(total=total, unit="article", desc="dedup --rebuild", disable=not progress) as bar:
        for record in store.iter_articles(fields=_FIELDS, batch_size=batch_size):
            result = dedup_record(store, record, config, publications=publications)
            if result is None:
                labels["no_text"] += 1
                store.update_fields(
                    record["url"], {"dedup_label": None, "dedup_evidence": [], "text_hash": None}
                )
            else:
                labels[result.label] += 1
                store.update_fields(
                    record["url"],
                    {
                        "dedup_label": result.label,
                        "dedup_evidence": result.evidence,
                        "text_hash": result.fingerprint.text_hash,
                    },
                )
            bar.update(1)
    return labels


def label_counts(store: ArticleStore) -> Counter[str]:
    return Counter(r.get("dedup_label") or "none" for r in store.iter_articles(fields=["dedup_label"]))


def label_unlabelled(
    store: ArticleStore, config: DedupConfig, publications: PublicationRegistry | None = None
) -> Counter[str]:
    """Label and fingerprint every stored article that has text but no label, in fetched order.

    Rows written while the index could not be reached, or re-imported from a spill file without a
    label, would otherwise never be compared with anything: their duplicates would stay undetected.
    """
    labels: Counter[str] = Counter()
    publications = publications or PublicationRegistry()
    for url in store.unlabelled_urls():
        record = store.get(url)
        result = (
            dedup_record(store, record, config, keep_unchanged=True, publications=publications)
            if record
            else None
        )
        if result is None:
            continue
        store.update_fields(
            url,
            {
                "dedup_label": result.label,
                "dedup_evidence": result.evidence,
                "text_hash": result.fingerprint.text_hash,
            },
        )
        labels[result.label] += 1
    return labels


__all__ = [
    "RECENT_LABELS",
    "dedup_record",
    "label_counts",
    "label_unlabelled",
    "rebuild_index",
    "unchanged_refetch",
]
