"""Near-duplicate detection by sentence hashes: the pure part (no storage, no Scrapy).

Why sentence hashes: news groups syndicate one story across titles and re-publish it with a new lead,
a changed id or boilerplate appended. Whole-text hashes miss all of that; pairwise comparison and
TF-IDF matrices do not scale. A sentence-hash index does: a new article is compared only with the
articles that share at least one of its (long enough, rare enough) sentences, so the work per article
depends on how many near-copies it has, not on how many articles are stored.

Why an order rule: the copy that keeps ``unique`` must be the original, the earliest published, not
the first one the crawler happened to fetch (a feed lists the syndicated copy first, a sitemap the
original last). :func:`dedup_article` therefore labels an article only against the copies that
precede it in :func:`order_key` order and reports the copies it precedes, which the caller relabels
(``sacorpus.text.dedup_labels``).

This module joins the hashing (``dedup_hashing``) and scoring (``dedup_scoring``) parts against the
index kept in the store (``sacorpus.storage``); its names are re-exported here for callers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from sacorpus.sources.dates import stored_utc
from sacorpus.text.dedup_hashing import (
    canonical_key,
    hash64,
    normalize_text,
    sentence_features,
    sentence_hashes,
    simhash64,
    slug_key,
    split_sentences,
    text_features,
    text_hash,
)
from sacorpus.text.dedup_scoring import (
    DUPLICATE,
    FUZZY_CREDIT,
    MAX_CANDIDATES,
    SIMILAR,
    UNIQUE,
    DedupConfig,
    Fingerprint,
    candidate_urls,
    label_for,
    score_candidates,
    similarity,
)

#: at most this many pieces of evidence are kept per article
MAX_EVIDENCE = 20


@dataclass
class DedupResult:
    """The label of an article, the evidence for it (copies that precede it, best first), and the
    copies it precedes (``later``: one evidence entry naming this article for each, to relabel them)."""

    label: str
    evidence: list[dict[str, Any]]
    fingerprint: Fingerprint
    later: list[dict[str, Any]] = field(default_factory=list)


def order_key(published_at: str | None, fetched_at: str | None, url: str) -> str:
    """The sort key that decides which copy of a story is the original: earliest published first.

    Dates are brought to the one stored UTC form (:func:`sacorpus.sources.dates.stored_utc`: rows
    written with ``+00:00`` or another offset read the same), which sorts as text. An article without a
    date is placed at its fetch time (it was published by then); equal dates go by fetch time, then
    URL, so the order is total and the same in every run and in ``scrapy dedup --rebuild``.
    """
    fetched = stored_utc(str(fetched_at or "").strip()) or ""
    published = stored_utc(str(published_at or "").strip()) or fetched
    return f"{published}\t{fetched}\t{url}"


def precedes(other: str | None, mine: str | None) -> bool:
    """Whether a copy with order key ``other`` came before one with ``mine``.

    A missing key (an index entry written before keys existed, or a caller that gives none) keeps
    arrival order: the copy already in the index came first. A key stored with ``+00:00`` or other
    offset dates is read in the one form first.
    """
    return not other or not mine or _comparable(other) < _comparable(mine)


@lru_cache(maxsize=65536)  # the keys of a story's copies are compared again with each new copy
def _comparable(key: str) -> str:
    """An order key with its two dates in the one stored form (keys are ``published\tfetched\turl``)."""
    parts = key.split("\t", 2)
    if len(parts) < 3 or all(stored_utc(p) == p for p in parts[:2]):
        return key
    return f"{stored_utc(parts[0])}\t{stored_utc(parts[1])}\t{parts[2]}"


def fingerprint(
    url: str,
    text: str | None,
    *,
    canonical_url: str | None = None,
    sentences: Sequence[Sequence[int]] | None = None,
    config: DedupConfig | None = None,
    slug: str | bool | None = True,
    order: str | None = None,
) -> Fingerprint:
    """``slug``: True for the generic slug key of the URL, or the key a publication's ``id_pattern``
    gives (None: the URL has no id, so no slug evidence). ``order``: the article's :func:`order_key`."""
    config = config or DedupConfig()
    digest, features = text_features(
        text, sentences, config.min_sentence_chars, simhash=config.fuzzy_bits > 0
    )
    canon = canonical_key(canonical_url)
    if canon is not None and canon.endswith("/") and "?" not in canon and canon.count("/") == 1:
        canon = None  # a canonical pointing at a home page (a site bug) would make every article one
    return Fingerprint(
        url=url,
        text_hash=digest,
        canonical_key=canon or canonical_key(url),
        slug_key=slug_key(url) if slug is True else (slug or None),
        sentences={h: n for h, (n, _s) in features.items()},
        simhashes={h: s for h, (_n, s) in features.items() if s},
        order_key=order,
    )


