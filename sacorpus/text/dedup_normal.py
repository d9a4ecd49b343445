"""An article's text normalised once for its text hash and all of its sentences.

Why: dedup hashes the normalised whole text (exact copies) and each normalised sentence; done apart,
the text went through NFKC, case folding and the punctuation regex twice, which was most of the time
a fingerprint took. Here each character is normalised on its own (from a table of the Basic
Multilingual Plane, built once) and the whole text's normal form and every sentence's are read from
the one result by position.

That gives exactly :func:`sacorpus.text.dedup_hashing.normalize_text`'s values when NFKC works
character by character, which holds when every character's decomposition starts with a starter that
never composes with the character before it (not a combining mark, not in :data:`SECOND_STARTERS`):
reordering and composition then never cross from one character to the next. Case folding is
character by character, and so is the punctuation class (a run becoming one space or a space each is
the same once spaces are collapsed). A text with any other character (outside the BMP, a combining
mark, a lone surrogate) is left to the two-pass path: :func:`normalized_once` gives None.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np

#: a character that is neither word nor space (``dedup_hashing._NON_WORD``, one character at a time)
_NON_WORD_CHAR = re.compile(r"[^\w\s]", re.UNICODE)
_BMP = 0x10000
#: starters (combining class 0) that compose with the character before them: the second halves of
#: canonical pairs (Indic vowel signs, ...; tests/dedup/test_dedup_normal.py derives the list from
#: unicodedata) and Hangul medial vowels and final consonants
SECOND_STARTERS = frozenset(
    (
        *(0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57),
        *(0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35, 0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA),
        *(0x114BD, 0x115AF, 0x11930, *range(0x1161, 0x1176), *range(0x11A8, 0x11C3)),
    )
)
#: in the code table: a character that is not normalised on its own (or not to one character)
_NOT_ONE = np.uint32(0xFFFFFFFF)


# A simple sentence splitter for standalone use. For dedup, what matters is that two copies of a text
# split the same way whatever their line layout, not linguistic accuracy: split after every end
# punctuation (with closing quotes) followed by white space, after a CJK full stop, and at line breaks.
SENT_SPLIT = re.compile(r"(?<=[.!?…])[\"'”’»)\]]*\s+|(?<=[。！？])\s*|\s*\n\s*")


def char_normal(ch: str) -> str | None:
    """A character's normal form on its own (NFKC, case folded, punctuation as spaces), or None when
    it is not normalised on its own (see the module's docstring)."""
    if 0xD800 <= ord(ch) <= 0xDFFF:
        return None
    first = unicodedata.normalize("NFKD", ch)[:1]
    if not first or unicodedata.combining(first) or ord(first) in SECOND_STARTERS:
        return None
    folded = unicodedata.normalize("NFKC", ch).casefold()
    normal = "".join(" " if _NON_WORD_CHAR.match(x) else x for x in folded)
    return " " if normal.isspace() else normal  # "…" -> "   ": one space is the same once collapsed


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
    """Per BMP code point: its normal form's code point when that is one character (else _NOT_ONE)
    and its length (0: not normalised on its own); and the normal forms of more than one character
    (ß -> ss), by code point. Built once, in about a tenth of a second; the forms of one character
    are not kept as strings (65,536 of them held 3.7 MB in every process that labels duplicates)."""
    normals = [char_normal(chr(cp)) for cp in range(_BMP)]
    codes = np.fromiter(
        (ord(n) if n is not None and len(n) == 1 else _NOT_ONE for n in normals), dtype=np.uint32, count=_BMP
    )
    lengths = np.fromiter((len(n or "") for n in normals), dtype=np.int64, count=_BMP)
    longer = {cp: n for cp, n in enumerate(normals) if n is not None and len(n) > 1}
    return codes, lengths, longer


def sentence_spans(text: str, offsets: Sequence[Sequence[int]] | None = None) -> list[tuple[int, int]]:
    """Where :func:`sacorpus.text.dedup_hashing.split_sentences`'s sentences are in ``text``.

    The tokenizer's ``[start, end]`` offsets when given (split again at line breaks), else the regex
    splitter; pieces that are only white space are left out.
    """
    if not text:
        return []
    if offsets:
        out: list[tuple[int, int]] = []
        for pair in offsets:
            try:
                start, end = int(pair[0]), int(pair[1])
            except (TypeError, ValueError, IndexError):
                continue
            if not 0 <= start < end <= len(text):
                continue
            if text.find("\n", start, end) >= 0:
                out.extend(_line_spans(text, start, end))
            elif not text[start:end].isspace():
                out.append((start, end))
        if out:
            return out
    spans, at = [], 0
    for match in SENT_SPLIT.finditer(text):
        spans.append((at, match.start()))
        at = match.end()
    spans.append((at, len(text)))
    return [(s, e) for s, e in spans if s < e and not text[s:e].isspace()]


def _line_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The lines of ``text[start:end]`` that are not only white space (a sentence spanning a
    paragraph break is two sentences)."""
    while True:
        cut = text.find("\n", start, end)
        stop = end if cut < 0 else cut
        if start < stop and not text[start:stop].isspace():
            yield start, stop
        if cut < 0:
            return
        start = cut + 1


def normalized_once(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[str]] | None:
    """(the whole text's normal form, each span's normal form), or None where normalising character
    by character would not give exactly what normalising each apart gives."""
    try:
        codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    except UnicodeEncodeError:  # a lone surrogate
        return None
    if not codes.size or int(codes.max()) >= _BMP:
        return None
    table, lengths, longer = _tables()
    mapped = table[codes]
    odd = np.flatnonzero(mapped == _NOT_ONE)  # characters whose normal form is not one character
    if not odd.size:  # positions stay
        flat = mapped.astype("<u4").tobytes().decode("utf-32-le")
        return " ".join(flat.split()), [" ".join(flat[s:e].split()) for s, e in spans]
    ends = np.cumsum(lengths[codes])
    if not lengths[codes[odd]].all():
        return None  # a character not normalised on its own
    out = np.empty(int(ends[-1]), dtype="<u4")
    one = mapped != _NOT_ONE
    out[ends[one] - 1] = mapped[one]
    for i in odd.tolist():  # few: ß -> ss, ½ -> 1 2, ...
        normal = longer[int(codes[i])]
        out[int(ends[i]) - len(normal) : int(ends[i])] = np.frombuffer(
            normal.encode("utf-32-le"), dtype="<u4"
        )
    flat = out.tobytes().decode("utf-32-le")
    at = [0, *ends.tolist()]  # where each character's normal form starts
    return " ".join(flat.split()), [" ".join(flat[at[s] : at[e]].split()) for s, e in spans]


__all__ = ["SECOND_STARTERS", "SENT_SPLIT", "char_normal", "normalized_once", "sentence_spans"]
