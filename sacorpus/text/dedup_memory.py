"""The dedup index of ``scrapy dedup --rebuild`` in memory: the same answers as the store's, no round trips.

Why: a rebuild starts from an empty index and is its only writer, so every question it asks of the
index is about fingerprints it added itself. Asked of the store, each article cost a dozen queries
and a read-modify-write of each of its sentence hashes (on MongoDB a server round trip apiece: over
400 s for 1,000 articles). Here the postings and fingerprints are dicts filled as the rebuild adds
them; the store gets the whole index at the end in one bulk load (``DedupIndex.dedup_bulk_load``),
which writes what the article-by-article adds would have written.

The answers are the store's to the letter, so the labels and evidence are the same: a posting counts
each (hash, url) once and keeps at most ``max_ids`` urls in the order they were added; the exact-key
lookup gives at most ``lookup_limit`` urls, sorted (SQLite's ``ORDER BY url``) or in the order added
(MongoDB's natural order) as the backend does (its ``dedup_lookup_rule``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from heapq import nsmallest
from typing import Any

import numpy as np

#: the exact-key fields of a fingerprint and the evidence kind each gives, in the store's order
_KEYS = (("exact-text", "text_hash"), ("canonical", "canonical_key"), ("slug", "slug_key"))


@dataclass(frozen=True)
class LookupRule:
    """How a backend answers ``dedup_lookup``: at most ``limit`` urls a key, ``sorted`` by url or in
    the order they were added."""

    limit: int = 20
    sorted: bool = True


class MemoryDedupIndex:
    """The ``DedupIndex`` questions dedup asks (candidates, counts, fingerprints, lookups, adds).

    A fingerprint's sentence list is kept as one ``int64`` array (24 bytes a sentence rather than
    about 130 as lists of Python ints) and made lists again when it is read.
    """

    def __init__(self, max_ids: int, rule: LookupRule | None = None) -> None:
        self.max_ids = max_ids
        self.rule = rule or LookupRule()
        self._postings: dict[int, list[Any]] = {}  # hash -> [count, url, url, ...]
        self._docs: dict[str, tuple[dict[str, Any], np.ndarray]] = {}  # url -> (record, sentences)
        self._keys: tuple[dict[str, list[str]], ...] = ({}, {}, {})  # per exact key: value -> urls
        self._rows = 0  # sentence rows held

    def approx_bytes(self) -> int:
        """About what the index holds in memory: a distinct sentence hash's posting (a dict entry and a
        list) about 120 bytes, a sentence row 24, a fingerprint's record about 600 (tracemalloc on real
        texts: within 5%)."""
        return 120 * len(self._postings) + 24 * self._rows + 600 * len(self._docs)

    def __len__(self) -> int:
        return len(self._docs)

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        out: dict[int, tuple[int, Sequence[str]]] = {}
        for h in hashes:
            entry = self._postings.get(int(h))
            if entry is not None:
                out[int(h)] = (entry[0], entry[1:])
        return out

    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]:
        postings = self._postings
        return {int(h): postings[int(h)][0] for h in hashes if int(h) in postings}

    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for url in urls:
            found = self._docs.get(url)
            if found is not None:
                out[url] = {**found[0], "sentences": found[1].tolist()}
        return out

    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]:
        """Only the order keys (the sentences of a copy found by exact evidence are not needed)."""
        docs = self._docs
        return {url: docs[url][0].get("order_key") for url in urls if url in docs}

    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]:
        hits: list[dict[str, str]] = []
        for (kind, _field), keyed, value in zip(
            _KEYS, self._keys, (text_hash, canonical_key, slug_key), strict=True
        ):
            urls = keyed.get(value) if value is not None else None
            if not urls:
                continue
            others = (u for u in urls if u != url)
            if self.rule.sorted:
                chosen = nsmallest(self.rule.limit, others)
            else:
                chosen = [u for _, u in zip(range(self.rule.limit), others, strict=False)]
            hits.extend({"url": u, "kind": kind} for u in chosen)
        return hits

    def dedup_add(self, fingerprint: Mapping[str, Any]) -> None:
        """Add a fingerprint of a url not yet in the index (a rebuild adds each article once)."""
        url = fingerprint["url"]
        if url in self._docs:
            raise ValueError(f"{url!r} is in the rebuild's index already")
        entries = fingerprint.get("sentences") or []
        sentences = (
            np.array(entries, dtype=np.int64).reshape(-1, 3) if entries else np.empty((0, 3), np.int64)
        )
        record = {k: v for k, v in fingerprint.items() if k != "sentences"}
        self._docs[url] = (record, sentences)
        self._rows += len(sentences)
        for (_kind, field), keyed in zip(_KEYS, self._keys, strict=True):
            value = fingerprint.get(field)
            if value is not None:
                keyed.setdefault(value, []).append(url)
        postings, max_ids = self._postings, self.max_ids
        for h in dict.fromkeys(int(entry[0]) for entry in entries):
            entry = postings.get(h)
            if entry is None:
                postings[h] = [1, url]
            else:
                entry[0] += 1
                if len(entry) <= max_ids:
                    entry.append(url)

    def records(self) -> Iterator[dict[str, Any]]:
        """Every fingerprint as ``Fingerprint.to_record()`` gave it, in the order they were added."""
        for record, sentences in self._docs.values():
            yield {**record, "sentences": sentences.tolist()}


__all__ = ["LookupRule", "MemoryDedupIndex"]
