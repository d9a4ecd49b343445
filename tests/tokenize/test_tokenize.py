"""The tricky-sentence set: abbreviations, initials, times, dates, initialisms, glued sentences,
nested quotes, URLs, currency, contractions, non-English words. Expected outputs written by hand."""

from __future__ import annotations

import pytest

from sacorpus.text.tokenize import split_sentences, tokenize, tokenize_title, word_count

# (text, lang, expected sentences, expected tokens)
TRICKY = [
    ("Mr. Smith arrived.", "en", ["Mr. Smith arrived."], ["Mr.", "Smith", "arrived", "."]),
    (
        "Prof. J. Smith spoke at 3 p.m. on Jan. 5 about the U.S. economy.",
        "en",
        ["Prof. J. Smith spoke at 3 p.m. on Jan. 5 about the U.S. economy."],
        ["Prof.", "J.", "Smith", "spoke", "at", "3", "p.m.", "on", "Jan.", "5", "about", "the", "U.S.",
         "economy", "."],
    ),
    (
        "The meeting ends at 3 p.m. The minister will then leave.",
        "en",
        ["The meeting ends at 3 p.m.", "The minister will then leave."],
        ["The", "meeting", "ends", "at", "3", "p.m.", "The", "minister", "will", "then", "leave", "."],
    ),
    (
        "He lives in the U.S. His sister lives in Durban.",
        "en",
        ["He lives in the U.S.", "His sister lives in Durban."],
        ["He", "lives", "in", "the", "U.S.", "His", "sister", "lives", "in", "Durban", "."],
    ),
    (
        "The U.S. Supreme Court ruled.",
        "en",
        ["The U.S. Supreme Court ruled."],
        ["The", "U.S.", "Supreme", "Court", "ruled", "."],
    ),
    (
        '"I don\'t know," she said.The police arrived later.',
        "en",
        ['"I don\'t know," she said.', "The police arrived later."],
        ["``", "I", "do", "n't", "know", ",", "''", "she", "said", ".", "The", "police", "arrived", "later", "."],
    ),
    (
        "Eskom lost R1.5bn, or about 2.3% of revenue, in 2023.",
        "en",
        ["Eskom lost R1.5bn, or about 2.3% of revenue, in 2023."],
        ["Eskom", "lost", "R1.5bn", ",", "or", "about", "2.3", "%", "of", "revenue", ",", "in", "2023", "."],
    ),
    (
        "He said: \"They told me 'never again' twice.\"",
        "en",
        ["He said: \"They told me 'never again' twice.\""],
        ["He", "said", ":", "``", "They", "told", "me", "`", "never", "again", "'", "twice", ".", "''"],
    ),
    (
        "Visit https://www.gov.za/news?id=5&x=1 or email info@sanews.gov.za.",
        "en",
        ["Visit https://www.gov.za/news?id=5&x=1 or email info@sanews.gov.za."],
        ["Visit", "https://www.gov.za/news?id=5&x=1", "or", "email", "info@sanews.gov.za", "."],
    ),
    (
        "She can't, won't and shouldn't go... Really?!",
        "en",
        ["She can't, won't and shouldn't go...", "Really?!"],
        ["She", "ca", "n't", ",", "wo", "n't", "and", "should", "n't", "go", "...", "Really", "?", "!"],
    ),
    (
        "The colour of the organisation's logo changed.",
        "en",
        ["The colour of the organisation's logo changed."],
        ["The", "colour", "of", "the", "organisation", "'s", "logo", "changed", "."],
    ),
    (
        "“It’s over,” he said. ‘Maybe,’ she replied.",
        "en",
        ["“It’s over,” he said.", "‘Maybe,’ she replied."],
        ["``", "It", "'s", "over", ",", "''", "he", "said", ".", "`", "Maybe", ",", "'", "she", "replied", "."],
    ),
    (
        "The dept. of health, i.e. the ministry, acted.",
        "en",
        ["The dept. of health, i.e. the ministry, acted."],
        ["The", "dept.", "of", "health", ",", "i.e.", "the", "ministry", ",", "acted", "."],
    ),
    (
        "Uthe eGoli nakwaZulu-Natal kuzoba nezinguquko. UMongameli uzokhuluma kusasa.",
        "zu",
        ["Uthe eGoli nakwaZulu-Natal kuzoba nezinguquko.", "UMongameli uzokhuluma kusasa."],
        ["Uthe", "eGoli", "nakwaZulu-Natal", "kuzoba", "nezinguquko", ".", "UMongameli", "uzokhuluma", "kusasa", "."],
    ),
    (
        "Mnr. Van der Merwe het gesê dit is 'n groot dag vir Suid-Afrika.",
        "af",
        ["Mnr. Van der Merwe het gesê dit is 'n groot dag vir Suid-Afrika."],
        ["Mnr.", "Van", "der", "Merwe", "het", "gesê", "dit", "is", "'n", "groot", "dag", "vir", "Suid-Afrika", "."],
    ),
    (
        "Die V.S.A. en dr. Smit stem saam. “Ons is ’n span,” sê hy.",
        "af",
        ["Die V.S.A. en dr. Smit stem saam.", "“Ons is ’n span,” sê hy."],
        ["Die", "V.S.A.", "en", "dr.", "Smit", "stem", "saam", ".", "``", "Ons", "is", "'n", "span", ",", "''",
         "sê", "hy", "."],
    ),
    (
        "Umphathiswa uthe: \"Siza kuncedisa.\" Le ngxelo ipapashwe kwi-www.gov.za.",
        "xh",
        ["Umphathiswa uthe: \"Siza kuncedisa.\"", "Le ngxelo ipapashwe kwi-www.gov.za."],
        ["Umphathiswa", "uthe", ":", "``", "Siza", "kuncedisa", ".", "''", "Le", "ngxelo", "ipapashwe", "kwi",
         "-", "www.gov.za", "."],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "lang", "sentences", "tokens"), TRICKY, ids=[c[0][:30] for c in TRICKY])
