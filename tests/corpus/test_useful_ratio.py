"""The G field's useful-character ratio, counted in C, equals its per-character definition."""

from __future__ import annotations

import random
import unicodedata

import pytest

from sacorpus.corpus.seedlines import useful_ratio


def by_definition(text: str) -> float:
    """Letters, marks, digits, punctuation and separators (plus tab and newline) over all characters."""
    if not text:
        return 0.0
    good = sum(1 for ch in text if unicodedata.category(ch)[0] in "LMNPZ" or ch in "\n\t")
    return round(good / len(text), 3)


ALPHABET = "abc XYZ 019 .,;!? $+<=>^`|~ \t\n\r\x00\x07\x7f \u00a0 é ß ü € £ © ® ° — “ ” ´ ¨ 🙂 ♥ ☃ ∑ ∞ ︎ \u200b \ufeff 中 ה"


@pytest.mark.parametrize("seed", range(20))
def test_ratio_equals_the_definition(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 3000)))
    assert useful_ratio(text) == by_definition(text)


def test_known_ratios() -> None:
    assert useful_ratio("") == 0.0
    assert useful_ratio("Plain words, and 3 numbers.\n") == 1.0
    assert useful_ratio("$$$$") == 0.0
    assert useful_ratio("ab€€") == 0.5  # the euro sign is a symbol
