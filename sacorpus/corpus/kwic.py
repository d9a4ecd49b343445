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
from typing import Any

KWIC_FIELDS = ("url", "tokens", "token_offsets", "text")
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


def kwic_hits(
    record: Mapping[str, Any],
    query: Sequence[str],
    *,
    width: int = 40,
    case_sensitive: bool = False,
) -> Iterator[KwicHit]:
    """Every occurrence of ``query`` in one article's tokens, with left/right context."""
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
            start, end = int(offsets[i][0]), int(offsets[j - 1][1])
            left = text[max(0, start - 3 * width) : start]
            right = text[end : end + 3 * width]
            keyword = _WS.sub(" ", text[start:end])
        else:
            left = " ".join(tokens[max(0, i - width) : i])
            right = " ".join(tokens[j : j + width])
            keyword = " ".join(tokens[i:j])
        yield KwicHit(
            left=_clip_left(left, width),
            keyword=keyword,
            right=_clip_right(right, width),
            url=url,
            index=i,
            left_key=tuple(t.casefold() for t in reversed(tokens[max(0, i - _SORT_SPAN) : i])),
            right_key=tuple(t.casefold() for t in tokens[j : j + _SORT_SPAN]),
        )


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
