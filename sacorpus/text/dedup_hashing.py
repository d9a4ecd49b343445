"""Near-duplicate detection, the hashing part: text and URLs to comparable keys (pure functions).

Why its own module: normalising, sentence splitting, hashing and URL keys are the stable vocabulary
of dedup (the benchmark, the tokenizer tests and the index all use them); the scoring and the label
rules (``sacorpus.text.dedup_scoring``, ``sacorpus.text.dedup``) change more often.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import urlsplit

import numpy as np

from sacorpus.sources.urls import canonicalize
from sacorpus.text.dedup_normal import normalized_once, sentence_spans

#: a run of characters that are neither word nor space: one space for the run or one per character
#: gives the same text once spaces are collapsed, and one replacement per run is cheaper
_NON_WORD = re.compile(r"[^\w\s]+", re.UNICODE)
_UNSPACED = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u0e00-\u0e7f\u1000-\u109f\u1780-\u17ff]")
_ID_TOKEN = re.compile(r"^(\d+|[0-9a-f]{6,}|[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*)$", re.I)


def normalize_text(text: str) -> str:
    """Case-, accent-form-, punctuation- and whitespace-insensitive form used for hashing.

    ``str.split()`` splits at exactly the characters ``\\s`` matches (``str.isspace``), so joining
    its words with one space is the regex collapse and strip, without a second pass over the text.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NON_WORD.sub(" ", text).split())


def normalize_lines(lines: Sequence[str]) -> list[str]:
    """:func:`normalize_text` of each line (no line may contain a line break), in one pass.

    Why one pass: an article has dozens of sentences, and three calls per sentence cost more than
    the work itself. A line feed is a stable code point (it never composes, decomposes or changes
    case, and no character normalises to one), so normalising the lines joined by line feeds and
    splitting there gives each line's own normal form; lines that do contain one are done apart.
    """
    joined = "\n".join(lines)
    if joined.count("\n") != max(len(lines) - 1, 0):
        return [normalize_text(line) for line in lines]
    text = _NON_WORD.sub(" ", unicodedata.normalize("NFKC", joined).casefold())
    return [" ".join(part.split()) for part in text.split("\n")] if lines else []


