"""The compact row layout reads back exactly, and the SQLite index narrows by word parts without
losing a match."""

from __future__ import annotations

from pathlib import Path

import pytest

from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.layout import (
    ZSTD_MAGIC,
    LayoutError,
    compress,
    join_record,
    pack_document,
    split_record,
    unpack_body,
    unpack_document,
)
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.tokenize import tokenize


def roundtrip(record: dict) -> dict:
    doc, body, html, tokens = split_record(record)
    return join_record(unpack_document(pack_document(doc)), body, html, tokens)


@pytest.mark.parametrize(
    "text",
    [
        'He said "don\'t go" (today) – ’n mens, R100 and U.S. 1,000.',
        "",
        "x" * 70_000 + " far away word",  # offsets past 65535: the wide encoding
    ],
)
def test_tokens_and_offsets_read_back_exactly(text: str) -> None:
    done = tokenize(text)
    record = {
        "url": "u",
        "text": text,
        "tokens": done.tokens,
        "token_offsets": [list(o) for o in done.offsets],
    }
    assert roundtrip(record) == {**record, "body": None, "html": None}


def test_tokens_without_offsets_or_text_and_missing_fields_stay_as_they_were() -> None:
    record = {"url": "u", "text": None, "tokens": ["a", "b"], "token_offsets": []}
    assert roundtrip(record)["tokens"] == ["a", "b"]
    assert "tokens" not in roundtrip({"url": "u", "text": "t"})
    assert roundtrip({"url": "u", "tokens": [], "token_offsets": []})["tokens"] == []


def test_html_is_a_delta_of_its_body_and_needs_it() -> None:
    body = ("<html>" + "<p>Water in Soweto.</p>" * 500 + "</html>").encode("cp1252")
    doc, packed_body, html, _ = split_record({"url": "u", "body": body, "html": body.decode("cp1252")})
    assert html is not None and len(html) < 100
    assert join_record(dict(doc), packed_body, html, None)["html"] == body.decode("cp1252")
    with pytest.raises(LayoutError):
        join_record(dict(doc), None, html, None)


def test_index_narrows_by_word_parts_and_never_loses_a_match(tmp_path: Path) -> None:
    texts = {
        "https://t/1": "Wastewater plants in Soweto.",
        "https://t/2": "The land-reform bill passed.",
        "https://t/3": "Café culture, waterfront views.",
        "https://t/4": "Nothing relevant here.",
    }
    with SQLiteStore(str(tmp_path / "s.sqlite"), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles([{"url": u, "text": t, "title": ""} for u, t in texts.items()])

        def found(*subs: str) -> list[str]:
            return sorted(r["url"] for r in store.query_articles(StoreFilter(), ["url"], substrings=subs))

        assert found("ater") == ["https://t/1", "https://t/3"]  # inside words
        assert found("d-ref") == ["https://t/2"]
        assert found("water plants") == ["https://t/1"]
        assert found("zebra") == []
        assert found("é c") == ["https://t/3"]  # "c" starts a word
        assert found("é") == sorted(texts)  # no ASCII word part to narrow by: every article is checked


def test_body_is_packed_against_its_text_and_older_bodies_still_read() -> None:
    text = "Water cuts hit Soweto again as the reservoirs ran low over the long weekend. " * 8
    body = (
        "<html><body><article><p>" + text.replace(". ", ".</p><p>") + "</p></article></body></html>"
    ).encode()
    record = {"url": "u", "text": text, "body": body, "html": body.decode()}
    doc, body_z, html_z, tokens_z = split_record(record, 6)
    assert body_z is not None and body_z[:3] == b"BT1"
    plain = compress(body, 6)
    assert len(body_z) < len(plain)  # the text's sentences cost a reference each
    assert join_record(dict(doc), body_z, html_z, tokens_z)["body"] == body
    assert unpack_body(plain, None) == body  # a body stored before: no text needed
    with pytest.raises(LayoutError):
        unpack_body(body_z, None)
    short = split_record({"url": "u", "text": "Short.", "body": body}, 6)[1]
    assert short is not None and short[:4] == ZSTD_MAGIC and unpack_body(short, None) == body
