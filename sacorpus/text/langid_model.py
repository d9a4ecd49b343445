"""The Naive Bayes half of language identification: character n-gram hashes and the shipped model.

Why apart from :mod:`sacorpus.text.langid` (which decides between CLD2, this model and lingua): the
model is the costly part of identifying a page, so it scores all the paragraphs of a page in one
vectorised pass (:meth:`NBModel.predict_many`: one hashing pass, one table lookup, one segmented sum)
instead of a dozen small numpy calls per paragraph, with the same sums in the same order, so the
answers are exactly those of :meth:`NBModel.predict` paragraph by paragraph.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

MODEL_RESOURCE = "langid_sa_nb.npz"
UNDETERMINED = "und"
NGRAM_ORDERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: n-grams scored in one numpy pass at most (bounds the memory of a page with huge paragraphs)
BATCH_GRAMS = 200_000


def char_ngrams(normalized: str, orders: tuple[int, ...] = NGRAM_ORDERS) -> list[str]:
    """All character n-grams of the given orders (spaces included: they mark word edges)."""
    n_chars = len(normalized)
    grams: list[str] = []
    for n in orders:
        grams += [normalized[i : i + n] for i in range(n_chars - n + 1)]
    return grams


_HASH_BASE = 1_000_003
_MASK64 = (1 << 64) - 1


def gram_hash(gram: str) -> int:
    """64-bit polynomial hash of an n-gram, equal to what :func:`text_gram_hashes` computes."""
    h = 0
    for ch in gram:
        h = (h * _HASH_BASE + ord(ch)) & _MASK64
    return (h * _HASH_BASE + len(gram)) & _MASK64


def text_gram_hashes(normalized: str, orders: tuple[int, ...] = NGRAM_ORDERS) -> np.ndarray:
    """Hashes of all the character n-grams of ``normalized`` (as :func:`char_ngrams` lists them)."""
    codes = np.frombuffer(normalized.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    n_chars = len(codes)
    base = np.uint64(_HASH_BASE)
    parts = []
    for n in orders:
        count = n_chars - n + 1
        if count <= 0:
            continue
        h = np.zeros(count, dtype=np.uint64)
        for k in range(n):
            h = h * base + codes[k : k + count]
        parts.append(h * base + np.uint64(n))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


class FeatureIndex(Mapping[str, int]):
    """The model's n-grams as one newline-joined string, row ``i`` being line ``i``.

    Why not a dict: 300,000 n-gram strings and their dict entries cost about 60 MB in every crawl
    process, and scoring never looks an n-gram up by its string (it uses the hash table). The dict is
    built only when someone asks by string (training, tests); the hashes come from the joined text.
    """

    def __init__(self, joined: str) -> None:
        self.joined = joined
        self._size = joined.count("\n") + 1 if joined else 0
        self._dict: dict[str, int] | None = None

    def _lookup(self) -> dict[str, int]:
        if self._dict is None:
            self._dict = {g: i for i, g in enumerate(self.joined.split("\n"))} if self.joined else {}
        return self._dict

    def __getitem__(self, gram: str) -> int:
        return self._lookup()[gram]

    def __iter__(self) -> Iterator[str]:
        return iter(self.joined.split("\n") if self.joined else ())

    def __len__(self) -> int:
        return self._size

    def hashes(self) -> np.ndarray:
        """:func:`gram_hash` of every line, computed over the code points in a few numpy passes."""
        codes = np.frombuffer(self.joined.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        breaks = np.flatnonzero(codes == 10)
        starts = np.concatenate(([0], breaks + 1))
        lengths = np.concatenate((breaks, [len(codes)])) - starts
        base = np.uint64(_HASH_BASE)
        h = np.zeros(len(starts), dtype=np.uint64)
        for k in range(int(lengths.max()) if len(lengths) else 0):
            more = lengths > k
            h[more] = h[more] * base + codes[starts[more] + k]
        return h * base + lengths.astype(np.uint64)


def _feature_hashes(index: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """(hash, row) of every feature of ``index``."""
    if isinstance(index, FeatureIndex):
        return index.hashes(), np.arange(len(index), dtype=np.int64)
    hashes = np.fromiter((gram_hash(g) for g in index), dtype=np.uint64, count=len(index))
    return hashes, np.fromiter(index.values(), dtype=np.int64, count=len(index))


@dataclass(frozen=True)
class NBModel:
    """A multinomial Naive Bayes over character n-grams: log P(gram | language) per row."""

    languages: tuple[str, ...]
    index: Mapping[str, int]  # n-gram -> row (a FeatureIndex when loaded from the shipped file)
    #: (n_features, n_languages): float16 as shipped (half the memory of float32; every sum is taken in
    #: float64, to which float16 and float32 values convert exactly, so the scores are the same)
    logp: np.ndarray
    log_prior: np.ndarray  # (n_languages,)
    #: per-n-gram mean log-likelihood below which a text is "unlike anything the model knows"
    ood_threshold: float
    #: multiplier on the per-n-gram mean log-likelihood margin, for a calibrated probability
    temperature: float
    #: text CLD2 confidently puts outside the SA set is taken back only above this fit
    override_threshold: float
    #: log-probability charged in the fit for an n-gram the model does not know (its lowest value)
    unseen_logp: float
    #: the character n-gram orders the model counts
    orders: tuple[int, ...] = NGRAM_ORDERS

    def __post_init__(self) -> None:
        # Exact lookup, vectorised: every feature's 64-bit polynomial hash in an open-addressing table
        # (linear probing, at most half full), so a text's n-grams are found with a few numpy passes
        # and about one memory access each (a binary search over the sorted hashes took twenty).
        hashes, rows = _feature_hashes(self.index)
        order = np.argsort(hashes, kind="stable")  # equal hashes: the first feature wins, as before
        bits = max(4, int(2 * len(hashes)).bit_length())
        keys = np.zeros(1 << bits, dtype=np.uint64)
        table = np.full(1 << bits, -1, dtype=np.int32)  # rows: a few hundred thousand
        object.__setattr__(self, "_bits", bits)
        pending = order
        slots = self._slots(hashes[pending])
        while len(pending):
            free = table[slots] < 0
            taken, first = np.unique(slots[free], return_index=True)
            winners = pending[free][first]
            keys[taken], table[taken] = hashes[winners], rows[winners]
            placed = np.zeros(len(hashes), dtype=bool)
            placed[winners] = True
            later = ~placed[pending]
            pending, slots = pending[later], (slots[later] + 1) & ((1 << bits) - 1)
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_table", table)

    def _slots(self, grams: np.ndarray) -> np.ndarray:
        """Home slots: Fibonacci hashing of the n-gram hashes (their top bits after a multiply)."""
        bits: int = self._bits  # type: ignore[attr-defined]
        return (grams * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits)

    def rows_of(self, grams: np.ndarray) -> np.ndarray:
        """The model row of each n-gram hash, -1 for n-grams the model does not know."""
        keys: np.ndarray = self._keys  # type: ignore[attr-defined]
        table: np.ndarray = self._table  # type: ignore[attr-defined]
        found = np.full(len(grams), -1, dtype=np.int64)
        active = np.arange(len(grams))
        slots = self._slots(grams).astype(np.int64)
        mask = len(table) - 1
        while len(active):
            row = table[slots]
            hit = (row >= 0) & (keys[slots] == grams[active])
            found[active[hit]] = row[hit]
            probe = (row >= 0) & ~hit
            active, slots = active[probe], (slots[probe] + 1) & mask
        return found

    def scores(self, normalized: str) -> tuple[np.ndarray, int, int]:
        """Summed log-likelihood per language, how many n-grams were known, and how many in all."""
        ((total, count, n_all),) = self.scores_many([normalized])
        return total, count, n_all

    def scores_many(self, texts: list[str]) -> list[tuple[np.ndarray, int, int]]:
        """:meth:`scores` of each normalized text, in one vectorised pass over all of them.

        The n-grams of each text are taken in :func:`text_gram_hashes` order and summed in that order,
        so every sum is bit for bit the one text-by-text scoring gives.
        """
        n_lang = len(self.languages)
        codes = [np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32) for t in texts]
        lengths = np.fromiter((len(c) for c in codes), dtype=np.int64, count=len(codes))
        if not len(codes) or not lengths.sum():
            return [(np.zeros(n_lang, dtype=np.float64), 0, 0) for _ in texts]
        joined = np.concatenate(codes).astype(np.uint64)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        base = np.uint64(_HASH_BASE)
        per_order, seg_starts, seg_counts, offset = [], [], [], 0
        for n in self.orders:  # the hashes of every window of n characters of the joined texts
            count = len(joined) - n + 1
            h = np.zeros(max(0, count), dtype=np.uint64)
            for k in range(n):
                h = h * base + joined[k : k + max(0, count)]
            per_order.append(h * base + np.uint64(n))
            seg_starts.append(offset + starts)
            seg_counts.append(np.maximum(lengths - n + 1, 0))
            offset += max(0, count)
        # text-major, then order: the windows lying inside each text, in text_gram_hashes order
        counts = np.stack(seg_counts, axis=1).ravel()
        firsts = np.stack(seg_starts, axis=1).ravel()
        total_grams = int(counts.sum())
        before = np.cumsum(counts) - counts
        index = np.repeat(firsts - before, counts) + np.arange(total_grams)
        rows = self.rows_of(np.concatenate(per_order)[index])
        per_text = counts.reshape(len(texts), -1).sum(axis=1)
        owner = np.repeat(np.arange(len(texts)), per_text)
        known = rows >= 0
        n_known = np.bincount(owner[known], minlength=len(texts))
        sums = np.zeros((len(texts), n_lang), dtype=np.float64)
        nonempty = np.flatnonzero(n_known)
        if len(nonempty):
            at = (np.cumsum(n_known) - n_known)[nonempty]
            sums[nonempty] = np.add.reduceat(self.logp[rows[known]], at, axis=0, dtype=np.float64)
        return [(sums[i], int(n_known[i]), int(per_text[i])) for i in range(len(texts))]

    def predict(self, normalized: str) -> tuple[str, float, float]:
        """(language, probability, fit): fit is the winner's mean log-likelihood per n-gram.

        Unknown n-grams count in the fit at the model's lowest log-probability, so text in another
        script or an unrelated language (few known n-grams) fits badly instead of looking perfect.
        """
        return self._answer(*self.scores(normalized))

    def predict_many(self, texts: list[str]) -> list[tuple[str, float, float]]:
        """:meth:`predict` of each normalized text, scored together in batches of :data:`BATCH_GRAMS`."""
        out: list[tuple[str, float, float]] = []
        batch: list[str] = []
        size = 0
        for text in [*texts, None]:
            if batch and (text is None or size + len(text) * len(self.orders) > BATCH_GRAMS):
                out += [self._answer(*scored) for scored in self.scores_many(batch)]
                batch, size = [], 0
            if text is not None:
                batch.append(text)
                size += len(text) * len(self.orders)
        return out

    def _answer(self, total: np.ndarray, count: int, n_all: int) -> tuple[str, float, float]:
        if count == 0:
            return UNDETERMINED, 0.0, -math.inf
        mean = total / count
        # A calibrated posterior: scaled mean margins (the raw NB posterior is always ~1.0).
        z = (mean - mean.max()) * self.temperature * math.sqrt(count)
        probs = np.exp(z)
        probs /= probs.sum()
        best = int(np.argmax(total))
        fit = (float(total[best]) + (n_all - count) * self.unseen_logp) / n_all
        return self.languages[best], float(probs[best]), fit

    @classmethod
    def from_npz(cls, data: Any) -> NBModel:
        features = FeatureIndex(bytes(data["features"].tobytes()).decode("utf-8"))
        languages = tuple(str(x) for x in bytes(data["languages"].tobytes()).decode("utf-8").split("\n"))
        params = data["params"]
        return cls(
            languages=languages,
            index=features,
            logp=np.asarray(data["logp"]),
            log_prior=data["log_prior"].astype(np.float64),
            ood_threshold=float(params[0]),
            temperature=float(params[1]),
            override_threshold=float(params[2]),
            unseen_logp=float(data["logp"].min()),
            orders=tuple(range(1, int(params[3]) + 1)) if len(params) > 3 else NGRAM_ORDERS,
        )

    def to_npz_arrays(self) -> dict[str, np.ndarray]:
        if isinstance(self.index, FeatureIndex):
            joined = self.index.joined
        else:
            features = [""] * len(self.index)
            for gram, i in self.index.items():
                features[i] = gram
            joined = "\n".join(features)
        return {
            "features": np.frombuffer(joined.encode("utf-8"), dtype=np.uint8),
            "languages": np.frombuffer("\n".join(self.languages).encode("utf-8"), dtype=np.uint8),
            "logp": self.logp.astype(np.float16),
            "log_prior": self.log_prior.astype(np.float32),
            "params": np.asarray(
                [self.ood_threshold, self.temperature, self.override_threshold, max(self.orders)],
                dtype=np.float64,
            ),
        }


_model: NBModel | None = None
_model_lock = threading.Lock()


def load_model() -> NBModel:
    """The shipped model, loaded on first use and kept for the life of the process."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                ref = resources.files("sacorpus.models").joinpath(MODEL_RESOURCE)
                with ref.open("rb") as fh, np.load(fh, allow_pickle=False) as data:
                    _model = NBModel.from_npz(data)
                logger.debug("loaded %s: %d features", MODEL_RESOURCE, len(_model.index))
    return _model
