"""``compact``: a store written in the older layout keeps reading, and is rewritten in place in the
compact layout (resumably) with every field of every article reading back equal; then its search
index and kept word counts answer. On SQLite and MongoDB."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest
from bson import Binary

from sacorpus.items import Article
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.counts import StoreFilter, is_word
from sacorpus.storage.maintenance import COMPACT_STATE, COUNTS, FTS, check_counts, compact
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.mongo import MongoServer

PAGE = (
    "<html><body>"
    + "".join(f"<p>Paragraph {i}: water in Soweto, ’n storie.</p>" for i in range(200))
    + "</body></html>"
)


def old_records() -> list[dict[str, Any]]:
    out = []
    for i in range(7):
        text = f"Article {i} about water in Soweto. Die water is skoon, ’n nuwe pyp." if i != 3 else ""
        tokens = text.replace(".", " .").replace(",", " ,").split()
        offsets, pos = [], 0
        for token in tokens:
            start = text.find(token.strip(), pos) if token not in (".", ",") else text.find(token, pos)
            offsets.append([start, start + len(token)])
            pos = start + len(token)
        rec = dataclasses.asdict(
            Article(
                url=f"https://old.example/{i}",
                publication="mg" if i % 2 else "news24",
                language="af" if i == 5 else "en",
                published_at=f"2023-0{1 + i % 3}-1{i}T10:00:00" if i != 6 else None,
                fetched_at=f"2024-01-01T00:00:0{i}",
                body=PAGE.encode("cp1252", "replace") if i != 4 else None,
                html=PAGE if i != 4 else None,
                text=text,
                title=f"Title {i} – ümlaut",
                tokens=tokens,
                token_offsets=offsets if i != 2 else [],  # an article with tokens but no offsets
                token_count=len(tokens),
                word_count=sum(1 for t in tokens if is_word(t)),
                dedup_label="duplicate" if i == 1 else "unique",
                links=[{"url": "https://x.example/", "start": 0, "length": 7, "text": "Article"}],
            )
        )
        out.append(rec)
    return out


OLD_SQLITE = """
CREATE TABLE articles (url TEXT PRIMARY KEY, publication TEXT, published_at TEXT, fetched_at TEXT NOT NULL
  DEFAULT '', language TEXT, dedup_label TEXT, text_hash TEXT, canonical_url TEXT, page_type TEXT,
  data TEXT NOT NULL, body BLOB);
CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
COLUMNS = (
    "url",
    "publication",
    "published_at",
    "fetched_at",
    "language",
    "dedup_label",
    "text_hash",
    "canonical_url",
    "page_type",
)


def write_old_sqlite(path: Path, records: list[dict[str, Any]]) -> None:
    """The first layout: the decoded HTML and the tokens in the JSON document, the body zlib'd."""
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SQLITE)
    for rec in records:
        data = json.dumps({k: v for k, v in rec.items() if k != "body"}, ensure_ascii=False)
        body = zlib.compress(rec["body"]) if rec["body"] is not None else None
        conn.execute(
            f"INSERT INTO articles VALUES ({','.join('?' * 11)})",
            (*[rec[c] or ("" if c == "fetched_at" else None) for c in COLUMNS], data, body),
        )
    conn.commit()
    conn.close()


def write_old_mongo(store: MongoStore, records: list[dict[str, Any]]) -> None:
    """Documents of the layout before: zlib'd body and HTML, tokens and offsets as arrays."""
    for rec in records:
        doc = {k: v for k, v in rec.items() if k not in ("body", "html")}
        doc["body_z"] = Binary(zlib.compress(rec["body"])) if rec["body"] is not None else None
        doc["html_z"] = Binary(zlib.compress(rec["html"].encode())) if rec["html"] is not None else None
        doc["_order"] = f"{rec['fetched_at']}\t{rec['url']}"
        store.db.articles.insert_one(doc)


@pytest.fixture(params=["sqlite", "mongo"])
def old_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    records = old_records()
    if request.param == "sqlite":
        path = tmp_path / "old.sqlite"
        write_old_sqlite(path, records)
        store: ArticleStore = SQLiteStore(str(path), spill_path=str(tmp_path / "spill.jsonl"))
        store.open()
    else:
        server: MongoServer = request.getfixturevalue("mongo_server")
        seed = MongoStore(server.uri, f"{server.database}_compact", spill_path=str(tmp_path / "s.jsonl"))
        seed.open()
        seed.drop()
        seed.close()
        seed.open()  # empty: marked indexed; the old documents then arrive behind its back
        seed.db.state.delete_many({})
        write_old_mongo(seed, records)
        seed.close()
        store = MongoStore(server.uri, f"{server.database}_compact", spill_path=str(tmp_path / "s.jsonl"))
        store.open()
    yield store, records
    if isinstance(store, MongoStore):
        store.drop()
    store.close()


def assert_equal(store: ArticleStore, records: list[dict[str, Any]]) -> None:
    for rec in records:
        got = store.get(rec["url"])
        assert got is not None
        for key, value in rec.items():
            assert got[key] == value, (rec["url"], key)


class Interrupted(Exception):
    pass


def test_old_store_reads_then_compacts_in_place_resumably(old_store: Any) -> None:
    store, records = old_store
    assert_equal(store, records)  # old stores keep reading
    assert not store.index_ready(COUNTS) and store.word_counts(StoreFilter()) is None

    def stop_after_first_batch(n: int) -> None:
        raise Interrupted

    with pytest.raises(Interrupted):
        compact(store, batch_size=3, progress=stop_after_first_batch)
    assert store.get_state(COMPACT_STATE)["done"] == 3  # the first batch is kept
    steps: list[int] = []
    assert compact(store, batch_size=3, progress=steps.append) == len(records)
    assert steps == [3, 1]  # resumed after the first batch
    assert_equal(store, records)
    assert store.index_ready(FTS) and store.index_ready(COUNTS) and check_counts(store) == []
    kept = store.word_counts(StoreFilter(publications=("mg",)))
    assert kept is not None and kept.counts["Soweto"] == sum(
        r["tokens"].count("Soweto") for r in records if r["publication"] == "mg"
    )
    if isinstance(store, SQLiteStore):
        with store._cursor() as cur:
            kinds = cur.execute("SELECT DISTINCT typeof(data) FROM articles").fetchall()
            html = cur.execute("SELECT html_z FROM articles WHERE url='https://old.example/0'").fetchone()[0]
        assert kinds == [("blob",)] and html[:3] == b"HD1" and len(html) < 300
