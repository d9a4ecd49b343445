"""Collocates of a node word: window co-occurrence with log-likelihood, MI and t-score.

The counting model (surface co-occurrence, as in Evert 2008, "Corpora and collocations"):

* The corpus is the sequence of word tokens of each article (punctuation skipped, see
  :func:`sacorpus.corpus.wordlist.is_word`); windows never cross an article boundary.
* The *span* is the set of token positions within ``window`` words left or right of any occurrence
  of the node, minus the node occurrences themselves. Overlapping windows count a position once,
  so every count below is a count of token positions and the 2x2 table is consistent.
* For a candidate collocate c: ``O11`` = occurrences of c inside the span, ``R1`` = span size,
  ``C1`` = corpus frequency of c, ``N`` = corpus size. Then::

        O12 = R1 - O11      O21 = C1 - O11      O22 = N - R1 - C1 + O11
        Eij = Ri * Cj / N   (E11 = R1 * C1 / N)

* log-likelihood (Dunning 1993): ``G2 = 2 * sum Oij * ln(Oij / Eij)`` (0 * ln 0 = 0);
  MI = ``log2(O11 / E11)``; t-score = ``(O11 - E11) / sqrt(O11)``.

Only attracted collocates (``O11 > E11``) are ranked; G2 alone cannot tell attraction from repulsion.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sacorpus.corpus.wordlist import WordCounter, is_word, word_tokens
from sacorpus.storage.counts import WordCounts

#: ``token_spans`` (with the text): a store that can gives the tokens read on demand (see kwic)
COLLOCATION_FIELDS = ("url", "tokens", "text", "token_spans")
MEASURES = ("ll", "mi", "t")


def contingency(o11: int, r1: int, c1: int, n: int) -> tuple[int, int, int, int]:
    """The observed 2x2 table (O11, O12, O21, O22) from the marginals."""
    return o11, r1 - o11, c1 - o11, n - r1 - c1 + o11


def expected(o11: int, r1: int, c1: int, n: int) -> tuple[float, float, float, float]:
    """Expected frequencies (E11, E12, E21, E22) under independence."""
    r2, c2 = n - r1, n - c1
    return r1 * c1 / n, r1 * c2 / n, r2 * c1 / n, r2 * c2 / n


def log_likelihood(o11: int, r1: int, c1: int, n: int) -> float:
    """Dunning's G2 over the full 2x2 table."""
    if n <= 0:
        return 0.0
    total = 0.0
    for o, e in zip(contingency(o11, r1, c1, n), expected(o11, r1, c1, n), strict=True):
        if o > 0 and e > 0:
            total += o * math.log(o / e)
    return 2.0 * total


def mutual_information(o11: int, r1: int, c1: int, n: int) -> float:
    """Pointwise MI in bits: log2(O11 / E11); -inf when O11 is 0."""
    e11 = r1 * c1 / n if n else 0.0
    if o11 <= 0 or e11 <= 0:
        return float("-inf")
    return math.log2(o11 / e11)


def t_score(o11: int, r1: int, c1: int, n: int) -> float:
    """(O11 - E11) / sqrt(O11); 0 when O11 is 0."""
    if o11 <= 0 or n <= 0:
        return 0.0
    return (o11 - r1 * c1 / n) / math.sqrt(o11)


def span_positions(words: list[str], node: str, window: int) -> tuple[set[int], int]:
    """Positions within ``window`` of a node occurrence (node positions excluded), and the node count."""
    hits = [i for i, w in enumerate(words) if w == node]
    span: set[int] = set()
    for i in hits:
        span.update(range(max(0, i - window), min(len(words), i + window + 1)))
    span.difference_update(hits)
    return span, len(hits)


