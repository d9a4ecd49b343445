"""Full-text search: a literal string or a regular expression over title and text.

Why index first, then verify: the store's search index (SQLite FTS5 trigrams) narrows the read to the
articles containing the literal parts every match must have (:func:`index_substrings`); each of them
is then matched here, so the hits are exactly those of a scan, case-sensitivity and regex included.
A pattern with no such part (``\\d+``, an alternation) or a store without the index is scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

SEARCH_FIELDS = ("url", "published_at", "title", "text")
_WS = re.compile(r"\s+")


#: runs the index folds the way Python does (ASCII letters, digits, spaces and hyphens)
_INDEXABLE = re.compile(r"[A-Za-z0-9 -]{3,}")


def _required_literals(pattern: str, flags: int) -> list[str]:
    """Top-level literal runs of a regex: every match contains each of them."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
    except Exception:  # any parse trouble: no narrowing, the scan stays exact
        return []
    runs: list[str] = []
    current: list[str] = []
    for op, value in parsed:
        if op is _parser.LITERAL:
            current.append(chr(value))
            continue
        if current:
            runs.append("".join(current))
            current = []
    if current:
        runs.append("".join(current))
    return runs


def index_substrings(pattern: str, *, regex: bool = False) -> list[str]:
    """Substrings every match of the pattern contains, in a form the store's index can look up."""
    literals = _required_literals(pattern, 0) if regex else [pattern]
    return [m.group(0) for lit in literals for m in _INDEXABLE.finditer(lit) if m.group(0).strip()]


#: the characters outside ASCII that IGNORECASE matches to an ASCII letter (the lower-cased UTF-8 bytes
#: do not show them where they match): dotted capital I, dotless i, long s, Kelvin sign
_OTHER_CASES = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


def _literal_prefix(pattern: re.Pattern[str]) -> tuple[str, bool]:
    """The literal every match of ``pattern`` starts with (after zero-width ``^``/``\\b``), and whether
    the pattern is that literal and nothing else ("" when it has none)."""
    try:
        from re import _parser  # type: ignore[attr-defined]

        parsed = list(_parser.parse(pattern.pattern, pattern.flags))
    except Exception:  # any parse trouble: no prefix, the plain scan
        return "", False
    at = 0
    while at < len(parsed) and parsed[at][0] is _parser.AT:
        at += 1
    chars: list[str] = []
    for op, value in parsed[at:]:
        if op is not _parser.LITERAL:
            break
        chars.append(chr(value))
    return "".join(chars), at == 0 and len(chars) == len(parsed)


class Finder:
    """The matches of a compiled pattern in a text, exactly those of ``pattern.finditer``, found
    by ``find`` of the literal every match starts with.

    Why: ignoring case, the regular expression engine has no fast search for a literal and tries
    every position of every candidate article's text. Here the literal is found in the text's UTF-8
    bytes with their ASCII letters lower-cased (an ASCII literal can only start at a character there,
    since no byte of a longer character is ASCII), several times faster; each place found is then
    matched by the pattern itself (a pattern that is only the literal needs no check). A text holding
    a character that matches a letter of the literal without being ASCII (``_OTHER_CASES``), and a
    pattern without such a literal, are scanned by the pattern as before.
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        prefix, self.whole = _literal_prefix(pattern)
        self.fold = bool(pattern.flags & re.IGNORECASE)
        if pattern.flags & re.ASCII or (self.fold and not prefix.isascii()):
            prefix = ""  # ASCII-only case folding, or a literal the lower case may change
        self.prefix = prefix.lower() if self.fold else prefix
        self.hiding = "".join(_OTHER_CASES.get(c, "") for c in set(self.prefix)) if self.fold else ""

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each match, as ``finditer`` finds them (non-overlapping, left to right)."""
        if not self.prefix or any(c in text for c in self.hiding):
            yield from (m.span() for m in self.pattern.finditer(text))
            return
        haystack: str | FoldedText = FoldedText(text) if self.fold else text
        needle: Any = self.prefix.encode("ascii") if self.fold else self.prefix
        size, match = len(self.prefix), self.pattern.match
        found = haystack.find(needle)
        while found >= 0:
            if self.whole:
                yield found, found + size
                found = haystack.find(needle, found + size)
                continue
            m = match(text, found)
            if m is not None:  # a match starts with the literal: never empty
                yield m.span()
            found = haystack.find(needle, m.end() if m is not None else found + 1)