def hash64(text: str) -> int:
    """A 64-bit hash as a *signed* int64, so SQLite INTEGER and BSON int64 both hold it."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


def text_hash(text: str | None) -> str | None:
    """Hash of the whole normalised text (exact duplicates); None for empty text."""
    return _digest(normalize_text(text)) if text else None


def _digest(norm: str) -> str | None:
    return hashlib.blake2b(norm.encode("utf-8"), digest_size=16).hexdigest() if norm else None


class _WordHashes(dict[str, int]):
    """Words' 64-bit hashes, unsigned, kept for the next sentences (news vocabulary repeats).

    Why a dict and not ``functools.lru_cache``: ``map(cache.__getitem__, words)`` runs in C (only a new word
    calls back into Python), about half the cost of a cached call per word; it is emptied when it reaches ``limit`` words, so it stays bounded.
    """

    limit = 65536

    def __missing__(self, word: str) -> int:
        if len(self) >= self.limit:
            self.clear()
        value = self[word] = hash64(word) & 0xFFFFFFFFFFFFFFFF
        return value


_WORD_HASHES = _WordHashes()


def simhash64(norm_sentence: str) -> int:
    """64-bit SimHash of a normalised sentence's words (signed int64; 0 for no words).

    Two wordings of one sentence that differ in a word or two are a few bits apart; unrelated
    sentences about 32 bits apart (measured on real news text: 14 bits separates 89% of two-word
    rewordings from all but 0.05% of unrelated pairs). A bit is set where more than half of the
    words' hashes set it; the bits are counted in one numpy pass (counting them a column of 0/1
    characters at a time was most of the time ``scrapy dedup --rebuild`` took).
    """
    return simhashes([norm_sentence])[0]


def _simhash_words(norm_sentence: str) -> list[str]:
    words = norm_sentence.split()
    if len(words) <= 2 and len(norm_sentence) >= 8 and _UNSPACED.search(norm_sentence):
        # a script written without spaces: its "words" are character bigrams (a reworded sentence
        # still shares most of them, as a reworded English sentence shares most words)
        text = norm_sentence.replace(" ", "")
        words = [text[i : i + 2] for i in range(len(text) - 1)]
    return words


def simhashes(norm_sentences: Sequence[str]) -> list[int]:
    """:func:`simhash64` of each normalised sentence, all in one numpy pass.

    Why together: the per-call cost of the numpy steps was most of the time of a sentence's SimHash
    (an article has dozens); the bits of every word of every sentence are unpacked at once and
    summed per sentence with ``reduceat`` (sentences without words take no part and keep 0).
    """
    words = [_simhash_words(s) for s in norm_sentences]
    sizes = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    out = [0] * len(words)
    filled = np.flatnonzero(sizes)
    if not len(filled):
        return out
    flat = [w for ws in words for w in ws]
    hashes = np.fromiter(map(_WORD_HASHES.__getitem__, flat), dtype=">u8", count=len(flat))
    bits = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1)
    counts = np.add.reduceat(bits, (np.cumsum(sizes) - sizes)[filled], axis=0, dtype=np.int64)
    packed = np.packbits(counts > sizes[filled, None] / 2, axis=1)
    for i, value in zip(filled.tolist(), packed.view(">i8").ravel().tolist(), strict=True):
        out[i] = value
    return out


def split_sentences(text: str, offsets: Sequence[Sequence[int]] | None = None) -> list[str]:
    """Sentences of ``text``: from the tokenizer's ``[start, end]`` offsets when given (split again at
    line breaks), else the regex splitter (where: :func:`sacorpus.text.dedup_normal.sentence_spans`)."""
    return [text[s:e] for s, e in sentence_spans(text, offsets)]


def sentence_hashes(
    text: str | None, offsets: Sequence[Sequence[int]] | None = None, min_chars: int = 20
) -> dict[int, int]:
    """Hash -> normalised length of every sentence at least ``min_chars`` long (normalised)."""
    return {h: n for h, (n, _s) in sentence_features(text, offsets, min_chars).items()}


def sentence_features(
    text: str | None,
    offsets: Sequence[Sequence[int]] | None = None,
    min_chars: int = 20,
    simhash: bool = True,
) -> dict[int, tuple[int, int]]:
    """Hash -> (normalised length, word SimHash or 0) of every long-enough sentence."""
    return _features(normalize_lines(split_sentences(text or "", offsets)), min_chars, simhash)


def text_features(
    text: str | None,
    offsets: Sequence[Sequence[int]] | None = None,
    min_chars: int = 20,
    simhash: bool = True,
) -> tuple[str | None, dict[int, tuple[int, int]]]:
    """(:func:`text_hash`, :func:`sentence_features`) of an article, the text normalised once where
    that gives the same values (:func:`sacorpus.text.dedup_normal.normalized_once`)."""
    text = text or ""
    spans = sentence_spans(text, offsets)
    once = normalized_once(text, spans) if text else None
    if once is None:
        norms = normalize_lines([text[s:e] for s, e in spans])
        return text_hash(text), _features(norms, min_chars, simhash)
    whole, norms = once
    return _digest(whole), _features(norms, min_chars, simhash)


#: normalised sentence -> (hash64, SimHash or None until asked), for the next copy of the sentence:
#: a syndicated story repeats its sentences across titles. Emptied when it reaches the limit: an entry
#: is about 400 bytes (the sentence, its hashes, the dict's slot), so 16,384 entries are about 6.5 MB
#: where 65,536 held 26 MB of a crawl's memory and filled only after some thousands of pages.
_SENTENCES: dict[str, list[int | None]] = {}
_SENTENCES_LIMIT = 16384


def _features(norms: Sequence[str], min_chars: int, simhash: bool) -> dict[int, tuple[int, int]]:
    known = _SENTENCES
    kept: dict[int, tuple[str, list[int | None]]] = {}
    for norm in norms:
        if len(norm) >= min_chars:
            entry = known.get(norm)
            if entry is None:
                if len(known) >= _SENTENCES_LIMIT:
                    known.clear()
                entry = known[norm] = [hash64(norm), None]
            kept.setdefault(int(entry[0] or 0), (norm, entry))
    if not simhash:
        return {h: (len(norm), 0) for h, (norm, _e) in kept.items()}
    missing = [entry for _norm, entry in kept.values() if entry[1] is None]
    if missing:
        new = simhashes([norm for norm, entry in kept.values() if entry[1] is None])
        for entry, value in zip(missing, new, strict=True):
            entry[1] = value
    return {h: (len(norm), int(entry[1] or 0)) for h, (norm, entry) in kept.items()}


# --- URL keys --------------------------------------------------------------------------------


def canonical_key(url: str | None) -> str | None:
    """A comparable form of a URL: the crawl's canonical URL (:func:`sacorpus.sources.urls.canonicalize`:
    no fragment, no tracking parameters, no AMP or mobile variant) without scheme, ``www.``, port and
    trailing slash, so http/https and www/bare copies of one address compare equal."""
    if not url or not url.strip():
        return None
    parts = urlsplit(canonicalize(url))
    host = (parts.hostname or "").lower()
    if not host or parts.scheme not in ("http", "https"):
        return None
    path = parts.path.rstrip("/") or "/"
    return f"{host.removeprefix('www.')}{path}" + (f"?{parts.query}" if parts.query else "")


def slug_key(url: str | None, min_words: int = 4) -> str | None:
    """Host + the words of the URL's slug with id-like tokens removed.

    Catches "same slug, changed article id" (``/story-title-20231012`` vs ``/story-title-20231015``,
    ``/a/12345/story-title`` vs ``/a/67890/story-title``). None when the URL has no slug of at least
    ``min_words`` words, so section pages and numeric-only URLs never match each other.
    """
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower().removeprefix("www.").removeprefix("m.")
    best: list[str] = []
    for segment in parts.path.split("/"):
        segment = re.sub(r"\.(html?|php|aspx?)$", "", segment.lower())
        words = [w for w in re.split(r"[-_]+", segment) if w and not _ID_TOKEN.match(w)]
        if len(words) > len(best):
            best = words
    if not host or len(best) < min_words:
        return None
    return f"{host}/{'-'.join(best)}"
