"""The U/D/T/F/C/L/Q line format: escaping, writing, and reading back what was written."""

from __future__ import annotations

import io

import pytest
from corpus_fixtures import corpus_records

from sacorpus.corpus.lineformat import (
    escape,
    format_date,
    format_record,
    parse_lineformat,
    stored_date,
    unescape,
)


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "two\nlines",
        "tab\there",
        "back\\slash",
        "literal \\n not a newline",
        "cr\r\nlf",
        "\\",
        "",
        "ü ñ 中",
    ],
)
def test_escape_round_trip(value: str) -> None:
    escaped = escape(value)
    assert "\n" not in escaped and "\t" not in escaped and "\r" not in escaped
    assert unescape(escaped) == value


def test_escape_is_unambiguous() -> None:
    # a real newline and a backslash followed by "n" must stay different
    assert escape("a\nb") != escape("a\\nb")
    assert escape("a\\nb") == "a\\\\nb"


def test_dates() -> None:
    assert format_date("2024-01-15T08:30:00Z") == "2024-01-15 08:30:00"
    assert format_date("2024-01-15T10:30:00+02:00") == "2024-01-15 08:30:00"  # converted to UTC
    assert format_date(None) is None
    assert format_date("sometime in May") == "sometime in May"
    assert stored_date("2024-01-15 08:30:00") == "2024-01-15T08:30:00Z"
    assert stored_date("sometime in May") == "sometime in May"


def test_record_layout() -> None:
    record = corpus_records()[0]
    block = format_record(record)
    lines = block.split("\n")
    assert block.endswith("\n\n")
    assert [line[:2] for line in lines if line] == ["U\t", "D\t", "T\t", "F\t", "C\t", "L\t", "Q\t"]
    assert lines[1] == "D\t2024-01-15 08:30:00"
    assert lines[3] == "F\tLand reform : debate continues | IOL"
    link = record["links"][0]
    assert f"L\t{link['start']}\t{link['length']}\t{link['url']}" in lines
    assert "H\t" not in block
    assert "\nH\t" in format_record(record, with_html=True)


def test_round_trip_of_every_record() -> None:
    records = corpus_records()
    written = "".join(format_record(record, with_html=True) for record in records)
    back = list(parse_lineformat(io.StringIO(written)))
    assert len(back) == len(records)
    for orig, got in zip(records, back, strict=True):
        assert got["url"] == orig["url"]
        assert got["published_at"] == orig["published_at"]
        assert got["title"] == orig["title"]
        assert got["title_tokens"] == orig["title_tokens"]
        assert got["text"] == orig["text"]
        assert got["html"] == orig["html"]
        assert got["links"] == [
            {k: lk[k] for k in ("start", "length", "url", "text")} for lk in orig["links"]
        ]
        assert got["quotes"] == [{k: q[k] for k in ("start", "length", "text")} for q in orig["quotes"]]
        assert got["problems"] == []
        # offsets still point at the right characters of the unescaped content
        for link in got["links"]:
            assert got["text"][link["start"] : link["start"] + link["length"]] == link["text"]


def test_bad_input_is_labelled_not_fatal() -> None:
    text = (
        "C\tcontent before any U\n"
        "\n"
        "U\thttps://a.example/1\n"
        "X\tunknown letter\n"
        "no tab at all\n"
        "L\tnot-a-number\t3\thttps://b.example\n"
        "L\t0\t999\thttps://c.example\n"
        "Q\t1\n"
        "U\thttps://a.example/2\n"
        "C\tsecond\r\n"
    )
    records = list(parse_lineformat(io.StringIO(text)))
    assert [r["url"] for r in records] == [None, "https://a.example/1", "https://a.example/2"]
    assert "lineformat:missing-U" in records[0]["problems"]
    first = records[1]
    assert {"lineformat:bad-line", "lineformat:bad-L-line", "lineformat:bad-Q-line"} <= set(first["problems"])
    assert "lineformat:link-out-of-range" in first["problems"]
    assert "lineformat:missing-blank-line" in first["problems"]
    assert first["links"][0]["url"] == "https://c.example" and first["links"][0]["text"] is None
    assert records[2]["text"] == "second"  # CRLF line end tolerated