class FoldedText:
    """``str.find`` of an ASCII needle (lower-case bytes) ignoring ASCII case, in character offsets,
    over the text's UTF-8 bytes with their ASCII letters lower-cased.

    Why bytes: lower-casing a text that is not all ASCII (curly quotes are enough) goes through the
    Unicode tables character by character; the bytes are lowered in one pass, and no byte of a
    character outside ASCII is ASCII, so an ASCII needle is only found at a character. Each place's
    character offset is counted from the place before it (calls go forward through the text).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.raw = text.encode("utf-8").lower()
        self.ascii = len(self.raw) == len(text)
        self._char = self._byte = 0

    def find(self, needle: bytes, start: int = 0) -> int:
        if self.ascii:
            return self.raw.find(needle, start)
        if start < self._char:  # a step back: count from the start again
            self._char = self._byte = 0
        byte = self._byte + len(self.text[self._char : start].encode("utf-8"))
        found = self.raw.find(needle, byte)
        if found < 0:
            return -1
        self._char, self._byte = start + len(self.raw[byte:found].decode("utf-8")), found
        return self._char


@lru_cache(maxsize=64)
def finder(pattern: re.Pattern[str]) -> Finder:
    return Finder(pattern)


class PatternError(ValueError):
    """The search pattern is not a valid regular expression."""


def compile_pattern(pattern: str, *, regex: bool = False, case_sensitive: bool = False) -> re.Pattern[str]:
    """A compiled pattern: the literal string unless ``regex``; case-insensitive unless asked."""
    if not pattern:
        raise PatternError("the search pattern is empty")
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        return re.compile(pattern if regex else re.escape(pattern), flags)
    except re.error as exc:
        raise PatternError(f"bad regular expression {pattern!r}: {exc}") from exc


def snippet(text: str, start: int, end: int, width: int = 60) -> str:
    """``width`` characters either side of text[start:end], whitespace collapsed, match in [brackets]."""
    left = _WS.sub(" ", text[max(0, start - width * 2) : start])[-width:]
    right = _WS.sub(" ", text[end : end + width * 2])[:width]
    match = _WS.sub(" ", text[start:end])
    prefix = "..." if start - len(left) > 0 else ""
    suffix = "..." if end + len(right) < len(text) else ""
    return f"{prefix}{left}[{match}]{right}{suffix}"


@dataclass(frozen=True)
class SearchHit:
    url: str
    published_at: str | None
    title: str | None
    matches: int  # matches in title + text
    snippet: str

    def tsv(self) -> str:
        title = _WS.sub(" ", self.title or "")
        return f"{self.url}\t{self.published_at or ''}\t{title}\t{self.matches}\t{_WS.sub(' ', self.snippet)}"


def search_record(
    record: Mapping[str, Any], pattern: re.Pattern[str], *, width: int = 60, max_count: int = 10_000
) -> SearchHit | None:
    """The hit for one article (snippet from the first match in the text, else in the title)."""
    title = record.get("title") or ""
    text = record.get("text") or ""
    first: tuple[int, int] | None = None
    first_in = ""
    count = 0
    spans = finder(pattern).spans
    for source in (text, title):
        for start, end in spans(source):
            if end == start:  # an empty match (e.g. "a*") says nothing
                continue
            count += 1
            if first is None:
                first, first_in = (start, end), source
            if count >= max_count:
                break
    if first is None:
        return None
    return SearchHit(
        url=str(record.get("url")),
        published_at=record.get("published_at"),
        title=title or None,
        matches=count,
        snippet=snippet(first_in, first[0], first[1], width),
    )