def test_tricky_sentences(text: str, lang: str, sentences: list[str], tokens: list[str]) -> None:
    result = tokenize(text, lang)
    assert [text[a:b] for a, b in result.sentences] == sentences
    assert result.tokens == tokens
    assert_spans_are_honest(text, result)


QUOTE_TOKENS = {"``": {'"', "“", "„", "``"}, "''": {'"', "”", "''"}, "`": {"'", "‘", "‚"}}


def assert_spans_are_honest(text: str, result) -> None:
    assert len(result.offsets) == len(result.tokens)
    last = 0
    for token, (start, end) in zip(result.tokens, result.offsets, strict=True):
        assert last <= start < end <= len(text)
        source = text[start:end]
        if token in QUOTE_TOKENS:
            assert source in QUOTE_TOKENS[token]
        else:
            assert source.replace("’", "'") == token
        last = end
    for start, end in result.sentences:
        assert "\n" not in text[start:end]
        assert text[start:end] == text[start:end].strip()


def test_sentences_never_cross_a_line() -> None:
    text = "Line one ends here\n\n  Line two. Line three.  \nMr.\nSmith"
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "Line one ends here", "Line two.", "Line three.", "Mr.", "Smith",
    ]  # fmt: skip
    assert_spans_are_honest(text, tokenize(text))


def test_offsets_into_a_multi_paragraph_text() -> None:
    text = "First paragraph here.\nSecond one, with “quotes” and ‘more’.\n"
    result = tokenize(text)
    assert_spans_are_honest(text, result)
    assert result.sentences == [(0, 21), (22, 59)]
    assert result.tokens == ["First", "paragraph", "here", ".", "Second", "one", ",", "with", "``", "quotes", "''",
                             "and", "`", "more", "'", "."]  # fmt: skip
    assert result.offsets[8] == (text.index("“"), text.index("“") + 1)
    assert result.offsets[-2] == (text.index("’"), text.index("’") + 1)


@pytest.mark.parametrize("text", ["", "   \n \n", "...", '"', "‘", "x" * 30_000, "a\u0000b c\ud800d."])
def test_odd_input_does_not_crash(text: str) -> None:
    result = tokenize(text)
    assert_spans_are_honest(text, result)


def test_long_paragraph_is_bounded() -> None:
    text = "Word. " * 5_000  # one 30,000-character line: cut at whitespace, nothing lost
    result = tokenize(text)
    assert result.token_count == 10_000
    assert result.word_count == 5_000


def test_title_tokens() -> None:
    assert tokenize_title('Ramaphosa: "We won\'t back down"', "en") == [
        "Ramaphosa", ":", "``", "We", "wo", "n't", "back", "down", "''",
    ]  # fmt: skip
    assert tokenize_title("  Uhulumeni  uthi:\n‘Sizoqhubeka’ ", "zu") == [
        "Uhulumeni",
        "uthi",
        ":",
        "`",
        "Sizoqhubeka",
        "'",
    ]
    assert tokenize_title("", "en") == []


def test_word_count_skips_punctuation_and_quotes() -> None:
    assert word_count(["``", "Hello", ",", "''", "R1.5bn", "...", "2023", "n't"]) == 4
