"""The seed corpus's line format: one line per article, tab-separated ``<letter>:<value>`` columns.

    U:<url>  D:<YYYY-MM-DD HH:MM:SS>  T:<title, cleaned and tokenized>  F:<title as published>
    C:<text, cleaned and tokenized>  H:<the HTML>  L:<start>:<length>:<url> ...  Q:<start>:<length>:<text> ...
    <lang>:<probability> ...  G:<ratio of useful characters>:<flag>

Why each choice:
- C is the stored tokens (Penn Treebank style: "do n't", `` and '') joined by single spaces, so a
  line splits into words with ``split(" ")``; T is the title's tokens the same way. F, H and Q keep
  the original text with tabs and newlines (and carriage returns) made spaces: a line never breaks.
- L and Q offsets count characters in C, not in the stored text: a link or a quotation covers the
  tokens its span in the text covered (``C[start:start + length]``). A link in the title, or one
  whose span falls between tokens, has empty offsets (``L:::url``).
- Every language detected in the article's paragraphs follows, with its probability: the article's
  language first with its own probability, then the others with their share of the text.
- G tells a linguist whether the text is language at all: the share of its characters that are
  letters, digits, spaces or punctuation, and ``1`` when that share reaches :data:`GOOD_RATIO`.

:func:`read_seed_line` reads a line back into the same fields (what :func:`seed_fields` computes).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
from itertools import accumulate
from operator import itemgetter
from typing import Any

from sacorpus.corpus.lineformat import format_date, stored_date

#: share of useful characters from which a text counts as good (G flag 1)
GOOD_RATIO = 0.8
#: the characters that would break a line or a column: each becomes a space
_BREAKS = "\t\n\r\v\f\x85\u2028\u2029"
_SPACE = re.compile(r"\s")
_LANGUAGE = re.compile(r"^([a-z]{2,3}(?:-[A-Za-z0-9]+)?):(\d+(?:\.\d+)?)$")


def flat(value: Any) -> str:
    """One line of text: tabs and line breaks become spaces.

    One ``str.replace`` per character present (each a scan in C) is several times faster on a page's
    HTML than one regular expression substituting every newline of it.
    """
    text = str(value or "")
    for ch in _BREAKS:
        if ch in text:
            text = text.replace(ch, " ")
    return text


def _useful(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMNPZ" or ch in "\n\t"


#: characters that may not be useful: ASCII symbols and controls, and anything beyond ASCII
_SUSPECT = re.compile(
    "[" + re.escape("".join(chr(i) for i in range(128) if not _useful(chr(i)))) + "\u0080-\U0010ffff]"
)


def useful_ratio(text: str) -> float:
    """Share of characters that are letters, marks, digits, spaces or punctuation (not symbols, controls).

    Counted in C: one regex finds the characters that may not be useful (ASCII symbols and controls,
    anything beyond ASCII), each distinct one is looked up once (a per-character loop took half the
    time of ``--format lines``).
    """
    if not text:
        return 0.0
    bad = sum(n for ch, n in Counter(_SUSPECT.findall(text)).items() if not _useful(ch))
    return round((len(text) - bad) / len(text), 3)


def _tokens_in_c(record: Mapping[str, Any]) -> tuple[list[str], list[int], list[int]]:
    """Tokens (whitespace removed), their starts and ends in the source text."""
    tokens = [str(t) for t in record.get("tokens") or []]
    if "" in tokens or _SPACE.search("".join(tokens)):  # rare: checked over all tokens at once
        tokens = ["".join(t.split()) or "_" for t in tokens]
    offsets = record.get("token_offsets") or []
    if len(offsets) != len(tokens):
        return tokens, [], []
    return tokens, list(map(int, map(itemgetter(0), offsets))), list(map(int, map(itemgetter(1), offsets)))


def _span_in_c(
    start: Any, length: Any, starts: list[int], ends: list[int], c_starts: list[int], c: str
) -> str:
    """``start:length`` in C of the tokens inside the text span, or ``:`` when none is inside it."""
    if not isinstance(start, int) or not isinstance(length, int) or not starts:
        return ":"
    first = bisect.bisect_left(ends, start + 1)  # first token ending after the span starts
    last = bisect.bisect_right(starts, start + length - 1) - 1  # last token starting inside it
    if length <= 0 or first > last or first >= len(starts):
        return ":"
    c_start = c_starts[first]
    c_end = c_starts[last] + len(c[c_starts[last] :].split(" ", 1)[0])
    return f"{c_start}:{c_end - c_start}"


def languages(record: Mapping[str, Any]) -> list[tuple[str, float]]:
    """The article's language with its probability, then the other paragraph languages by text share."""
    main = record.get("language")
    out: dict[str, float] = {}
    if main:
        out[str(main)] = round(float(record.get("language_prob") or 0.0), 3)
    weights: dict[str, float] = {}
    total = 0
    for paragraph in record.get("paragraph_languages") or []:
        size = max(int(paragraph.get("end", 0)) - int(paragraph.get("start", 0)), 0)
        total += size
        lang = paragraph.get("lang")
        if lang and lang != main:
            weights[str(lang)] = weights.get(str(lang), 0.0) + size * float(paragraph.get("prob") or 0.0)
    for lang, weight in sorted(weights.items(), key=lambda kv: -kv[1]):
        out[lang] = round(weight / total, 3) if total else 0.0
    return list(out.items())


