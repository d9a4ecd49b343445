"""The classic tab-separated line format of news/blog full-text corpora (Spinn3r / MemeTracker style).

One record per article, one field per line as ``<letter>\\t<value>``, records separated by a blank
line::

    U   <url>
    D   <published date, UTC, "YYYY-MM-DD HH:MM:SS">
    T   <title as published>
    F   <the title cleaned and tokenized: title_tokens joined by single spaces>
    C   <content: the plain text>
    H   <the HTML> (only when asked for)
    L   <offset>\\t<length>\\t<url>       one line per link in the content
    Q   <offset>\\t<length>\\t<quote>     one line per quote in the content

Why escape: the format is line-based, but our text keeps one paragraph a line and HTML has tabs
and newlines. Values are escaped (``\\\\`` ``\\n`` ``\\r`` ``\\t``) so a record always stays on its
lines and :func:`parse_lineformat` gives back exactly what was written. L/Q offsets and lengths
count characters (Python ``str`` indices) in the *unescaped* content, as stored in ``links`` and
``quotes``; a link's anchor text is ``content[offset:offset + length]``.

A line whose letter is unknown, or an L/Q line whose numbers do not parse, is never fatal: it is
recorded in the record's ``problems`` (``lineformat:...``) and reading goes on.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sacorpus.sources.dates import to_utc_iso

LETTERS = ("U", "D", "T", "F", "C", "H", "L", "Q")

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPE_RE = re.compile(r"[\\\n\r\t]")
_UNESCAPES = {"\\": "\\", "n": "\n", "r": "\r", "t": "\t"}
_UNESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def escape(value: str) -> str:
    """Make a value safe for one line of one field (backslash, newline, CR, tab escaped)."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], value)


def unescape(value: str) -> str:
    """Undo :func:`escape`; an unknown escape keeps its character (``\\x`` -> ``x``)."""
    return _UNESCAPE_RE.sub(lambda m: _UNESCAPES.get(m.group(1), m.group(1)), value)


def format_date(published_at: str | None) -> str | None:
    """UTC ISO 8601 -> ``YYYY-MM-DD HH:MM:SS`` (the format's date); unparsable values pass as they are."""
    if not published_at:
        return None
    try:
        dt = datetime.fromisoformat(published_at.replace("Z", "+00:00"))
    except ValueError:
        return published_at
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%d %H:%M:%S")


def stored_date(value: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` (UTC) -> the stored form ``YYYY-MM-DDTHH:MM:SSZ`` (others pass unchanged)."""
    try:
        dt = datetime.strptime(value, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return value
    return to_utc_iso(dt) or value


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def format_record(record: Mapping[str, Any], *, with_html: bool = False) -> str:
    """One article as its block of lines, ending with the blank separator line."""
    lines = [f"U\t{escape(str(record.get('url') or ''))}"]
    date = format_date(record.get("published_at"))
    if date:
        lines.append(f"D\t{escape(date)}")
    if record.get("title"):
        lines.append(f"T\t{escape(str(record['title']))}")
    title_tokens = record.get("title_tokens") or []
    if title_tokens:
        lines.append(f"F\t{escape(' '.join(str(t) for t in title_tokens))}")
    elif record.get("title_clean"):
        lines.append(f"F\t{escape(str(record['title_clean']))}")
    text = record.get("text")
    if text:
        lines.append(f"C\t{escape(str(text))}")
    if with_html and record.get("html"):
        lines.append(f"H\t{escape(str(record['html']))}")
    for link in record.get("links") or []:
        start, length = _int(link.get("start")), _int(link.get("length"))
        if start is None or length is None or not link.get("url"):
            continue
        lines.append(f"L\t{start}\t{length}\t{escape(str(link['url']))}")
    for quote in record.get("quotes") or []:
        start, length = _int(quote.get("start")), _int(quote.get("length"))
        if start is None or length is None:
            continue
        quote_text = quote.get("text")
        if quote_text is None and text:
            quote_text = str(text)[start : start + length]
        lines.append(f"Q\t{start}\t{length}\t{escape(str(quote_text or ''))}")
    return "\n".join(lines) + "\n\n"


def _new_record() -> dict[str, Any]:
    return {
        "url": None,
        "published_at": None,
        "title": None,
        "title_tokens": [],
        "text": None,
        "html": None,
        "links": [],
        "quotes": [],
        "problems": [],
    }


def _note(record: dict[str, Any], problem: str) -> None:
    if problem not in record["problems"]:
        record["problems"].append(problem)


def _finish(record: dict[str, Any]) -> dict[str, Any]:
    """Give links their anchor text from the content (the format carries only offsets)."""
    text = record.get("text") or ""
    for link in record["links"]:
        start, length = link["start"], link["length"]
        if start >= 0 and start + length <= len(text):
            link["text"] = text[start : start + length]
        else:
            link["text"] = None
            _note(record, "lineformat:link-out-of-range")
    return record


def parse_lineformat(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Parse the line format back into records (streaming).

    Each record has url, published_at (``...Z``), title, title_tokens, text, html, links
    ``[{"start", "length", "url", "text"}]``, quotes ``[{"start", "length", "text"}]`` and problems.
    """
    record: dict[str, Any] | None = None
    for raw in lines:
        line = raw.rstrip("\n")
        if line.endswith("\r"):  # a file saved with CRLF line ends
            line = line[:-1]
        if not line:
            if record is not None:
                yield _finish(record)
                record = None
            continue
        letter, sep, value = line.partition("\t")
        if record is None:
            record = _new_record()
            if letter != "U":
                _note(record, "lineformat:missing-U")
        if not sep or letter not in LETTERS:
            _note(record, "lineformat:bad-line")
            continue
        if letter == "U":
            if record["url"] is not None:  # a new record without the blank line between
                _note(record, "lineformat:missing-blank-line")
                yield _finish(record)
                record = _new_record()
            record["url"] = unescape(value)
        elif letter == "D":
            record["published_at"] = stored_date(unescape(value))
        elif letter == "T":
            record["title"] = unescape(value)
        elif letter == "F":
            title = unescape(value)
            record["title_tokens"] = title.split(" ") if title else []
        elif letter == "C":
            record["text"] = unescape(value)
        elif letter == "H":
            record["html"] = unescape(value)
        else:  # L or Q
            parts = value.split("\t", 2)
            start = _int(parts[0]) if parts else None
            length = _int(parts[1]) if len(parts) > 1 else None
            if start is None or length is None or len(parts) < 3:
                _note(record, f"lineformat:bad-{letter}-line")
                continue
            if letter == "L":
                record["links"].append({"start": start, "length": length, "url": unescape(parts[2])})
            else:
                record["quotes"].append({"start": start, "length": length, "text": unescape(parts[2])})
    if record is not None:
        yield _finish(record)


def read_lineformat(path: str | Path) -> Iterator[dict[str, Any]]:
    """Parse a line-format file (gzip when the name ends with .gz) record by record."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="\n") as fh:
        yield from parse_lineformat(fh)
