"""Word frequency lists from the stored tokens (no re-tokenization).

Why "word" = a token with a letter or digit: it is the same rule as ``Article.word_count``, so the
per-million figures add up with the stats command; pure punctuation and the Penn Treebank bracket
and quote tokens (``-LRB-``, ``````, ``''``) are not words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from sacorpus.storage.counts import PTB_BRACKETS, WordCounts, is_word

WORDLIST_FIELDS = ("url", "tokens")
__all__ = ["PTB_BRACKETS", "WordCounter", "is_word", "word_tokens", "wordlist_rows"]


def word_tokens(tokens: Iterable[str], *, lower: bool = False) -> Iterator[str]:
    """The word tokens of a token list, optionally lower-cased (``casefold``)."""
    for token in tokens:
        if isinstance(token, str) and is_word(token):
            yield token.casefold() if lower else token


@dataclass
class WordCounter:
    """Accumulates word frequencies article by article (memory: one entry per distinct word)."""

    lower: bool = False
    counts: Counter[str] = field(default_factory=Counter)
    total_words: int = 0  # word tokens seen (the per-million base)
    total_tokens: int = 0  # all tokens seen, punctuation included
    articles: int = 0

    @classmethod
    def from_kept(cls, kept: WordCounts, *, lower: bool = False) -> WordCounter:
        """The counter of a word list answered by the store's kept counts (case folded if asked)."""
        counter = cls(lower=lower, total_words=kept.total_words, total_tokens=kept.total_tokens)
        counter.articles = kept.articles
        if lower:
            for word, n in kept.counts.items():
                counter.counts[word.casefold()] += n
        else:
            counter.counts = kept.counts
        return counter

    def add(self, tokens: Iterable[str]) -> None:
        tokens = list(tokens)
        words = list(word_tokens(tokens, lower=self.lower))
        self.counts.update(words)
        self.total_words += len(words)
        self.total_tokens += len(tokens)
        self.articles += 1


@dataclass(frozen=True)
class WordlistRow:
    rank: int
    word: str
    count: int
    per_million: float

    def tsv(self) -> str:
        return f"{self.rank}\t{self.word}\t{self.count}\t{self.per_million:.2f}"


WORDLIST_HEADER = "rank\tword\tcount\tper_million"


def per_million(count: int, total: int) -> float:
    return count * 1_000_000 / total if total else 0.0


def wordlist_rows(
    counts: Counter[str], total_words: int, *, top: int | None = None, min_count: int = 1
) -> list[WordlistRow]:
    """Rows by descending count (ties alphabetical); ranks are 1-based and dense in output order.

    ``per_million`` is relative to ``total_words`` (all word tokens, also those below min_count).
    """
    items = [(w, c) for w, c in counts.items() if c >= min_count]
    items.sort(key=lambda wc: (-wc[1], wc[0]))
    if top is not None and top > 0:
        items = items[:top]
    return [
        WordlistRow(rank=i, word=w, count=c, per_million=per_million(c, total_words))
        for i, (w, c) in enumerate(items, start=1)
    ]
