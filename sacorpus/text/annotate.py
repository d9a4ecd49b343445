"""Links (L field) and quotations (Q field) located in an article's plain text.

Why offsets into the plain text: the corpus keeps text, not HTML, so a link or a quotation is only
useful as a span of that text (for KWIC of quoted speech, or link anchors). Links come from the
HTML anchors in document order (located where their anchor text is) plus URLs written in the text.
Quotations are found per paragraph (line) in every common style; a straight double quote right
after a digit is an inch mark (4" x 4"), not a quotation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from sacorpus.text.tokenize import url_spans

#: A quotation longer than this is an unclosed mark, not a quotation.
MAX_QUOTE_CHARS = 5000

# (style, opening marks, closing marks)
_PAIRED_STYLES: tuple[tuple[str, str, str], ...] = (
    ("curly_double", "“", "”"),
    ("low_double", "„", "“”"),
    ("curly_single", "‘", "’"),
    ("low_single", "‚", "‘’"),
)


def _line_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"[^\n]+", text)]


def _is_open_context(line: str, i: int) -> bool:
    """A mark at ``i`` can open a quotation: line start or after space/bracket, text follows."""
    before = line[i - 1] if i > 0 else " "
    after = line[i + 1] if i + 1 < len(line) else " "
    return (before.isspace() or before in "([{—–-:/") and not after.isspace()


def _is_close_context(line: str, i: int) -> bool:
    """A mark at ``i`` can close one: text before it, and no letter or digit right after it."""
    before = line[i - 1] if i > 0 else " "
    after = line[i + 1] if i + 1 < len(line) else " "
    return not before.isspace() and not after.isalnum()


def _quote(text: str, start: int, end: int, style: str) -> dict[str, Any]:
    return {
        "start": start,
        "length": end - start,
        "text": text[start + 1 : end - 1],
        "style": style,
    }


def _paired(text: str, offset: int, line: str, style: str, opens: str, closes: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    open_at: int | None = None
    for i, ch in enumerate(line):
        if open_at is None:
            if ch in opens and _is_open_context(line, i):
                open_at = i
        elif ch in closes and _is_close_context(line, i) and i > open_at + 1:
            if i - open_at <= MAX_QUOTE_CHARS:
                found.append(_quote(text, offset + open_at, offset + i + 1, style))
            open_at = None
    return found


def _guillemets(text: str, offset: int, line: str) -> list[dict[str, Any]]:
    """«...» (French, Swiss, ...) or »...« (German, Danish): the first mark on the line decides."""
    first = next((ch for ch in line if ch in "«»"), None)
    if first is None:
        return []
    opens, closes, style = ("«", "»", "guillemets") if first == "«" else ("»", "«", "guillemets_reversed")
    found: list[dict[str, Any]] = []
    open_at: int | None = None
    for i, ch in enumerate(line):
        if ch == opens and open_at is None:
            open_at = i
        elif ch == closes and open_at is not None and i > open_at + 1:
            if i - open_at <= MAX_QUOTE_CHARS:
                found.append(_quote(text, offset + open_at, offset + i + 1, style))
            open_at = None
    return found


def _straight(text: str, offset: int, line: str, mark: str, style: str) -> list[dict[str, Any]]:
    """ "..." or '...': context decides open/close; inch marks and apostrophes are skipped."""
    found: list[dict[str, Any]] = []
    open_at: int | None = None
    for i in _marks(line, mark):
        before = line[i - 1] if i > 0 else " "
        after = line[i + 1] if i + 1 < len(line) else " "
        if mark == '"' and before.isdigit():
            if open_at is None:
                continue  # 4" x 4": inches
            if any(line[j] == '"' and _is_close_context(line, j) for j in range(i + 1, len(line))):
                continue  # "use 4" x 4" posts": a later mark closes the quotation
        if mark == "'":
            if before.isalnum() and after.isalnum():
                continue  # don't, it's
            if open_at is None and (line[i + 1 : i + 3] in ("n ", "s ") or line[i + 1 :] in ("n", "s")):
                continue  # Afrikaans 'n, 's
        if open_at is None:
            if _is_open_context(line, i):
                open_at = i
        elif _is_close_context(line, i) and i > open_at + 1:
            if i - open_at <= MAX_QUOTE_CHARS:
                found.append(_quote(text, offset + open_at, offset + i + 1, style))
            open_at = None
    return found


def _marks(line: str, mark: str) -> Iterator[int]:
    """Where ``mark`` is in ``line``, found by ``str.find`` (a line is scanned in C, not character by
    character in Python)."""
    i = line.find(mark)
    while i >= 0:
        yield i
        i = line.find(mark, i + 1)


def find_quotes(text: str) -> list[dict[str, Any]]:
    """Quotations as ``{"start", "length", "text", "style"}``, sorted by start.

    ``start``/``length`` cover the quotation with its marks; ``text`` is what is inside them.
    Styles: double ("..."), single ('...'), curly_double (“...”), curly_single (‘...’),
    guillemets («...»), guillemets_reversed (»...«), low_double („...“), low_single (‚...‘).
    Nested quotations are reported too. Quotations never cross a paragraph (line).
    """
    if not text:
        return []
    quotes: list[dict[str, Any]] = []
    for start, end in _line_spans(text):
        line = text[start:end]
        if '"' in line:
            quotes.extend(_straight(text, start, line, '"', "double"))
        if "'" in line:
            quotes.extend(_straight(text, start, line, "'", "single"))
        if "«" in line or "»" in line:
            quotes.extend(_guillemets(text, start, line))
        for style, opens, closes in _PAIRED_STYLES:
            if any(ch in line for ch in opens):
                quotes.extend(_paired(text, start, line, style, opens, closes))
    # „...“ also has a closing “ that curly_double would open: drop quotes that start on a closer.
    seen: set[tuple[int, int]] = set()
    unique: list[dict[str, Any]] = []
    for quote in sorted(quotes, key=lambda q: (q["start"], -q["length"])):
        key = (quote["start"], quote["length"])
        if key not in seen:
            seen.add(key)
            unique.append(quote)
    return unique


def _url_for(found: str) -> str:
    if "://" in found:
        return found
    if "@" in found and "/" not in found:
        return f"mailto:{found}"
    return f"http://{found}"


#: the only characters outside ASCII that a case-insensitive pattern of ASCII letters matches (found by
#: trying every code point against every ASCII letter): a text holding one is not pre-checked
_ASCII_CASE_TWINS = ("\u0130", "\u0131", "\u017f", "\u212a")


def _folded(text: str) -> str | None:
    """``text`` lowercased for :func:`_may_match_ignoring_case`; None when it holds a case twin."""
    return None if any(twin in text for twin in _ASCII_CASE_TWINS) else text.lower()


def _may_match_ignoring_case(words: list[str], folded: str | None) -> bool:
    """False only when no case-insensitive match can exist: a word of ASCII characters matches only
    ASCII characters of the text (it holds no case twin), so it is in the lowercased text."""
    if folded is None:
        return True
    return all(not word.isascii() or word.lower() in folded for word in words)


def _place(
    text: str, words: list[str], cursor: int, used: list[tuple[int, int]], folded: str | None
) -> re.Match[str] | None:
    """Where an anchor's text is: next exact match after ``cursor``, then ignoring case, then any
    earlier occurrence no other anchor took (HTML and text order can differ).

    Why the pre-checks: most anchors of a page are navigation that is not in the text at all, and
    compiling each anchor's pattern (twice) was most of the tokenize stage's time. A pattern is
    compiled only where its words can be found: verbatim after ``cursor`` for the exact match, in the
    lowercased text for the others. Either way the match is the one the patterns give.
    """
    pattern = r"\s+".join(re.escape(word) for word in words)
    if text.find(words[0], cursor) >= 0 and all(word in text for word in words[1:]):
        match = re.compile(pattern).search(text, cursor)
        if match is not None:
            return match
    if not _may_match_ignoring_case(words, folded):
        return None
    compiled = re.compile(pattern, re.IGNORECASE)
    match = compiled.search(text, cursor)
    if match is not None:
        return match
    for match in compiled.finditer(text):
        if not any(a < match.end() and match.start() < b for a, b in used):
            return match
    return None


def find_links(text: str, anchors: list[tuple[str, str]] | None = None) -> list[dict[str, Any]]:
    """Links as ``{"url", "start", "length", "text"}`` with offsets into ``text``, sorted by start.

    ``anchors`` are (anchor text, href) pairs from the HTML in document order; each is located at
    the next occurrence of its text (whitespace-insensitive) after the previous one. An anchor with
    no text gets length 0 at the position reached so far; one whose text is not in the plain text
    (navigation, a removed box) is left out. URLs written in the text are added unless an anchor
    already covers them.
    """
    links: list[dict[str, Any]] = []
    text = text or ""
    cursor = 0
    used: list[tuple[int, int]] = []
    folded = _folded(text) if anchors else None
    for anchor_text, href in anchors or []:
        if not href:
            continue
        words = (anchor_text or "").split()
        if not words:
            links.append({"url": href, "start": cursor, "length": 0, "text": ""})
            continue
        match = _place(text, words, cursor, used, folded)
        if match is None:
            continue
        used.append(match.span())
        links.append({"url": href, "start": match.start(), "length": match.end() - match.start(),
                      "text": match.group()})  # fmt: skip
        if match.start() >= cursor:
            cursor = match.end()
    covered = [(link["start"], link["start"] + link["length"]) for link in links]
    for start, end in url_spans(text):
        if any(a <= start < b or a < end <= b for a, b in covered):
            continue
        found = text[start:end]
        links.append({"url": _url_for(found), "start": start, "length": end - start, "text": found})
    return sorted(links, key=lambda link: (link["start"], link["length"]))
