"""KWIC and collocations over tokens read on demand give exactly what they give over the full lists.

Why: the store hands a concordance the packed token blob (``TokenSpans``) so it finds matches in the
text and builds only the tokens around them; case folding, tokens that are not their text, characters
whose case folding is several letters and words that overlap themselves must all come out the same.
"""

from __future__ import annotations

import sqlite3
from bisect import bisect_left, bisect_right

import pytest

from sacorpus.corpus.collocations import CollocationCounter
from sacorpus.corpus.kwic import ASCII_FOLDS, kwic_hits, query_tokens
from sacorpus.storage.layout import SPAN_BLOCK, TokenSpans, pack_tokens
from sacorpus.storage.sqlite_index import narrowing_expression, token_expression

TEXT = (
    "The Water board said: “water is life”. WATER cuts in Straße and STRASSE hit the waters. "
    "They cannot say if aa aaa aa will end; the water, the water! Well-known water-works water. "
    "The ﬁre ﬁnal: no ﬁre. \u212aelvin and kelvin, İris."
)


def _tokenize(text: str) -> tuple[list[str], list[list[int]]]:
    """Tokens with offsets, a few that differ from their span (quotes, ``n't``-like splits)."""
    import re

    tokens: list[str] = []
    offsets: list[list[int]] = []
    for m in re.finditer(r"\w+(?:-\w+)*|[^\w\s]", text):
        word = m.group()
        if word == "cannot":  # split in two, as the Treebank tokenizer does
            tokens += ["can", "not"]
            offsets += [[m.start(), m.start() + 3], [m.start() + 3, m.end()]]
            continue
        tokens.append({"“": "``", "”": "''"}.get(word, word))
        offsets.append([m.start(), m.end()])
    return tokens, offsets


#: many blocks of offsets (``SPAN_BLOCK`` tokens each), matches across their boundaries
LONG = " ".join(f"{TEXT} {'x ' * (i % 7)}" for i in range(12))


def _records(text: str = TEXT) -> tuple[dict[str, object], dict[str, object]]:
    tokens, offsets = _tokenize(text)
    spans = TokenSpans.read(pack_tokens(tokens, offsets, text) or b"", text)
    assert spans is not None and spans.kept  # the quotes are kept as tokens
    lists = {"url": "u", "text": text, "tokens": tokens, "token_offsets": offsets}
    return lists, {"url": "u", "text": text, "tokens": [], "token_spans": spans}


def test_spans_read_on_demand_equal_the_lists() -> None:
    """Every token, offset and place lookup over many blocks equals the full lists' (bisect)."""
    lists, read = _records(LONG)
    spans = read["token_spans"]
    offsets = lists["token_offsets"]
    assert isinstance(spans, TokenSpans) and isinstance(offsets, list) and len(offsets) > 4 * SPAN_BLOCK
    starts = [o[0] for o in offsets]
    assert len(spans) == len(starts)
    assert [(spans.start(i), spans.end(i)) for i in reversed(range(len(spans)))] == [
        tuple(o) for o in reversed(offsets)
    ]
    assert spans.tokens(0, len(spans)) == lists["tokens"]
    for at in range(-1, len(LONG) + 2):
        assert spans.first_from(at) == bisect_left(starts, at)
        assert spans.last_at(at) == bisect_right(starts, at) - 1


@pytest.mark.parametrize(
    "phrase",
    [
        "water",
        "Water",
        "the water",
        "strasse",
        "straße",
        "aa",
        "can",
        "not",
        "``",
        "* water",
        "well-known",
        "fire",
    ],
)
@pytest.mark.parametrize("case_sensitive", [False, True])
@pytest.mark.parametrize("text", [TEXT, LONG], ids=["short", "long"])
def test_kwic_on_spans_equals_kwic_on_lists(phrase: str, case_sensitive: bool, text: str) -> None:
    lists, spans = _records(text)
    query = query_tokens(phrase)
    expected = list(kwic_hits(lists, query, width=20, case_sensitive=case_sensitive))
    got = list(kwic_hits(spans, query, width=20, case_sensitive=case_sensitive))
    assert got == expected
    if phrase in ("water", "the water", "strasse", "aa", "fire", "kelvin") and not case_sensitive:
        assert expected  # the cases that matter find something


@pytest.mark.parametrize("node", ["water", "Water", "the", "strasse"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("text", [TEXT, LONG], ids=["short", "long"])
def test_collocation_spans_equal_lists(node: str, lower: bool, text: str) -> None:
    lists, spans = _records(text)
    by_list = CollocationCounter(node=node, window=2, lower=lower)
    by_list.add_spans(lists["tokens"])  # type: ignore[arg-type]
    by_spans = CollocationCounter(node=node, window=2, lower=lower)
    by_spans.add_token_spans(spans["token_spans"])
    assert (by_spans.in_span, by_spans.node_freq, by_spans.span_size) == (
        by_list.in_span,
        by_list.node_freq,
        by_list.span_size,
    )


def test_tokens_are_asked_as_whole_words() -> None:
    """A token is a word of the index, never a fragment: ``the`` does not stand for ``there``."""
    assert token_expression(["the", "Water"]) == '("the") AND ("water")'
    assert token_expression(["well-known"]) == '("well") AND ("known")'
    assert token_expression(["can"]) == '("can" OR "cannot")'  # the tokenizer cuts it out of cannot
    assert token_expression(["straße", "``"]) is None  # left to the caller's check
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE fts_vocab (term TEXT PRIMARY KEY)")
    con.executemany("INSERT INTO fts_vocab VALUES (?)", [("water",), ("waters",)])
    cur = con.cursor()
    assert narrowing_expression(cur, ["ater"], ["the"]) == '("water" OR "waters") AND ("the")'
    assert narrowing_expression(cur, ["zebr"], ["the"]) == "\x00nothing"


def test_every_character_folding_to_ascii_letters_is_checked() -> None:
    """The characters outside ASCII whose case folding is all ASCII are those KWIC checks as tokens."""
    every = (chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    assert {c for c in every if c.casefold().isascii()} == set(ASCII_FOLDS)
