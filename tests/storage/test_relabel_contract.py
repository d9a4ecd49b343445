"""Relabels and other light updates on both backends: only the changed fields move, every other field
reads back equal, and the kept counts equal a full recount after relabels in and out of a batch."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.layout import compress
from sacorpus.storage.maintenance import check_counts
from sacorpus.storage.sqlite import SQLiteStore
from tests.storage.test_corpus_index_contract import CORPUS, article, recount

MORE = [
    article(
        f"https://r/{i}",
        f"Story {i}: the council met about water {i % 3} and “land” again; it's late.",
        publication=("mg", "netwerk24", "iol")[i % 3],
        language=("en", "af")[i % 2],
        published_at=f"2024-0{1 + i % 4}-1{i % 9}T08:00:00Z",
        dedup_label=("unique", "duplicate", None)[i % 3],
        dedup_evidence=[{"url": f"https://r/{i - 1}", "kind": "sentences", "score": 0.9}] if i else [],
        html=f"<html><p>Story {i}</p></html>",
    )
    for i in range(12)
]
ALL = [*CORPUS, *MORE]


def relabels(i: int) -> dict[str, Any]:
    """A rebuild's kind of update: label, evidence and text hash; every fourth also moves key."""
    fields: dict[str, Any] = {
        "dedup_label": ("duplicate", "unique", "similar")[i % 3],
        "dedup_evidence": [{"url": "https://a/1", "kind": "exact-text"}] if i % 3 == 0 else [],
        "text_hash": f"h{i}",
    }
    if i % 4 == 0:
        fields["published_at"] = "2023-12-31T23:00:00Z"
    if i % 5 == 0:
        fields["publication"] = "citizen"
    return fields


@pytest.fixture
def filled(store: ArticleStore) -> ArticleStore:
    store.upsert_articles([dict(r) for r in ALL])
    return store


def _expected() -> dict[str, dict[str, Any]]:
    return {r["url"]: {**r, **relabels(i)} for i, r in enumerate(ALL)}


def _assert_reads_back(store: ArticleStore, expected: dict[str, dict[str, Any]]) -> None:
    for url, record in expected.items():
        stored = store.get(url)
        assert stored is not None
        for key, value in record.items():
            got = stored.get(key)
            if isinstance(value, str) and key in ("body",):
                value = value.encode()
            assert got == value, (url, key)


def test_relabels_read_back_equal_and_counts_equal_a_recount(filled: ArticleStore) -> None:
    for i, record in enumerate(ALL):
        assert filled.update_fields(record["url"], relabels(i))
    assert not filled.update_fields("https://nowhere/1", {"dedup_label": "unique"})
    _assert_reads_back(filled, _expected())
    assert check_counts(filled) == []
    kept = filled.word_counts(StoreFilter(exclude_duplicates=True))
    fresh = [r for r in _expected().values() if r["dedup_label"] != "duplicate"]
    assert kept is not None and kept.counts == recount(fresh)


def test_relabels_inside_one_batch_sum_their_counts(filled: ArticleStore) -> None:
    with filled.batched():
        for i, record in enumerate(ALL):
            assert filled.update_fields(record["url"], relabels(i))
        # a write after a relabel in the same batch sees the relabelled row
        filled.upsert_articles([{**_expected()["https://r/3"], "title": "A new title"}])
    expected = _expected()
    expected["https://r/3"]["title"] = "A new title"
    _assert_reads_back(filled, expected)
    assert check_counts(filled) == []


def test_a_failed_batch_leaves_rows_and_counts_as_they_were(tmp_path: Path) -> None:
    with SQLiteStore(str(tmp_path / "c.sqlite"), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles([dict(r) for r in ALL])
        with pytest.raises(StorageError), store.batched():
            store.update_fields("https://a/1", {"dedup_label": "duplicate"})
            store.upsert_articles([article("https://new/1", "Zebras crossed the quietest road.")])
            store.upsert_articles([{"title": "no url"}])  # refused: the whole batch rolls back
        assert store.get("https://new/1") is None
        assert store.get("https://a/1")["dedup_label"] is None  # type: ignore[index]
        assert check_counts(store) == []
        # the words inserted by the rolled-back batch get ids again when they are stored
        store.upsert_articles([article("https://new/2", "Zebras crossed the quietest road.")])
        assert check_counts(store) == []
        kept = store.word_counts(StoreFilter())
        assert kept is not None and kept.counts["Zebras"] == 1 and kept.counts["quietest"] == 1


#: the counts table of stores written before the counts had integer ids
_LEGACY_COUNTS = """
CREATE TABLE word_counts (
    publication TEXT NOT NULL, month TEXT NOT NULL, language TEXT NOT NULL, dup INTEGER NOT NULL,
    word TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (publication, month, language, dup, word)
) WITHOUT ROWID;
"""


def test_a_store_of_the_older_layout_reads_and_its_counts_move_to_ids_on_open(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    spill = str(tmp_path / "spill.jsonl")
    with SQLiteStore(str(path), spill_path=spill) as store:
        store.upsert_articles([dict(r) for r in ALL])
        before = store.kept_counts()
    conn = sqlite3.connect(path)  # the older layout: bodies without a text dictionary, counts keyed by text
    for record in ALL:
        conn.execute("UPDATE articles SET body = ? WHERE url = ?", (compress(record["body"]), record["url"]))
    conn.executescript(_LEGACY_COUNTS)
    conn.executemany("INSERT INTO word_counts VALUES (?, ?, ?, ?, ?, ?)", before.word_rows())
    conn.executescript("DROP TABLE key_word_counts; DROP TABLE count_words; DROP TABLE count_keys;")
    conn.commit()
    conn.close()
    with SQLiteStore(str(path), spill_path=spill) as store:
        _assert_reads_back(store, {r["url"]: r for r in ALL})
        assert store.kept_counts().words == before.words
        assert check_counts(store) == []
        store.update_fields("https://r/1", {"dedup_label": "unique"})
        assert check_counts(store) == []
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert "word_counts" not in tables and "key_word_counts" in tables
