"""The batched hashing gives exactly the stored hashes: one article's sentences normalised and
SimHashed together must equal each sentence done on its own (the index keeps these values)."""

from __future__ import annotations

import random
import re
import unicodedata

import numpy as np
import pytest

from sacorpus.text.dedup_hashing import (
    hash64,
    normalize_lines,
    normalize_text,
    sentence_features,
    simhash64,
    simhashes,
    split_sentences,
)

# combining marks, ligatures, compatibility forms, case folds that change length, scripts without
# spaces, odd white space and closing punctuation: what could make a sentence's form depend on its
# neighbours
ALPHABET = (
    "ae \u0301\u0308\ufb01\u2026\u00df\u0130\u0131\u03a3\u03c3\u03c2\u3000\u00a0\r\t\x0b\x1c\u2028"
    "!?.\u3002\uff0c\u4e2d\u6587\u65e5\u672c\u0e44\u0e17\u0e22\n'\"\u201d\u00bb)\u01c4\u2460\u216b\uff21\u1e9e"
)


def reference_normalize(text: str) -> str:
    """The definition: NFKC, case fold, every non-word character a space, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def reference_simhash(norm: str) -> int:
    """The definition: a bit is set where more than half of the words' 64-bit hashes set it."""
    words = norm.split()
    if len(words) <= 2 and len(norm) >= 8 and re.search("[\u3400-\u9fff\u0e00-\u0e7f]", norm):
        joined = norm.replace(" ", "")
        words = [joined[i : i + 2] for i in range(len(joined) - 1)]
    if not words:
        return 0
    counts = [0] * 64
    for word in words:
        h = hash64(word) & 0xFFFFFFFFFFFFFFFF
        for bit in range(64):
            counts[bit] += (h >> (63 - bit)) & 1
    value = sum(1 << (63 - bit) for bit in range(64) if counts[bit] > len(words) / 2)
    return value - (1 << 64) if value >= 1 << 63 else value


def random_texts(n: int) -> list[str]:
    rng = random.Random(7)
    texts = ["", "\n", "a" * 30]
    for _ in range(n):
        texts.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 200))))
    return texts


@pytest.mark.parametrize("text", random_texts(300))
def test_batched_normalisation_and_simhash_equal_the_definition(text: str) -> None:
    assert normalize_text(text) == reference_normalize(text)
    lines = text.split("\n")
    assert normalize_lines(lines) == [reference_normalize(line) for line in lines]
    norms = [reference_normalize(s) for s in split_sentences(text)]
    assert simhashes(norms) == [reference_simhash(n) for n in norms]
    features = sentence_features(text, min_chars=3)
    expected = {}
    for norm in norms:
        if len(norm) >= 3:
            expected.setdefault(hash64(norm), (len(norm), reference_simhash(norm)))
    assert features == expected


def test_a_sentence_with_line_breaks_is_normalised_on_its_own() -> None:
    assert normalize_lines(["One,\nTwo", "", "Thr\u00e9e!"]) == ["one two", "", "thr\u00e9e"]
    assert normalize_lines([]) == []


def test_simhash_values_are_the_stored_ones() -> None:
    """Pinned: the index keeps these values, so a change of the hashing would need a rebuild."""
    english = normalize_text(
        "The minister announced on Tuesday that 300 new clinics would open in Limpopo next year"
    )
    chinese = normalize_text(
        "\u5357\u975e\u603b\u7edf\u4eca\u5929\u5ba3\u5e03\u65b0\u7684\u7535\u529b\u8ba1\u5212"
    )
    assert simhash64(english) == 2283476074164004606
    assert simhash64(chinese) == 8982212838134185129
    assert simhashes([english, "", chinese]) == [2283476074164004606, 0, 8982212838134185129]


def test_long_sentences_do_not_overflow_the_bit_counts() -> None:
    """More than 255 words in one sentence: the per-bit counts must not wrap around."""
    words = [f"w{i}" for i in range(600)]
    norm = " ".join(words)
    assert simhashes([norm, "short one here"]) == [
        reference_simhash(norm),
        reference_simhash("short one here"),
    ]
    assert np.iinfo(np.uint8).max < len(words)
