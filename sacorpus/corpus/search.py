"""Full-text search: a literal string or a regular expression over title and text.

Why index first, then verify: the store's search index (SQLite FTS5 trigrams) narrows the read to the
articles containing the literal parts every match must have (:func:`index_substrings`); each of them
is then matched here, so the hits are exactly those of a scan, case-sensitivity and regex included.
A pattern with no such part (``\\d+``, an alternation) or a store without the index is scanned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
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
    first: re.Match[str] | None = None
    first_in = ""
    count = 0
    for source in (text, title):
        for m in pattern.finditer(source):
            if m.end() == m.start():  # an empty match (e.g. "a*") says nothing
                continue
            count += 1
            if first is None:
                first, first_in = m, source
            if count >= max_count:
                break
    if first is None:
        return None
    return SearchHit(
        url=str(record.get("url")),
        published_at=record.get("published_at"),
        title=title or None,
        matches=count,
        snippet=snippet(first_in, first.start(), first.end(), width),
    )
