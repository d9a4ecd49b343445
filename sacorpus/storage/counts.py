"""Kept word counts and the store-side article filter: pure parts both backends share.

Why kept counts: a word list over the whole corpus re-read every token of every article (minutes at
100,000 articles). The store keeps, per (publication, month, language, duplicate-or-not), the count of
every word and the article/token/word totals, updated in the write that stores, replaces, relabels or
re-extracts an article (the old article's counts subtracted, the new one's added). One more key,
``ALL``, sums the whole corpus so an unfiltered word list reads one row per word.

A "word" is a token with a letter or digit that is not a Penn Treebank bracket escape: the rule of
``Article.word_count`` and the word list (one definition, here).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

#: the key value standing for "every publication / month / language"
ALL = "*"
#: Penn Treebank escapes for brackets: letters, but not words
PTB_BRACKETS = frozenset({"-LRB-", "-RRB-", "-LSB-", "-RSB-", "-LCB-", "-RCB-"})
_MONTH = re.compile(r"^(\d{4})-(\d{2})")
#: a letter or digit: ``[^\W_]`` is exactly ``str.isalnum`` per character, tested in C
_ALNUM = re.compile(r"[^\W_]")

CountKey = tuple[str, str, str, int]  # publication, month, language, duplicate (1) or not (0)
#: one kept count as a store streams it: (key, word, (n,)) or (key, None, (articles, tokens, words))
KeptCount = tuple[CountKey, str | None, tuple[int, ...]]


def is_word(token: str) -> bool:
    """True when the token has a letter or digit (and is not a PTB bracket escape)."""
    return token not in PTB_BRACKETS and _ALNUM.search(token) is not None


def month_of(published_at: Any) -> str | None:
    """``YYYY-MM`` of a UTC ISO date, or None when there is no usable date."""
    if not isinstance(published_at, str):
        return None
    m = _MONTH.match(published_at)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return None
    return f"{m.group(1)}-{m.group(2)}"


def count_key(record: Mapping[str, Any]) -> CountKey:
    """The counts row an article adds to ('' for a missing publication, month or language)."""
    return (
        str(record.get("publication") or ""),
        month_of(record.get("published_at")) or "",
        str(record.get("language") or ""),
        1 if record.get("dedup_label") == "duplicate" else 0,
    )


def index_text(record: Mapping[str, Any]) -> str:
    """What the search index holds for an article: its title and text (what ``search`` matches)."""
    return f"{record.get('title') or ''}\n{record.get('text') or ''}"


@dataclass
class CountDelta:
    """Changes to the kept counts from a batch of writes, summed before they touch the store.

    Why tallies: an article is counted into a ``Counter`` per (key, sign) from its word tokens (a C
    loop); the Python-level sum per (key, word) runs once per batch in :meth:`settle`, not once per
    article, so a batch of relabels or stores costs little more than reading the tokens.
    """

    words: Counter[tuple[CountKey, str]] = field(default_factory=Counter)
    totals: dict[CountKey, list[int]] = field(default_factory=dict)
    _tally: dict[tuple[CountKey, int], Counter[str]] = field(default_factory=dict, repr=False)
    _moves: dict[tuple[CountKey, CountKey], Counter[str]] = field(default_factory=dict, repr=False)

    def add(self, record: Mapping[str, Any] | None, sign: int = 1, key: CountKey | None = None) -> None:
        """Count an article in (sign 1) or out (sign -1), under its key (``key``, or the record's own)
        and under the ``ALL`` key."""
        if record is None:
            return
        tokens = record.get("tokens") or []
        self.add_tokens(tokens, key or count_key(record), sign)

    def add_tokens(self, tokens: list[Any], key: CountKey, sign: int = 1) -> None:
        word_tokens, n_tokens = _words(tokens)
        for k in (key, _all_key(key)):
            self._total(k, sign, n_tokens, len(word_tokens))
            tally = self._tally.get((k, sign))
            if tally is None:
                tally = self._tally[(k, sign)] = Counter()
            tally.update(word_tokens)

    def move(self, tokens: list[Any], old: CountKey, new: CountKey) -> None:
        """An article's counts from key ``old`` to key ``new`` (a relabel; its tokens unchanged).

        Why one tally per (old, new) pair: a batch of relabels moves many articles between the same
        two keys; their words are counted in C and moved between the keys once per batch.
        """
        if old == new:
            return
        word_tokens, n_tokens = _words(tokens)
        for a, b in ((old, new), (_all_key(old), _all_key(new))):
            if a != b:
                self._total(a, -1, n_tokens, len(word_tokens))
                self._total(b, 1, n_tokens, len(word_tokens))
                moved = self._moves.get((a, b))
                if moved is None:
                    moved = self._moves[(a, b)] = Counter()
                moved.update(word_tokens)

    def _total(self, key: CountKey, sign: int, n_tokens: int, n_words: int) -> None:
        total = self.totals.setdefault(key, [0, 0, 0])
        total[0] += sign
        total[1] += sign * n_tokens
        total[2] += sign * n_words

    def settle(self) -> Counter[tuple[CountKey, str]]:
        """Fold the tallies into ``words`` (once per batch) and return it."""
        words = self.words
        for key, word, n in self._unfolded():
            words[(key, word)] += n
        self._tally.clear()
        self._moves.clear()
        return words

    def _unfolded(self) -> Iterator[tuple[CountKey, str, int]]:
        for (key, sign), tally in self._tally.items():
            for word, n in tally.items():
                yield key, word, sign * n
        for (old, new), moved in self._moves.items():
            for word, n in moved.items():
                yield old, word, -n
                yield new, word, n

    def changes(self) -> Iterator[tuple[CountKey, str, int]]:
        """Every (key, word, change), a key and word maybe more than once: for a store that adds the
        changes up itself. Why not folded first: folding a batch of relabels cost a Python step per
        change and a second copy of the batch in memory (most of ``dedup --rebuild``'s memory)."""
        yield from ((key, word, n) for (key, word), n in self.words.items() if n)
        yield from self._unfolded()

    def words_changed(self) -> set[str]:
        """The words :meth:`changes` names."""
        words = {word for _key, word in self.words}
        for counts in (*self._tally.values(), *self._moves.values()):
            words.update(counts)
        return words

    def keys_changed(self) -> set[CountKey]:
        """The keys :meth:`changes` and the totals name."""
        keys = {key for key, _word in self.words} | self.totals.keys()
        keys.update(key for key, _sign in self._tally)
        keys.update(key for pair in self._moves for key in pair)
        return keys

    def word_rows(self) -> Iterator[tuple[str, str, str, int, str, int]]:
        for (key, word), n in self.settle().items():
            if n:
                yield (*key, word, n)

    def total_rows(self) -> Iterator[tuple[str, str, str, int, int, int, int]]:
        for key, (articles, tokens, words) in self.totals.items():
            if articles or tokens or words:
                yield (*key, articles, tokens, words)


def _all_key(key: CountKey) -> CountKey:
    """The whole-corpus key an article also counts under (duplicates apart)."""
    return (ALL, ALL, ALL, key[3])


def _words(tokens: list[Any]) -> tuple[list[str], int]:
    """The word tokens of an article and its token count (each distinct token tested once)."""
    kinds = set(tokens)
    words = {t for t in kinds if isinstance(t, str) and is_word(t)}
    n_tokens = (
        len(tokens) if all(isinstance(t, str) for t in kinds) else sum(isinstance(t, str) for t in tokens)
    )
    return [t for t in tokens if t in words], n_tokens


@dataclass(frozen=True)
class StoreFilter:
    """The article filter as the store applies it in its own query.

    ``since``/``until`` are the normalised bounds of the corpus filter (prefixes of the UTC ISO date,
    inclusive); callers still check each record, so a store may return more, never fewer.
    """

    publications: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    exclude_duplicates: bool = False

    def month_range(self) -> tuple[str, str] | None:
        """The (first, last) month when both date bounds fall on month boundaries, else None.

        ``("", "")`` means no date bound. Why: the kept counts are per month, so they can answer a
        filter by whole months and nothing finer.
        """
        if self.since is None and self.until is None:
            return ("", "")
        for bound in (self.since, self.until):
            if bound is not None and len(bound) not in (4, 7):
                return None
        return (self._month(self.since, "01") or "0000-01", self._month(self.until, "12") or "9999-12")

    @staticmethod
    def _month(bound: str | None, fill: str) -> str | None:
        if bound is None:
            return None
        return bound if len(bound) == 7 else f"{bound}-{fill}"


@dataclass
class WordCounts:
    """A word list answered from the kept counts."""

    counts: Counter[str] = field(default_factory=Counter)
    articles: int = 0
    total_tokens: int = 0
    total_words: int = 0


def recount(records: Iterable[Mapping[str, Any]]) -> CountDelta:
    """The counts of a set of articles from their tokens (rebuild and check)."""
    delta = CountDelta()
    for record in records:
        delta.add(record)
    delta.settle()
    return delta