def seed_line(record: Mapping[str, Any], *, with_html: bool = True) -> str:
    """One article as one line of the seed format (with its newline)."""
    tokens, starts, ends = _tokens_in_c(record)
    c = " ".join(tokens)
    c_starts = list(accumulate((len(t) + 1 for t in tokens[:-1]), initial=0)) if tokens else []
    title_tokens = ["".join(str(t).split()) for t in record.get("title_tokens") or []]
    cols = [
        f"U:{flat(record.get('url'))}",
        f"D:{format_date(record.get('published_at')) or ''}",
        f"T:{' '.join(t for t in title_tokens if t)}",
        f"F:{flat(record.get('title'))}",
        f"C:{c}",
        f"H:{flat(record.get('html')) if with_html else ''}",
    ]
    for link in record.get("links") or []:
        if link.get("url"):
            span = _span_in_c(link.get("start"), link.get("length"), starts, ends, c_starts, c)
            cols.append(f"L:{span}:{flat(link['url'])}")
    for quote in record.get("quotes") or []:
        span = _span_in_c(quote.get("start"), quote.get("length"), starts, ends, c_starts, c)
        cols.append(f"Q:{span}:{flat(quote.get('text'))}")
    cols.extend(f"{lang}:{prob:g}" for lang, prob in languages(record))
    ratio = useful_ratio(str(record.get("text") or ""))
    cols.append(f"G:{ratio:g}:{int(ratio >= GOOD_RATIO)}")
    return "\t".join(cols) + "\n"


def _offsets(value: str) -> tuple[int | None, int | None, str]:
    start, _, rest = value.partition(":")
    length, _, tail = rest.partition(":")
    return (int(start) if start.isdigit() else None, int(length) if length.isdigit() else None, tail)


def read_seed_line(line: str) -> dict[str, Any]:
    """The fields of one seed-format line; unknown columns are kept in ``problems``."""
    record: dict[str, Any] = {"links": [], "quotes": [], "languages": [], "problems": []}
    for col in line.rstrip("\r\n").split("\t"):
        letter, _, value = col.partition(":")
        if letter in ("L", "Q"):
            start, length, tail = _offsets(value)
            key, name = ("links", "url") if letter == "L" else ("quotes", "text")
            record[key].append({"start": start, "length": length, name: tail})
        elif letter == "G":
            ratio, _, flag = value.partition(":")
            record["useful_ratio"], record["useful_flag"] = float(ratio or 0), flag == "1"
        elif letter in _SIMPLE:
            record[_SIMPLE[letter]] = value
        elif (match := _LANGUAGE.match(col)) is not None:
            record["languages"].append((match.group(1), float(match.group(2))))
        else:
            record["problems"].append(f"seedlines:unknown-column:{col[:20]}")
    record["published_at"] = stored_date(record["date"]) if record.get("date") else None
    record["tokens"] = record.get("text_tokenized", "").split(" ") if record.get("text_tokenized") else []
    record["title_tokens"] = (
        record.get("title_tokenized", "").split(" ") if record.get("title_tokenized") else []
    )
    return record


_SIMPLE = {"U": "url", "D": "date", "T": "title_tokenized", "F": "title", "C": "text_tokenized", "H": "html"}
