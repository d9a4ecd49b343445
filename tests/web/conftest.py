"""Fixtures of the corpus browser tests: the browser corpus in a store, and `scrapy serve` running over it.

The server is the real command in a subprocess on a free loopback port, started once per module and
backend (SQLite file, and the MongoDB-wire server) and stopped after; the tests talk HTTP to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from servekit import PAGE_SIZE, Served, mongo_args, sqlite_args, start_server

from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import browser_corpus
from sacorpus.testing.mongo import MongoServer
from sacorpus.testing.servers import stop_process


@pytest.fixture(scope="session")
def browser_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("browser-corpus") / "corpus.sqlite"
    with SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl")) as store:
        store.upsert_articles(browser_corpus())
    return path


@pytest.fixture(scope="module")
def mongo_store_args(
    tmp_path_factory: pytest.TempPathFactory, mongo_server: MongoServer
) -> Iterator[list[str]]:
    workdir = tmp_path_factory.mktemp("browser-mongo")
    server = replace(mongo_server, database=f"{mongo_server.database}_browser")
    store = MongoStore(server.uri, server.database, spill_path=str(workdir / "spill.jsonl"))
    store.open()
    try:
        store.upsert_articles(browser_corpus())
        yield mongo_args(server, workdir)
    finally:
        store.drop()
        store.close()


@pytest.fixture(scope="module", params=["sqlite", "mongo"])
def served(
    request: pytest.FixtureRequest, browser_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    if request.param == "sqlite":
        store_args = sqlite_args(browser_store)
    else:
        store_args = request.getfixturevalue("mongo_store_args")
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    proc, url = start_server(store_args, log, "-s", f"SACORPUS_SERVE_PAGE_SIZE={PAGE_SIZE}")
    try:
        yield Served(url, store_args)
    finally:
        stop_process(proc)
