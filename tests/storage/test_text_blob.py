"""The SQLite row's title and text in a blob of their own: a query of columns, text and tokens reads no
JSON document and gives what the whole record gives; rows that keep their text inside the document
(the layout before, a record whose tokens could not be packed) read the same; ``compact`` moves them.

Why: search and KWIC at 100,000 articles spent most of their time decoding documents they did not need.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sacorpus.corpus.kwic import KWIC_FIELDS
from sacorpus.corpus.search import SEARCH_FIELDS
from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.layout import pack_document, unpack_document
from sacorpus.storage.layout_text import join_text, pack_text, unpack_text
from sacorpus.storage.maintenance import compact
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.storage.sqlite_reads import LEAN_FIELDS, RowReader

TEXT = "Water cuts in Soweto – ’n nuwe pyp. “Water is life,” she said."
TOKENS = [
    "Water",
    "cuts",
    "in",
    "Soweto",
    "–",
    "’n",
    "nuwe",
    "pyp",
    ".",
    "``",
    "Water",
    "is",
    "life",
    ",",
    "''",
]


def _offsets(text: str, tokens: list[str]) -> list[list[int]]:
    out, at = [], 0
    for token in tokens:
        token = {"``": "“", "''": "”"}.get(token, token)
        start = text.index(token, at)
        out.append([start, start + len(token)])
        at = start + len(token)
    return out


def records() -> list[dict[str, Any]]:
    base = {"publication": "mg", "language": "en", "published_at": "2024-03-01T10:00:00Z"}
    return [
        {**base, "url": "https://t/1", "fetched_at": "1", "title": "Water – ümlaut", "text": TEXT,
         "tokens": TOKENS, "token_offsets": _offsets(TEXT, TOKENS), "links": [{"url": "https://x/"}]},
        {**base, "url": "https://t/2", "fetched_at": "2", "title": None, "text": TEXT, "tokens": TOKENS},
        {**base, "url": "https://t/3", "fetched_at": "3", "text": None, "tokens": [], "token_offsets": []},
        {**base, "url": "https://t/4", "fetched_at": "4", "title": "t", "text": "", "dedup_label": None},
        {**base, "url": "https://t/5", "fetched_at": "5", "title": "Damaged", "text": TEXT,
         "tokens": ["a\x00b"], "token_offsets": [[0, 1]]},  # not packable: kept inside the document
    ]  # fmt: skip


def _as_read(record: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """What a reader sees of a record (``get``); token spans as the tokens they give."""
    out = {k: record.get(k) for k in fields if k != "token_spans"}
    spans = record.get("token_spans")
    if spans is not None:
        out["tokens"] = spans.tokens(0, len(spans))
        out["token_offsets"] = [[spans.start(i), spans.end(i)] for i in range(len(spans))]
    return out


def _queried(store: SQLiteStore, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    got = list(store.query_articles(StoreFilter(), [*fields, "publication", "language"]))
    return [_as_read(r, fields) for r in got]


def _to_layout_before(path: Path) -> None:
    """Every row as the layout before wrote it: title and text inside the document, no text_z."""
    conn = sqlite3.connect(path)
    for url, data, blob in conn.execute("SELECT url, data, text_z FROM articles").fetchall():
        doc = join_text(unpack_document(data), blob)
        conn.execute("UPDATE articles SET data=?, text_z=NULL WHERE url=?", (pack_document(doc), url))
    conn.commit()
    conn.close()


FIELD_SETS = [SEARCH_FIELDS, KWIC_FIELDS, ("url", "tokens"), ("url", "title", "links")]


@pytest.mark.parametrize("fields", FIELD_SETS, ids=["search", "kwic", "tokens", "document"])
def test_lean_reads_equal_whole_records_in_both_layouts(tmp_path: Path, fields: tuple[str, ...]) -> None:
    path = tmp_path / "s.sqlite"
    wanted = [_as_read(r, tuple(f for f in fields if f != "token_spans")) for r in records()]
    for record, expected in zip(records(), wanted, strict=True):
        if "token_spans" in fields:  # the record's token lists, as the spans give them
            expected["tokens"], expected["token_offsets"] = record.get("tokens"), record.get("token_offsets")
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles(records())
        whole = [_as_read(store.get(r["url"]) or {}, fields) for r in records()]
        assert [r["url"] for r in whole] == [r["url"] for r in records()]
        assert RowReader(fields).lean == (set(fields) <= LEAN_FIELDS)
        lean = _queried(store, fields)
    _to_layout_before(path)
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        before = _queried(store, fields)
        assert [_as_read(store.get(r["url"]) or {}, fields) for r in records()] == whole
    for got in (lean, before):
        for row, expected in zip(got, wanted, strict=True):
            for key, value in expected.items():
                assert _empty_as_none(key, row.get(key)) == _empty_as_none(key, value), (row["url"], key)


def _empty_as_none(key: str, value: Any) -> Any:
    """Token lists read the same empty or missing (a packed blob does not say which it was)."""
    return None if key in ("tokens", "token_offsets") and not value else value


def test_text_blob_round_trip_and_compact_moves_older_rows(tmp_path: Path) -> None:
    doc = {"url": "u", "title": "T – ü", "text": TEXT, "x": 1}
    blob = pack_text(doc)
    assert blob is not None and doc == {
        "url": "u",
        "title": None,
        "text": None,
        "x": 1,
        "_packed": ["title", "text"],
    }
    assert unpack_text(blob) == {"title": "T – ü", "text": TEXT}
    assert list(join_text(doc, blob)) == ["url", "title", "text", "x"]  # the keys in their order
    assert pack_text({"title": None}) is None
    path = tmp_path / "s.sqlite"
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles(records())
    _to_layout_before(path)
    with SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl")) as store:
        assert compact(store) == len(records())
        with store._cursor() as cur:
            moved = cur.execute("SELECT url FROM articles WHERE text_z IS NULL").fetchall()
        assert moved == [("https://t/3",)]  # the one without a title or text string
        for record in records():
            got = store.get(record["url"])
            assert got is not None and all(got.get(k) == v for k, v in record.items())
