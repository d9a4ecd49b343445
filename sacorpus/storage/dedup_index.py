"""The store's near-duplicate sentence-hash index: what every backend answers for sacorpus.text.dedup.

Why its own part of the storage protocol: ingest asks it for every article (candidates, counts,
fingerprints, exact-key lookups) and ``scrapy dedup --rebuild`` clears and bulk-loads it; both backends
pass the same contract tests, and the rebuild's in-memory index (sacorpus.text.dedup_memory) answers
the same questions the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from sacorpus import settings as defaults

#: the sentence-hash index keeps at most this many article ids per hash (its count keeps growing);
#: a hash in more articles than SACORPUS_DEDUP_MAX_ARTICLES_PER_SENTENCE is boilerplate anyway.
DEFAULT_DEDUP_MAX_IDS: int = defaults.SACORPUS_DEDUP_MAX_IDS


class DedupIndex(ABC):
    """The near-duplicate sentence-hash index (see sacorpus.text.dedup)."""

    dedup_max_ids: int = DEFAULT_DEDUP_MAX_IDS
    #: :meth:`dedup_lookup`'s urls a key, sorted by url or (False) in the order added (the rebuild's
    #: index in memory answers the same)
    dedup_lookup_limit, dedup_lookup_sorted = 20, True

    @abstractmethod
    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        """For each known hash: (number of articles containing it, up to dedup_max_ids of their urls)."""

    @abstractmethod
    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]:
        """For each known hash: the number of articles containing it."""

    @abstractmethod
    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The fingerprint records (``Fingerprint.to_record()``) stored for these urls."""

    @abstractmethod
    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]:
        """The order keys stored for these urls (which copy of a story came first), without their
        sentences: a copy found by exact evidence is asked nothing else."""

    @abstractmethod
    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]:
        """Other indexed articles with the same text hash / canonical key / slug key: ``[{"url", "kind"}]``
        (kind ``exact-text`` | ``canonical`` | ``slug``), at most ``dedup_lookup_limit`` a key."""

    @abstractmethod
    def dedup_add(self, fingerprint: Mapping[str, Any]) -> None:
        """Add an article's fingerprint to the index, atomically per hash.

        Counts each (hash, url) pair once, so re-adding an article does not inflate counts, and two
        processes adding at once lose no update.
        """

    @abstractmethod
    def dedup_labels(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        """``text_hash``, ``dedup_label`` and ``dedup_evidence`` of these stored articles: a relabel
        reads these, not the whole record (bodies, HTML and tokens decoded for three fields)."""

    @abstractmethod
    def dedup_clear(self) -> None:
        """Empty the sentence-hash index (``scrapy dedup --rebuild``)."""

    #: fingerprints written per :meth:`_bulk_load_batch` call (memory vs round trips)
    dedup_bulk_batch_size: int = 2000

    def dedup_bulk_load(self, fingerprints: Iterable[Mapping[str, Any]]) -> int:
        """Add many fingerprints of NEW urls fast, without labelling (benchmarks, migrations).

        Consumes ``fingerprints`` lazily, ``dedup_bulk_batch_size`` at a time; returns how many were added.
        """
        n = 0
        rest = iter(fingerprints)
        while batch := list(islice(rest, self.dedup_bulk_batch_size)):
            n += self._bulk_load_batch(batch)
        return n

    @abstractmethod
    def _bulk_load_batch(self, batch: list[Mapping[str, Any]]) -> int:
        """Write one batch for :meth:`dedup_bulk_load`; returns how many fingerprints it added."""


__all__ = ["DEFAULT_DEDUP_MAX_IDS", "DedupIndex"]
