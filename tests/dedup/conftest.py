"""Fixtures: an open, empty store of each backend (SQLite file, real SecantusDB on loopback)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.mongo import MongoServer

_n = itertools.count()


@pytest.fixture(params=["sqlite", "mongo"])
def index_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ArticleStore]:
    if request.param == "sqlite":
        store: ArticleStore = SQLiteStore(
            str(tmp_path / "corpus.sqlite"), spill_path=str(tmp_path / "spill.jsonl")
        )
    else:
        server: MongoServer = request.getfixturevalue("mongo_server")
        store = MongoStore(
            server.uri, f"{server.database}_{next(_n)}", spill_path=str(tmp_path / "spill.jsonl")
        )
    store.open()
    try:
        yield store
    finally:
        if isinstance(store, MongoStore):
            store.drop()
        store.close()
