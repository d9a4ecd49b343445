"""Fixtures of the corpus browser tests: the browser corpus in a store, and `scrapy serve` running over it.

The server is the real command in a subprocess on a free loopback port, started once per module and
backend (SQLite file, and the MongoDB-wire server) and stopped after; the tests talk HTTP to it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import browser_corpus
from sacorpus.testing.mongo import MongoServer
from sacorpus.testing.servers import free_port, stop_process, wait_until_listening

REPO = Path(__file__).resolve().parents[2]
PAGE_SIZE = 2  # small pages, so that a handful of articles spans several


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]


@dataclass
class Served:
    """A running `scrapy serve`: its base URL and the store arguments it was given."""

    url: str
    store_args: list[str]

    def get(self, path: str, method: str = "GET") -> Answer:
        request = urllib.request.Request(self.url + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(response.status, response.read().decode(), dict(response.headers))
        except urllib.error.HTTPError as exc:
            return Answer(exc.code, exc.read().decode(), dict(exc.headers))


def sqlite_args(path: Path) -> list[str]:
    return [
        "-s",
        f"SACORPUS_SQLITE_PATH={path}",
        "-s",
        f"SACORPUS_STORE_SPILL_PATH={path.parent / 'spill.jsonl'}",
    ]


def mongo_args(server: MongoServer, workdir: Path) -> list[str]:
    return [
        "-s", "SACORPUS_STORE=sacorpus.storage.mongo.MongoStore",
        "-s", f"MONGO_URI={server.uri}",
        "-s", f"MONGO_DATABASE={server.database}",
        "-s", f"SACORPUS_STORE_SPILL_PATH={workdir / 'spill.jsonl'}",
    ]  # fmt: skip


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


def start_server(store_args: list[str], log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "scrapy", "serve", "--port", str(port), *store_args, *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_until_listening(port, proc, "scrapy serve", log=log)
    return proc, f"http://127.0.0.1:{port}"


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
