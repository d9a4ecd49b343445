from __future__ import annotations

import pytest

from sacorpus.text.annotate import find_links, find_quotes


def spans(text: str) -> list[tuple[str, str, str]]:
    return [(q["style"], q["text"], text[q["start"] : q["start"] + q["length"]]) for q in find_quotes(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('He said "we will win" today.', [("double", "we will win", '"we will win"')]),
        ("She called it 'a disaster' twice.", [("single", "a disaster", "'a disaster'")]),
        ("“We will win,” he said.", [("curly_double", "We will win,", "“We will win,”")]),
        ("He called it ‘a disaster’.", [("curly_single", "a disaster", "‘a disaster’")]),
        ("Il a dit «non» hier.", [("guillemets", "non", "«non»")]),
        ("Er sagte »nein« gestern.", [("guillemets_reversed", "nein", "»nein«")]),
        ("Er sagte „nein“ gestern.", [("low_double", "nein", "„nein“")]),
        ("Er sagte ‚nein‘ gestern.", [("low_single", "nein", "‚nein‘")]),
        ("Hy het gesê „ons gaan” nie.", [("low_double", "ons gaan", "„ons gaan”")]),
    ],
)
def test_every_quote_style(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert spans(text) == expected


def test_nested_quotes_are_both_found() -> None:
    text = "He said: \"They told me 'never again' twice.\""
    assert spans(text) == [
        ("double", "They told me 'never again' twice.", "\"They told me 'never again' twice.\""),
        ("single", "never again", "'never again'"),
    ]
    text = "“She said ‘no’ to me,” he recalled."
    assert [s for s, _, _ in spans(text)] == ["curly_double", "curly_single"]


@pytest.mark.parametrize(
    "text",
    [
        'Cut a 4" x 4" post and a 2" pipe.',
        "It's the players' kit and the boss's car.",
        "Dit is 'n mooi dag en 's middags reën dit.",
        "An unclosed “quote that never ends",
        'A line that ends with a mark"',
    ],
)
def test_no_false_quotes(text: str) -> None:
    assert find_quotes(text) == []


def test_inches_inside_a_real_quote() -> None:
    text = 'The builder said "use 4" x 4" posts" firmly.'
    assert ("double", 'use 4" x 4" posts', '"use 4" x 4" posts"') in spans(text)


def test_quotes_never_cross_a_paragraph_and_offsets_are_global() -> None:
    text = 'First line with "an open quote\nsecond line" and then "a real one".'
    found = find_quotes(text)
    assert [(q["text"], q["start"]) for q in found] == [("a real one", text.index('"a real one"'))]


def test_links_from_anchors_in_order_with_offsets() -> None:
    text = "The report was published.\nRead the report here and the statement there."
    anchors = [
        ("the report", "https://example.org/r1"),
        ("the statement", "https://example.org/s"),
        ("", "https://example.org/img"),
        ("The report", "https://example.org/r2"),
    ]
    links = find_links(text, anchors)
    assert links == [
        {"url": "https://example.org/r2", "start": 0, "length": 10, "text": "The report"},
        {"url": "https://example.org/r1", "start": 31, "length": 10, "text": "the report"},
        {"url": "https://example.org/s", "start": 51, "length": 13, "text": "the statement"},
        {"url": "https://example.org/img", "start": 64, "length": 0, "text": ""},
    ]
    for link in links:
        assert text[link["start"] : link["start"] + link["length"]] == link["text"]


def test_repeated_anchor_text_takes_successive_occurrences() -> None:
    text = "Budget: see the budget speech. Budget: see the budget speech again."
    links = find_links(
        text, [("budget speech", "https://a.example/1"), ("budget speech", "https://a.example/2")]
    )
    assert [link["start"] for link in links] == [16, 47]


def test_anchor_whitespace_differs_from_text() -> None:
    text = "The minister of\nfinance spoke; the minister of finance left."
    links = find_links(text, [("minister  of finance", "https://x.example/m")])
    assert links == [{"url": "https://x.example/m", "start": 4, "length": 19, "text": "minister of\nfinance"}]


def test_anchor_not_in_text_is_left_out() -> None:
    assert find_links("Plain text only.", [("Subscribe", "https://x.example/s")]) == []


def test_plain_text_urls_and_emails() -> None:
    text = (
        "See https://www.gov.za/speeches?id=5. Or www.sanews.gov.za, iol.co.za/news and ask info@gcis.gov.za."
    )
    links = find_links(text)
    assert [(link["url"], link["text"]) for link in links] == [
        ("https://www.gov.za/speeches?id=5", "https://www.gov.za/speeches?id=5"),
        ("http://www.sanews.gov.za", "www.sanews.gov.za"),
        ("http://iol.co.za/news", "iol.co.za/news"),
        ("mailto:info@gcis.gov.za", "info@gcis.gov.za"),
    ]
    for link in links:
        assert text[link["start"] : link["start"] + link["length"]] == link["text"]


def test_anchor_that_is_a_url_is_not_doubled() -> None:
    text = "Details at www.gov.za today."
    links = find_links(text, [("www.gov.za", "https://www.gov.za/")])
    assert links == [{"url": "https://www.gov.za/", "start": 11, "length": 10, "text": "www.gov.za"}]