class DedupIndex(Protocol):
    """The store operations dedup needs (both store backends implement them)."""

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]: ...

    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]: ...

    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]: ...

    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]: ...

    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]: ...

    def dedup_add(self, fingerprint: dict[str, Any]) -> None: ...


def _exact_evidence(index: DedupIndex, fp: Fingerprint) -> list[dict[str, Any]]:
    """Same normalised text, same canonical URL, same slug with a changed id: each scores 1.0."""
    evidence: list[dict[str, Any]] = []
    seen: set[str] = set()
    for hit in index.dedup_lookup(
        text_hash=fp.text_hash, canonical_key=fp.canonical_key, slug_key=fp.slug_key, url=fp.url
    ):
        if hit["url"] != fp.url and hit["url"] not in seen:
            seen.add(hit["url"])
            evidence.append(
                {"url": hit["url"], "score": 1.0, "shared": len(fp.sentences), "kind": hit["kind"]}
            )
    return evidence


def _sentence_evidence(
    index: DedupIndex, fp: Fingerprint, config: DedupConfig
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Scored candidates sharing sentences, and the fingerprints fetched for them."""
    if not fp.sentences:
        return [], {}
    postings = index.dedup_candidates(fp.sentences.keys())
    urls = candidate_urls(fp, postings, config)
    if not urls:
        return [], {}
    fps = index.dedup_fingerprints(urls)
    theirs = {int(e[0]) for rec in fps.values() for e in rec.get("sentences") or []} - fp.sentences.keys()
    other_counts = index.dedup_counts(theirs) if theirs else {}
    return score_candidates(fp, postings, fps, config, other_counts), fps


def dedup_article(
    index: DedupIndex,
    url: str,
    text: str | None,
    *,
    canonical_url: str | None = None,
    sentences: Sequence[Sequence[int]] | None = None,
    config: DedupConfig | None = None,
    add: bool = True,
    slug: str | bool | None = True,
    order: str | None = None,
    fp: Fingerprint | None = None,
) -> DedupResult:
    """Label one article against the copies that precede it, then (``add``) add it to the index.

    Exact evidence first, then sentence evidence; the label is the best preceding score's. Copies in
    the index that this article precedes (``order``: its :func:`order_key`) are returned in ``later``
    for the caller to relabel; without ``order`` every indexed copy precedes it (arrival order).
    Nothing is ever deleted. ``fp``: the fingerprint of these same arguments, computed ahead (the
    rebuild computes them in worker processes, :mod:`sacorpus.text.dedup_ahead`).
    """
    config = config or DedupConfig()
    if fp is None:
        fp = fingerprint(
            url, text, canonical_url=canonical_url, sentences=sentences, config=config, slug=slug, order=order
        )
    evidence = _exact_evidence(index, fp)
    scored, fps = _sentence_evidence(index, fp, config)
    exact = {e["url"] for e in evidence}
    evidence.extend(e for e in scored if e["url"] not in exact)
    evidence.sort(key=lambda e: -e["score"])
    earlier, later = evidence, []
    if order is not None and evidence:
        missing = [e["url"] for e in evidence if e["url"] not in fps]
        keys = {u: r.get("order_key") for u, r in fps.items()}
        if missing:
            keys.update(index.dedup_order_keys(missing))
        earlier = [e for e in evidence if precedes(keys.get(e["url"]), order)]
        later = [
            {**e, "url": url, "of": e["url"]} for e in evidence if not precedes(keys.get(e["url"]), order)
        ]
    label = label_for(earlier[0]["score"], config) if earlier else UNIQUE
    if add:
        index.dedup_add(fp.to_record())
    return DedupResult(label=label, evidence=earlier[:MAX_EVIDENCE], fingerprint=fp, later=later)


__all__ = [
    "DUPLICATE",
    "FUZZY_CREDIT",
    "MAX_CANDIDATES",
    "MAX_EVIDENCE",
    "SIMILAR",
    "UNIQUE",
    "DedupConfig",
    "DedupIndex",
    "DedupResult",
    "Fingerprint",
    "candidate_urls",
    "canonical_key",
    "dedup_article",
    "fingerprint",
    "hash64",
    "label_for",
    "normalize_text",
    "order_key",
    "precedes",
    "score_candidates",
    "sentence_features",
    "sentence_hashes",
    "simhash64",
    "similarity",
    "slug_key",
    "split_sentences",
    "text_hash",
]
