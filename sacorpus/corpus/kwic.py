"""Keyword in context (KWIC) concordances over the stored tokens.

Why tokens and not a text search: the match is a sequence of whole tokens (``land reform`` never
matches inside ``island reformers``), the same unit the wordlist and collocations count. The query is
split by the same tokenizer as the corpus (sacorpus.text.tokenize), so ``don't`` finds ``do n't``;
``*`` stands for any one token. The context shown is the original text around the match (via the
stored character offsets), so it reads as published; without offsets the tokens are joined by spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: ``token_spans``: a store that can gives the tokens read on demand in place of the two lists
KWIC_FIELDS = ("url", "tokens", "token_offsets", "text", "token_spans")
WILDCARD = "*"
SORT_KEYS = ("none", "left", "right")
_WS = re.compile(r"\s+")
_SORT_SPAN = 5  # tokens either side used as the sort key


#: a query part that every tokenizer of the project keeps as one token (letters/digits, inner hyphens)
_PLAIN_WORD = re.compile(r"^\w+(?:-\w+)*$")
#: fallback Penn Treebank splits when sacorpus.text.tokenize cannot be imported
_PTB_QUERY = re.compile(
    r"\w+(?=n't\b)|n't\b"  # do|n't, ca|n't
    r"|'(?:s|re|ve|ll|d|m)\b"  # it|'s, they|'re
    r"|(?:\w\.){2,}"  # U.S.
    r"|\w+(?:-\w+)*"  # words, hyphenated words
    r"|\.\.\.|[^\w\s]",  # punctuation, one token each
    re.IGNORECASE,
)


def _split_part(part: str, lang: str) -> list[str]:
    """Tokens of one whitespace-free query part, as the tokenize stage would split it."""
    if _PLAIN_WORD.match(part):
        return [part]  # the common case: no need to load the (slow to import) NLTK tokenizer
    try:
        from sacorpus.text.tokenize import tokenize_title
    except ImportError:  # pragma: no cover - the tokenize stage ships with the project
        return _PTB_QUERY.findall(part)
    return tokenize_title(part, lang)


def query_tokens(phrase: str, lang: str = "en") -> list[str]:
    """Split a query the way the corpus text was split (the tokenize stage's rules for ``lang``).

    ``don't`` -> ``do n't`` and ``"`` -> `````/``''`` in English, Afrikaans ``'n`` kept whole; a
    ``*`` on its own is the wildcard.
    """
    out: list[str] = []
    for part in phrase.split():
        out.extend([WILDCARD] if part == WILDCARD else _split_part(part, lang))
    return out


_INDEXABLE_TOKEN = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")


def index_substrings(query: Sequence[str]) -> list[str]:
    """Query tokens the store's search index can look up: every matching article's text holds them
    (plain ASCII words of 3+ characters; the others are checked on the tokens only)."""
    return [q for q in query if q != WILDCARD and len(q) >= 3 and _INDEXABLE_TOKEN.match(q)]


def find_phrase(
    tokens: Sequence[str], query: Sequence[str], *, case_sensitive: bool = False
) -> Iterator[int]:
    """Start indexes where ``query`` occurs as a token sequence (``*`` matches any one token)."""
    n = len(query)
    if n == 0 or n > len(tokens):
        return
    folded = list(tokens) if case_sensitive else list(map(str.casefold, tokens))  # one pass, in C
    wanted = [None if q == WILDCARD else (q if case_sensitive else q.casefold()) for q in query]
    anchor = next(k for k, w in enumerate(wanted) if w is not None) if any(wanted) else 0
    first = wanted[anchor]
    last = len(folded) - n
    starts = (
        [i - anchor for i, t in enumerate(folded) if t == first] if first is not None else range(last + 1)
    )
    for i in starts:
        if 0 <= i <= last and all(w is None or folded[i + k] == w for k, w in enumerate(wanted)):
            yield i


@dataclass(frozen=True)
class KwicHit:
    left: str  # context before the match, whitespace collapsed, at most `width` chars (the end)
    keyword: str  # the matched words as they appear in the text
    right: str  # context after the match, at most `width` chars (the start)
    url: str
    index: int  # token index of the match in its article
    left_key: tuple[str, ...]  # the tokens before the match, nearest first, casefolded (sorting)
    right_key: tuple[str, ...]  # the tokens after the match, casefolded (sorting)


def _offsets_ok(tokens: Sequence[str], offsets: Any, text: str | None) -> bool:
    if not text or not isinstance(offsets, list) or len(offsets) != len(tokens) or not offsets:
        return False
    last = offsets[-1]
    return isinstance(last, list | tuple) and len(last) == 2 and 0 <= last[1] <= len(text)


def _clip_left(s: str, width: int) -> str:
    s = _WS.sub(" ", s).strip()
    return s[-width:].lstrip() if len(s) > width else s


def _clip_right(s: str, width: int) -> str:
    s = _WS.sub(" ", s).strip()
    return s[:width].rstrip() if len(s) > width else s


def _text_hit(text: str, start: int, end: int, width: int) -> tuple[str, str, str]:
    """(left, keyword, right) of a match at text[start:end]: the text as published."""
    left = text[max(0, start - 3 * width) : start]
    right = text[end : end + 3 * width]
    return _clip_left(left, width), _WS.sub(" ", text[start:end]), _clip_right(right, width)


def _keys(before: Sequence[str], after: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sort keys: the tokens before the match nearest first, and after it, casefolded."""
    return tuple(t.casefold() for t in reversed(before)), tuple(t.casefold() for t in after)


def kwic_hits(
    record: Mapping[str, Any],
    query: Sequence[str],
    *,
    width: int = 40,
    case_sensitive: bool = False,
) -> Iterator[KwicHit]:
    """Every occurrence of ``query`` in one article's tokens, with left/right context."""
    spans = record.get("token_spans")
    if spans is not None and query:
        yield from _span_hits(spans, query, str(record.get("url")), width, case_sensitive)
        return
    tokens: list[str] = list(record.get("tokens") or [])
    if not tokens or not query:
        return
    text = record.get("text")
    offsets = record.get("token_offsets")
    use_text = _offsets_ok(tokens, offsets, text)
    n = len(query)
    url = str(record.get("url"))
    for i in find_phrase(tokens, query, case_sensitive=case_sensitive):
        j = i + n
        if use_text:
            assert isinstance(text, str) and isinstance(offsets, list)
            left, keyword, right = _text_hit(text, int(offsets[i][0]), int(offsets[j - 1][1]), width)
        else:
            left = _clip_left(" ".join(tokens[max(0, i - width) : i]), width)
            right = _clip_right(" ".join(tokens[j : j + width]), width)
            keyword = " ".join(tokens[i:j])
        left_key, right_key = _keys(tokens[max(0, i - _SORT_SPAN) : i], tokens[j : j + _SORT_SPAN])
        yield KwicHit(left, keyword, right, url, i, left_key, right_key)


#: the characters outside ASCII whose casefold is ASCII letters (``ß`` -> ``ss``, ``ſ`` -> ``s``, Kelvin
#: ``K`` -> ``k``, the ligatures): the lower-cased bytes do not show ``strasse`` in ``Straße``, so
#: those tokens are checked as tokens (all of Unicode checked in tests/corpus/test_token_spans.py)
ASCII_FOLDS = "\u00df\u017f\u1e9e\u212a" + "".join(map(chr, range(0xFB00, 0xFB07)))


@lru_cache(maxsize=256)
def _folds_into(word: str) -> re.Pattern[str] | None:
    """The characters of :data:`ASCII_FOLDS` whose case folding is part of ``word`` (casefolded): only
    a token holding one of them can fold to ``word`` without showing it in the lower-cased text
    (``ß`` for ``strasse``; none for ``water``, so a text full of ``ﬁ`` ligatures costs nothing)."""
    chars = "".join(c for c in ASCII_FOLDS if c.casefold() in word)
    return re.compile("[" + chars + "]") if chars else None


def _places(text: str, word: str, case_sensitive: bool) -> Iterator[int]:
    """Every index where ``word`` (ASCII and lower-case unless ``case_sensitive``) starts in ``text``,
    ignoring ASCII case unless asked (:class:`sacorpus.corpus.search.FoldedText`: a regex ignoring
    case is several times slower, lower-casing the text twice; the characters outside ASCII that
    fold to ASCII letters are the caller's, :func:`_folds_into`)."""
    from sacorpus.corpus.search import FoldedText

    haystack: str | FoldedText = text if case_sensitive else FoldedText(text)
    needle: Any = word if case_sensitive else word.encode("ascii")
    found = haystack.find(needle)
    while found >= 0:
        yield found
        found = haystack.find(needle, found + 1)


def span_starts(spans: Any, query: Sequence[str], case_sensitive: bool) -> Iterator[int]:
    """Token indexes where ``query`` starts, found in the text first: one word's places in
    the text (and the tokens that are not their text) are the only candidates, each checked token by
    token, so the result is :func:`find_phrase`'s without building every token."""
    wanted = [None if q == WILDCARD else (q if case_sensitive else q.casefold()) for q in query]
    # the longest word anchors the search: it has the fewest places (``water``, not ``the``)
    at, first = max(((k, w) for k, w in enumerate(wanted) if w is not None), key=lambda kw: len(kw[1]))
    text = spans.text
    if not case_sensitive and not first.isascii():
        yield from find_phrase(spans.tokens(0, len(spans)), query, case_sensitive=case_sensitive)
        return
    fold = (lambda t: t) if case_sensitive else str.casefold
    # the tokens that are not their text, where they are the anchor word
    candidates = {i for i, token in spans.kept.items() if fold(token) == first}
    hidden = None if case_sensitive else _folds_into(first)
    if hidden is not None and hidden.search(text):  # tokens lower() does not fold: checked too
        candidates.update(spans.last_at(m.start()) for m in hidden.finditer(text))
    for at_char in _places(text, first, case_sensitive):
        i = spans.first_from(at_char)
        if i < len(spans) and spans.start(i) == at_char:
            candidates.add(i)
    # the anchor first: a kept token (a quote) fails there without building its neighbours
    order = [(at, first), *((k, w) for k, w in enumerate(wanted) if w is not None and k != at)]
    last = len(spans) - len(wanted)
    for i in sorted(candidates):
        s = i - at
        if 0 <= s <= last and all(fold(spans.token(s + k)) == w for k, w in order):
            yield s


def _span_hits(
    spans: Any, query: Sequence[str], url: str, width: int, case_sensitive: bool
) -> Iterator[KwicHit]:
    """:func:`kwic_hits` over :class:`sacorpus.storage.layout.TokenSpans` (tokens read on demand)."""
    if all(q == WILDCARD for q in query) or len(query) > len(spans):
        yield from ()
        return
    n = len(query)
    for i in span_starts(spans, query, case_sensitive):
        j = i + n
        left, keyword, right = _text_hit(spans.text, spans.start(i), spans.end(j - 1), width)
        left_key, right_key = _keys(spans.tokens(i - _SORT_SPAN, i), spans.tokens(j, j + _SORT_SPAN))
        yield KwicHit(left, keyword, right, url, i, left_key, right_key)


def sort_hits(hits: Iterable[KwicHit], by: str) -> list[KwicHit]:
    """Order concordance lines: ``left`` by the words before (nearest first), ``right`` by the words after."""
    hits = list(hits)
    if by == "left":
        return sorted(hits, key=lambda h: (h.left_key, h.keyword.casefold(), h.right_key))
    if by == "right":
        return sorted(hits, key=lambda h: (h.right_key, h.keyword.casefold(), h.left_key))
    return hits


def format_hit(hit: KwicHit, width: int = 40) -> str:
    """``<left, right-aligned> [ keyword ] <right, left-aligned>   url`` so keywords line up."""
    return f"{hit.left:>{width}} [ {hit.keyword} ] {hit.right:<{width}}   {hit.url}"
