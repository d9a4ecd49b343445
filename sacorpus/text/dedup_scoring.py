"""Near-duplicate detection, the scoring part: the method's settings, fingerprints, similarity, labels.

Why its own module: scoring two fingerprints is pure arithmetic over sentence hashes; the store
round trips and the order rule (which copy is the original) live in ``sacorpus.text.dedup``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sacorpus import settings as defaults

DUPLICATE = "duplicate"
SIMILAR = "similar"
UNIQUE = "unique"

#: at most this many candidate articles are scored per article (those sharing the most sentences);
#: bounds the time per article when a story was syndicated hundreds of times.
MAX_CANDIDATES: int = defaults.SACORPUS_DEDUP_MAX_CANDIDATES

#: the share of a reworded sentence (SimHash match) counted as shared
FUZZY_CREDIT = 0.5


@dataclass(frozen=True)
class DedupConfig:
    """The settings of the method (SACORPUS_DEDUP_* in a crawl)."""

    min_sentence_chars: int = defaults.SACORPUS_DEDUP_MIN_SENTENCE_CHARS  # shorter ones are ignored
    max_articles_per_sentence: int = defaults.SACORPUS_DEDUP_MAX_ARTICLES_PER_SENTENCE  # more: boilerplate
    duplicate: float = defaults.SACORPUS_DEDUP_DUPLICATE  # similarity at or above: "duplicate"
    similar: float = defaults.SACORPUS_DEDUP_SIMILAR  # similarity at or above: "similar"
    weight_rare: bool = defaults.SACORPUS_DEDUP_WEIGHT_RARE  # weight a shared sentence by its rarity
    weight_long: bool = defaults.SACORPUS_DEDUP_WEIGHT_LONG  # weight a sentence by its length
    # a sentence whose word SimHash is within this many bits of an unmatched sentence of the other
    # article counts as shared (a reworded sentence: a changed number or word); 0 disables
    fuzzy_bits: int = defaults.SACORPUS_DEDUP_FUZZY_BITS
    max_candidates: int = MAX_CANDIDATES

    @classmethod
    def from_settings(cls, settings: Any) -> DedupConfig:
        """The settings of a crawl; a setting left out keeps the default declared in sacorpus/settings.py."""
        base = cls()

        def get(name: str, default: Any) -> Any:
            value = settings.get(name, default) if hasattr(settings, "get") else default
            return default if value is None else value

        return cls(
            min_sentence_chars=int(get("SACORPUS_DEDUP_MIN_SENTENCE_CHARS", base.min_sentence_chars)),
            max_articles_per_sentence=int(
                get("SACORPUS_DEDUP_MAX_ARTICLES_PER_SENTENCE", base.max_articles_per_sentence)
            ),
            duplicate=float(get("SACORPUS_DEDUP_DUPLICATE", base.duplicate)),
            similar=float(get("SACORPUS_DEDUP_SIMILAR", base.similar)),
            weight_rare=_as_bool(get("SACORPUS_DEDUP_WEIGHT_RARE", base.weight_rare)),
            weight_long=_as_bool(get("SACORPUS_DEDUP_WEIGHT_LONG", base.weight_long)),
            max_candidates=int(get("SACORPUS_DEDUP_MAX_CANDIDATES", base.max_candidates)),
            fuzzy_bits=int(get("SACORPUS_DEDUP_FUZZY_BITS", base.fuzzy_bits)),
        )


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)


@dataclass
class Fingerprint:
    """What the index keeps per article.

    ``sentences`` maps sentence hash -> normalised length; ``simhashes`` sentence hash -> word SimHash
    (for reworded sentences). As a record: ``sentences: [[hash, length, simhash], ...]``.
    ``order_key`` puts copies of a story in publication order (None: an index entry from before it).
    """

    url: str
    text_hash: str | None = None
    canonical_key: str | None = None
    slug_key: str | None = None
    sentences: dict[int, int] = field(default_factory=dict)
    simhashes: dict[int, int] = field(default_factory=dict)
    order_key: str | None = None  # which copy came first (see sacorpus.text.dedup.order_key)

    def to_record(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "text_hash": self.text_hash,
            "canonical_key": self.canonical_key,
            "slug_key": self.slug_key,
            "sentences": [[h, n, self.simhashes.get(h, 0)] for h, n in self.sentences.items()],
            "order_key": self.order_key,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Fingerprint:
        sentences: dict[int, int] = {}
        simhashes: dict[int, int] = {}
        for entry in record.get("sentences") or []:
            h = int(entry[0])
            sentences[h] = int(entry[1]) if len(entry) > 1 else 0
            if len(entry) > 2 and entry[2]:
                simhashes[h] = int(entry[2])
        return cls(
            url=record["url"],
            text_hash=record.get("text_hash"),
            canonical_key=record.get("canonical_key"),
            slug_key=record.get("slug_key"),
            sentences=sentences,
            simhashes=simhashes,
            order_key=record.get("order_key"),
        )


def _weight(length: int, count: int, config: DedupConfig) -> float:
    w = 1.0
    if config.weight_long:
        w *= math.log2(2 + length / 20)
    if config.weight_rare:
        # count includes the article being labelled: a sentence shared by just the pair weighs 1
        w *= 1.0 / math.sqrt(max(count - 1, 1))
    return w


def similarity(
    a: Mapping[int, int],
    b: Mapping[int, int],
    counts: Mapping[int, int],
    config: DedupConfig,
    sim_a: Mapping[int, int] | None = None,
    sim_b: Mapping[int, int] | None = None,
) -> tuple[float, int]:
    """(weighted shared / union, number shared) over the informative sentences of a and b.

    A sentence is informative unless its count in the index exceeds ``max_articles_per_sentence``
    (boilerplate). Sentences with no known count (only in ``b`` and never looked up) count as 1.
    With SimHashes (``sim_a``, ``sim_b``) and ``config.fuzzy_bits``, an unmatched sentence of a
    whose SimHash is within ``fuzzy_bits`` of an unmatched one of b is a reworded copy: each of the
    two counts as ``FUZZY_CREDIT`` shared.
    """
    limit = config.max_articles_per_sentence
    shared = union = 0.0
    n_shared = 0
    only_a: list[tuple[int, float]] = []
    only_b: list[tuple[int, float]] = []
    for h in a.keys() | b.keys():
        count = counts.get(h, 1)
        if count > limit:
            continue
        length = a.get(h) or b.get(h) or 0
        w = _weight(length, count, config)
        union += w
        if h in a and h in b:
            shared += w
            n_shared += 1
        elif h in a:
            only_a.append((h, w))
        else:
            only_b.append((h, w))
    if config.fuzzy_bits > 0 and sim_a and sim_b and only_a and only_b and n_shared:
        free_b = [(sim_b[h], w) for h, w in only_b[:500] if h in sim_b]
        for h, wa in only_a[:500]:
            sa = sim_a.get(h)
            if sa is None:
                continue
            for j, (sb, wb) in enumerate(free_b):
                if ((sa ^ sb) & 0xFFFFFFFFFFFFFFFF).bit_count() <= config.fuzzy_bits:
                    # a reworded pair shares half of each sentence: 10% of the sentences reworded
                    # stays a duplicate, 40% makes a "similar" article
                    shared += FUZZY_CREDIT * (wa + wb)
                    n_shared += 1
                    free_b.pop(j)
                    break
    return (shared / union if union > 0 else 0.0), n_shared


def label_for(score: float, config: DedupConfig) -> str:
    if score >= config.duplicate:
        return DUPLICATE
    if score >= config.similar:
        return SIMILAR
    return UNIQUE


def score_candidates(
    fp: Fingerprint,
    postings: Mapping[int, tuple[int, Sequence[str]]],
    fingerprints: Mapping[str, Mapping[str, Any]],
    config: DedupConfig,
    other_counts: Mapping[int, int] | None = None,
) -> list[dict[str, Any]]:
    """Sentence evidence against each candidate, best first (only scores >= ``config.similar``).

    ``other_counts``: index counts of the candidates' sentences the article lacks (so boilerplate
    only the candidate carries is ignored, not counted as a difference).
    """
    # The article itself will be added to the index: count it so the boilerplate test is the same
    # whether it runs before or after the article's own insertion.
    counts = {h: c + (0 if fp.url in ids else 1) for h, (c, ids) in postings.items()}
    if other_counts:
        for h, c in other_counts.items():
            counts.setdefault(h, c)
    evidence: list[dict[str, Any]] = []
    for url, record in fingerprints.items():
        if url == fp.url:
            continue
        other = Fingerprint.from_record(record)
        score, n_shared = similarity(
            fp.sentences, other.sentences, counts, config, fp.simhashes, other.simhashes
        )
        if n_shared and score >= config.similar:
            evidence.append({"url": url, "score": round(score, 4), "shared": n_shared, "kind": "sentences"})
    evidence.sort(key=lambda e: (-e["score"], -e["shared"], e["url"]))
    return evidence


def candidate_urls(
    fp: Fingerprint, postings: Mapping[int, tuple[int, Sequence[str]]], config: DedupConfig
) -> list[str]:
    """Articles sharing at least one informative sentence, most shared first, at most max_candidates."""
    shared: dict[str, int] = {}
    for h in fp.sentences:
        entry = postings.get(h)
        if not entry:
            continue
        count, ids = entry
        if count + (0 if fp.url in ids else 1) > config.max_articles_per_sentence:
            continue
        for url in ids:
            if url != fp.url:
                shared[url] = shared.get(url, 0) + 1
    ranked = sorted(shared, key=lambda u: (-shared[u], u))
    return ranked[: config.max_candidates]
