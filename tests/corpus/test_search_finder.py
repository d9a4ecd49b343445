"""The search's literal finder gives exactly the matches of ``finditer``: case folding of every Unicode
character, the few characters the lower case hides, patterns that start with a literal and those that
do not.

Why: ``search`` finds a literal with ``str.find`` over the lower-cased text (the regex engine has no
fast search when case is ignored); its hits, counts and snippets must stay those of the pattern.
"""

from __future__ import annotations

import re
import string

import pytest

from sacorpus.corpus.search import _OTHER_CASES, Finder, compile_pattern, search_record

TEXTS = [
    "Water, WATER and water-works: the waterfront’s water. Wasser, Straße.",
    "Dış İşler: the Iİıi issue, ſtreet signs and SS sizes; Kelvin \u212a and k.",
    "aaaa aaa a — “quotes” and ‘more’ Amp & amp; no match here",
    "",
    "x" * 5000 + " water " + "é" * 100 + "WaTeR",
]
PATTERNS = [
    ("water", False),
    ("Water", False),
    ("the water", False),
    ("is", False),
    ("ss", False),
    ("k", False),
    ("aa", False),
    ("“quotes”", False),
    ("é", False),
    (r"water\s+\w+", True),
    (r"\bwater\b", True),
    (r"^Water", True),
    (r"wa(ter|sser)", True),
    (r"(water)", True),
    (r"\d+", True),
    (r"a*", True),
    (r"(?i)WATER", True),
    (r"(?a)water", True),
    (r"iss?", True),
]


@pytest.mark.parametrize("case_sensitive", [False, True])
@pytest.mark.parametrize(("query", "regex"), PATTERNS)
def test_finder_equals_finditer(query: str, regex: bool, case_sensitive: bool) -> None:
    pattern = compile_pattern(query, regex=regex, case_sensitive=case_sensitive)
    found = Finder(pattern)
    for text in TEXTS:
        assert list(found.spans(text)) == [m.span() for m in pattern.finditer(text)], (query, text[:40])


def test_literal_patterns_use_the_fast_path() -> None:
    """The patterns that matter take the literal path (the check above would pass with none)."""
    assert Finder(compile_pattern("the water")).whole
    assert Finder(compile_pattern("Water", case_sensitive=True)).prefix == "Water"
    assert Finder(compile_pattern("ok")).hiding == "\u212a"
    regex = Finder(compile_pattern(r"\bwater\s+\w+", regex=True))
    assert regex.prefix == "water" and not regex.whole
    assert not Finder(compile_pattern(r"(water)", regex=True)).prefix


def test_the_hidden_cases_are_all_there() -> None:
    """Every character outside ASCII that ``re`` matches to an ASCII letter or digit ignoring case is in
    ``_OTHER_CASES`` (checked over all of Unicode): the lower-cased bytes show all the others."""
    every = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    for ch in string.ascii_lowercase + string.digits:
        hidden = {m.group() for m in re.finditer(re.escape(ch), every, re.IGNORECASE)}
        assert hidden == set(_OTHER_CASES.get(ch, "")), (ch, hidden)


def test_search_record_counts_and_snippet_as_before() -> None:
    record = {"url": "u", "title": "Water week", "text": TEXTS[0]}
    hit = search_record(record, compile_pattern("water"))
    assert hit is not None and hit.matches == 6 and hit.snippet.startswith("[Water]")
    assert search_record(record, compile_pattern("zebra")) is None
