"""Fixtures: one store fixture parametrized over both backends (SQLite file, real SecantusDB)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.mongo import MongoServer

_db_counter = iter(range(10**6))


@pytest.fixture(params=["sqlite", "mongo"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ArticleStore]:
    """An open, empty store of each backend (spill file under tmp_path)."""
    spill = str(tmp_path / "spill.jsonl")
    if request.param == "sqlite":
        st: ArticleStore = SQLiteStore(str(tmp_path / "corpus.sqlite"), spill_path=spill, dedup_max_ids=8)
    else:
        server: MongoServer = request.getfixturevalue("mongo_server")
        st = MongoStore(
            server.uri, f"{server.database}_{next(_db_counter)}", spill_path=spill, dedup_max_ids=8
        )
    st.open()
    try:
        yield st
    finally:
        if isinstance(st, MongoStore):
            st.drop()
        st.close()
