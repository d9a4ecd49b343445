"""An article normalised once gives exactly the text hash and sentence values of normalising apart.

``sacorpus.text.dedup_normal`` reads the whole text's normal form and every sentence's from one
character-by-character pass; these prove it equal to ``normalize_text`` of each (or declined) on texts
built to break it: combining marks after sentence cuts, Hangul jamo, Indic vowel signs, ß, ellipses,
no-break spaces, Greek sigma, emoji, lone surrogates; and the starters it trusts against unicodedata.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata

import pytest

from sacorpus.text.dedup_hashing import (
    normalize_lines,
    normalize_text,
    sentence_features,
    split_sentences,
    text_features,
    text_hash,
)
from sacorpus.text.dedup_normal import (
    SECOND_STARTERS,
    SENT_SPLIT,
    char_normal,
    normalized_once,
    sentence_spans,
)

#: characters that interact with their neighbours under NFKC or case folding, or change length
TRICKY = (
    "e\u0301",
    "\u0301",
    "\u0316",
    "\u00b4",
    "\u1100",
    "\u1161",
    "\u11a8",
    "\uac00",
    "\u0b47",
    "\u0b3e",
    "\u0915\u093c",
    "ß",
    "ẞ",
    "İ",
    "ﬁ",
    "½",
    "…",
    "\u00a0",
    "\u2009",
    "Σ",
    "ς",
    "😀",
    "“",
    "”",
    "’",
    "。",
    "！",
    "\n",
    ". ",
    "? ",
    "! ",
    "Word",
    "ABC",
    "x",
    " ",
    "  ",
    "\t",
    "-",
    "_",
    "٣",
)


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(TRICKY) for _ in range(rng.randint(0, 40)))


def _offsets(text: str, rng: random.Random) -> list[list[int]] | None:
    if rng.random() < 0.4 or not text:
        return None
    cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(2, 8))))
    return [[a, b] for a, b in itertools.pairwise(cuts)] + [["bad"], [5, 2]]


def test_second_starters_are_what_unicodedata_says() -> None:
    """Every starter that is the second half of a canonical pair is in the list (Hangul apart)."""
    found = set()
    for cp in range(0x110000):
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            second = int(parts[1], 16)
            if not unicodedata.combining(chr(second)):
                found.add(second)
    hangul = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    assert found <= SECOND_STARTERS and SECOND_STARTERS - found == hangul


def test_sentence_spans_are_the_regex_split() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        text = _random_text(rng)
        expected = [s for s in SENT_SPLIT.split(text) if s and s.strip()] if text else []
        assert [text[s:e] for s, e in sentence_spans(text)] == expected, repr(text)


def test_normalised_once_is_normalised_apart() -> None:
    rng = random.Random(2)
    declined = 0
    for _ in range(4000):
        text = _random_text(rng)
        spans = sentence_spans(text, _offsets(text, rng))
        once = normalized_once(text, spans)
        if once is None:
            declined += 1
            continue
        assert once == (normalize_text(text), [normalize_text(text[s:e]) for s, e in spans]), repr(text)
    assert 0 < declined < 4000


@pytest.mark.parametrize(
    "text",
    [
        "Plain text. Two sentences here!\nA new line with “quotes” … and more.",
        "Straße und Fußball… Ein Satz.  Noch ein Satz, länger als zwanzig Zeichen.",
        "ΣΊΣΥΦΟΣ ΚΑΙ ΟΔΥΣΣΕΥΣ. Ένας ακόμη.",
        "Emoji 😀 in a sentence long enough to count. Another one right here too.",
        "e\u0301 cut inside. Café au lait is served here today.",
        "",
        "   \n  ",
    ],
)
def test_text_features_are_the_two_pass_values(text: str) -> None:
    for offsets in (None, [[0, min(len(text), 30)], [min(len(text), 30), len(text)]]):
        norms = [n for n in normalize_lines(split_sentences(text, offsets)) if len(n) >= 5]
        features = sentence_features(text, offsets, 5)
        assert sorted(n for n, _s in features.values()) == sorted(len(n) for n in dict.fromkeys(norms))
        assert text_features(text, offsets, 5) == (text_hash(text), features)


def test_a_character_normalised_on_its_own() -> None:
    assert char_normal("…") == " "
    assert char_normal("ß") == "ss"
    assert char_normal("A") == "a"
    assert char_normal("\u0301") is None  # a combining mark joins the character before it
    assert char_normal("\u1161") is None  # a Hangul vowel joins the consonant before it
    assert re.fullmatch(r"\s", char_normal("\u00a0") or "")