@dataclass
class CollocationCounter:
    """Accumulates corpus and span frequencies article by article (memory: the vocabulary)."""

    node: str
    window: int = 5
    lower: bool = True
    corpus: Counter[str] = field(default_factory=Counter)  # C1 per word
    in_span: Counter[str] = field(default_factory=Counter)  # O11 per word
    n: int = 0  # corpus size (word tokens)
    span_size: int = 0  # R1
    node_freq: int = 0

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError("the window must be at least 1 word")
        if self.lower:
            self.node = self.node.casefold()

    def add(self, tokens: Iterable[str]) -> None:
        words = list(word_tokens(tokens, lower=self.lower))
        self.corpus.update(words)
        self.n += len(words)
        self._add_spans(words)

    def add_spans(self, tokens: Iterable[str]) -> None:
        """Count only the node's spans (the corpus frequencies come from the store's kept counts)."""
        self._add_spans(list(word_tokens(tokens, lower=self.lower)))

    def add_token_spans(self, spans: Any) -> None:
        """:meth:`add_spans` over tokens read on demand (:class:`sacorpus.storage.layout.TokenSpans`):
        the node's places are found in the text and only the words around them are built."""
        from sacorpus.corpus.kwic import WILDCARD, span_starts

        if self.node == WILDCARD:
            self.add_spans(spans.tokens(0, len(spans)))
            return
        hits = [i for i in span_starts(spans, [self.node], not self.lower) if is_word(spans.token(i))]
        span: set[int] = set()
        for i in hits:
            for step in (-1, 1):  # ``window`` words either side, punctuation passed over
                j, taken = i + step, 0
                while 0 <= j < len(spans) and taken < self.window:
                    if is_word(spans.token(j)):
                        span.add(j)
                        taken += 1
                    j += step
        span.difference_update(hits)
        fold = str.casefold if self.lower else str
        self.node_freq += len(hits)
        self.span_size += len(span)
        self.in_span.update(fold(spans.token(j)) for j in span)

    def _add_spans(self, words: list[str]) -> None:
        if self.node not in words:
            return
        span, hits = span_positions(words, self.node, self.window)
        self.node_freq += hits
        self.span_size += len(span)
        self.in_span.update(words[i] for i in span)


@dataclass(frozen=True)
class Collocate:
    word: str
    o11: int  # co-occurrences with the node (in its span)
    c1: int  # corpus frequency
    e11: float
    ll: float
    mi: float
    t: float

    def score(self, measure: str) -> float:
        return {"ll": self.ll, "mi": self.mi, "t": self.t}[measure]


COLLOCATE_HEADER = "rank\tcollocate\tcooc\tfreq\texpected\tll\tmi\tt"


def collocates(
    counter: CollocationCounter, *, measure: str = "ll", min_count: int = 3, top: int | None = 50
) -> list[Collocate]:
    """Attracted collocates (O11 > E11, O11 >= min_count) ranked by ``measure`` (ties by word)."""
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; use one of {', '.join(MEASURES)}")
    n, r1 = counter.n, counter.span_size
    rows: list[Collocate] = []
    if n == 0 or r1 == 0:
        return rows
    for word, o11 in counter.in_span.items():
        if o11 < min_count:
            continue
        c1 = counter.corpus[word]
        e11 = r1 * c1 / n
        if o11 <= e11:
            continue
        rows.append(
            Collocate(
                word=word,
                o11=o11,
                c1=c1,
                e11=e11,
                ll=log_likelihood(o11, r1, c1, n),
                mi=mutual_information(o11, r1, c1, n),
                t=t_score(o11, r1, c1, n),
            )
        )
    rows.sort(key=lambda c: (-c.score(measure), c.word))
    if top is not None and top > 0:
        rows = rows[:top]
    return rows


def collocate_tsv(rank: int, c: Collocate) -> str:
    return f"{rank}\t{c.word}\t{c.o11}\t{c.c1}\t{c.e11:.3f}\t{c.ll:.3f}\t{c.mi:.3f}\t{c.t:.3f}"


def count_from_store(
    counter: CollocationCounter,
    kept: WordCounts | None,
    read: Callable[[Sequence[str]], Iterable[Mapping[str, Any]]],
) -> None:
    """Fill ``counter`` from a store: with its kept word counts (``kept``) the corpus frequencies come
    from them and only the articles holding the node word are read (``read(tokens)`` narrows by the
    search index); without them every filtered article is read (``read(())``).

    Why one function: ``scrapy collocations`` and the browser's collocations page count the same way.
    """
    if kept is None:
        for record in read(()):
            spans = record.get("token_spans")
            counter.add(spans.tokens(0, len(spans)) if spans is not None else record.get("tokens") or [])
        return
    from sacorpus.corpus.kwic import index_substrings

    folded = WordCounter.from_kept(kept, lower=counter.lower)
    counter.corpus, counter.n = folded.counts, folded.total_words
    for record in read(index_substrings([counter.node])):
        spans = record.get("token_spans")
        if spans is not None:
            counter.add_token_spans(spans)
        else:
            counter.add_spans(record.get("tokens") or [])
