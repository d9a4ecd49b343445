"""The dedup index of ``scrapy dedup --rebuild`` in memory: the same answers as the store's, no round trips.

Why: a rebuild starts from an empty index and is its only writer, so every question it asks of the
index is about fingerprints it added itself. Asked of the store, each article cost a dozen queries
and a read-modify-write of each of its sentence hashes (on MongoDB a server round trip apiece: over
400 s for 1,000 articles). Here the postings and fingerprints are kept as the rebuild adds them; the
store gets the whole index at the end in one bulk load (``DedupIndex.dedup_bulk_load``), which writes
what the article-by-article adds would have written.

The answers are the store's to the letter, so the labels and evidence are the same: a posting counts
each (hash, url) once and keeps at most ``max_ids`` urls in the order they were added; the exact-key
lookup gives at most ``lookup_limit`` urls, sorted (SQLite's ``ORDER BY url``) or in the order added
(MongoDB's natural order) as the backend does (its ``dedup_lookup_rule``).

Why not a dict entry per sentence hash: a real article adds some fifty postings and sentence rows,
and as Python dicts and lists they took about 5 KB an article, so a rebuild of 100,000 articles went
past its memory budget a quarter of the way in and asked the store from there on. Most sentence
hashes of a real corpus belong to one article only; those are kept as (hash, article number) pairs in
sorted arrays (12 bytes, found by binary search; the last ones added wait in a small dict and are
merged in when it grows). A hash that a second article brings is a shared one, the evidence dedup
looks for: it moves to a dict of its urls, answered as fast as before. An article's sentence rows
are a slice of one array.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from heapq import nsmallest
from typing import Any

import numpy as np

#: the exact-key fields of a fingerprint and the evidence kind each gives, in the store's order
_KEYS = (("exact-text", "text_hash"), ("canonical", "canonical_key"), ("slug", "slug_key"))
#: a fingerprint record's fields besides its sentences (kept as a tuple when it has exactly these)
_FIELDS = ("url", "text_hash", "canonical_key", "slug_key", "order_key")
_ORDER = _FIELDS.index("order_key")
#: the recent single hashes are merged into the sorted arrays past this many, or an eighth of those
_MERGE_AT = 1 << 12


@dataclass(frozen=True)
class LookupRule:
    """How a backend answers ``dedup_lookup``: at most ``limit`` urls a key, ``sorted`` by url or in
    the order they were added."""

    limit: int = 20
    sorted: bool = True


class MemoryDedupIndex:
    """The ``DedupIndex`` questions dedup asks (candidates, counts, fingerprints, lookups, adds).

    Articles are numbered in the order they were added. Postings: a hash of one article is a pair
    in ``_single_hashes``/``_single_articles`` (sorted by hash) or, since the last merge, in
    ``_recent``; a hash of two or more is ``_shared`` (count, then its first ``max_ids`` urls in the
    order added), which is asked first, so its stale pair in the arrays is never read. Sentence rows:
    one ``int64`` array of (hash, chars, SimHash) rows, an article's from ``_starts[i]`` to
    ``_starts[i + 1]``.
    """

    def __init__(self, max_ids: int, rule: LookupRule | None = None, merge_at: int = _MERGE_AT) -> None:
        self.max_ids = max_ids
        self.rule = rule or LookupRule()
        self.merge_at = merge_at
        self._urls: list[str] = []
        self._numbers: dict[str, int] = {}
        self._records: list[tuple[Any, ...] | dict[str, Any]] = []
        self._rows = np.empty((0, 3), np.int64)
        self._starts = array("q", [0])
        self._shared: dict[int, list[Any]] = {}  # hash of two articles or more -> [count, url, url, ...]
        self._single_hashes = np.empty(0, np.int64)  # hashes of one article, sorted (stale once shared)
        self._single_articles = np.empty(0, np.int32)
        self._recent: dict[int, int] = {}  # hash of one article -> its number, not merged yet
        self._shared_urls = 0
        self._keys: tuple[dict[str, Any], ...] = ({}, {}, {})  # per exact key: value -> url or [urls]

    def approx_bytes(self) -> int:
        """About what the index holds in memory: the arrays as allocated, a shared or recent hash's
        entry about 120 bytes (its urls 8 each), an article about 400 (its url, number, record and
        exact keys) and 8 for where its rows start (tracemalloc on real texts: within 15%)."""
        arrays = self._rows.nbytes + self._single_hashes.nbytes + self._single_articles.nbytes
        entries = 120 * (len(self._shared) + len(self._recent)) + 8 * self._shared_urls
        return arrays + entries + 408 * len(self._urls)

    def __len__(self) -> int:
        return len(self._urls)

    def _postings(self, hashes: Iterable[int]) -> dict[int, list[Any]]:
        """[count, url, ...] of each known hash asked, in the order asked (as the store answers)."""
        out: dict[int, Any] = {}
        shared, recent, urls = self._shared, self._recent, self._urls
        older = []
        for h in map(int, hashes):
            entry = shared.get(h)
            if entry is not None:
                out[h] = entry
            elif (number := recent.get(h)) is not None:
                out[h] = [1, urls[number]]
            else:
                out[h] = None  # its place, filled or dropped below
                older.append(h)
        for h, number in zip(older, self._singles(older), strict=True):
            if number < 0:
                out.pop(h, None)
            else:
                out[h] = [1, urls[number]]
        return out

    def _singles(self, hashes: list[int]) -> list[int]:
        """The article number of each hash among the merged single ones, or -1."""
        if not hashes or not len(self._single_hashes):
            return [-1] * len(hashes)
        keys = np.array(hashes, np.int64)
        at = np.minimum(np.searchsorted(self._single_hashes, keys), len(self._single_hashes) - 1)
        hit = self._single_hashes[at] == keys
        numbers: list[int] = np.where(hit, self._single_articles[at], -1).tolist()
        return numbers

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        return {h: (entry[0], entry[1:]) for h, entry in self._postings(hashes).items()}

    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]:
        return {h: entry[0] for h, entry in self._postings(hashes).items()}

    def _record(self, number: int) -> dict[str, Any]:
        kept = self._records[number]
        return dict(zip(_FIELDS, kept, strict=True)) if isinstance(kept, tuple) else dict(kept)

    def _sentences(self, number: int) -> list[list[int]]:
        rows: list[list[int]] = self._rows[self._starts[number] : self._starts[number + 1]].tolist()
        return rows

    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for url in urls:
            number = self._numbers.get(url)
            if number is not None:
                out[url] = {**self._record(number), "sentences": self._sentences(number)}
        return out

    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]:
        """Only the order keys (the sentences of a copy found by exact evidence are not needed)."""
        numbers, records = self._numbers, self._records
        out: dict[str, str | None] = {}
        for url in urls:
            number = numbers.get(url)
            if number is not None:
                kept = records[number]
                out[url] = kept[_ORDER] if isinstance(kept, tuple) else kept.get("order_key")
        return out

    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]:
        hits: list[dict[str, str]] = []
        for (kind, _field), keyed, value in zip(
            _KEYS, self._keys, (text_hash, canonical_key, slug_key), strict=True
        ):
            found = keyed.get(value) if value is not None else None
            if found is None:
                continue
            others = (u for u in (found if isinstance(found, list) else (found,)) if u != url)
            if self.rule.sorted:
                chosen = nsmallest(self.rule.limit, others)
            else:
                chosen = [u for _, u in zip(range(self.rule.limit), others, strict=False)]
            hits.extend({"url": u, "kind": kind} for u in chosen)
        return hits

    def dedup_add(self, fingerprint: Mapping[str, Any]) -> None:
        """Add a fingerprint of a url not yet in the index (a rebuild adds each article once)."""
        url = fingerprint["url"]
        if url in self._numbers:
            raise ValueError(f"{url!r} is in the rebuild's index already")
        number = len(self._urls)
        entries = fingerprint.get("sentences") or []
        self._add_rows(np.array(entries, dtype=np.int64).reshape(-1, 3) if entries else None)
        record = {k: v for k, v in fingerprint.items() if k != "sentences"}
        self._records.append(tuple(record.values()) if tuple(record) == _FIELDS else record)
        self._urls.append(url)
        self._numbers[url] = number
        for (_kind, field), keyed in zip(_KEYS, self._keys, strict=True):
            value = fingerprint.get(field)
            if value is not None:
                found = keyed.get(value)
                if found is None:
                    keyed[value] = url
                elif isinstance(found, list):
                    found.append(url)
                else:
                    keyed[value] = [found, url]
        self._add_postings(url, number, [int(entry[0]) for entry in entries])

    def _add_postings(self, url: str, number: int, hashes: list[int]) -> None:
        """Count the article once under each of its hashes; a hash it shares becomes a shared one."""
        shared, recent = self._shared, self._recent
        older = []
        for h in dict.fromkeys(hashes):
            entry = shared.get(h)
            if entry is not None:
                self._count(entry, url)
            elif (first := recent.pop(h, None)) is not None:
                self._share(h, first, url)
            else:
                older.append(h)
        for h, first in zip(older, self._singles(older), strict=True):
            if first < 0:
                recent[h] = number
            else:
                self._share(h, first, url)  # its pair in the arrays is stale from now on
        if len(recent) >= max(self.merge_at, len(self._single_hashes) // 8):
            self._merge()

    def _count(self, entry: list[Any], url: str) -> None:
        """One more article under a shared posting; its url kept while it holds fewer than ``max_ids``."""
        entry[0] += 1
        if len(entry) <= self.max_ids:
            entry.append(url)
            self._shared_urls += 1

    def _share(self, h: int, first: int, url: str) -> None:
        """A single hash's second article: the posting of its first, as a shared one, counts it."""
        entry = [1, self._urls[first]]
        self._shared[h] = entry
        self._shared_urls += 1
        self._count(entry, url)

    def _add_rows(self, rows: np.ndarray | None) -> None:
        start = self._starts[-1]
        n = 0 if rows is None else len(rows)
        if start + n > len(self._rows):
            grown = np.empty((max(len(self._rows) * 5 // 4, start + n, 1024), 3), np.int64)
            grown[:start] = self._rows[:start]
            self._rows = grown
        if rows is not None:
            self._rows[start : start + n] = rows
        self._starts.append(start + n)

    def _merge(self) -> None:
        """The recent single hashes into the sorted arrays (none of them is there already)."""
        hashes = np.fromiter(self._recent, np.int64, count=len(self._recent))
        numbers = np.fromiter(self._recent.values(), np.int32, count=len(self._recent))
        order = np.argsort(hashes)
        at = np.searchsorted(self._single_hashes, hashes[order])
        self._single_hashes = np.insert(self._single_hashes, at, hashes[order])
        self._single_articles = np.insert(self._single_articles, at, numbers[order])
        self._recent = {}

    def records(self) -> Iterator[dict[str, Any]]:
        """Every fingerprint as ``Fingerprint.to_record()`` gave it, in the order they were added."""
        for number in range(len(self._urls)):
            yield {**self._record(number), "sentences": self._sentences(number)}


__all__ = ["LookupRule", "MemoryDedupIndex"]
