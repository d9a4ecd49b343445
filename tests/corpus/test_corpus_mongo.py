"""The corpus commands read a MongoDB store the same way (a real MongoDB-wire server on loopback)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from corpus_fixtures import corpus_records, run_command

from sacorpus.storage.mongo import MongoStore
from sacorpus.testing.mongo import MongoServer


@pytest.fixture(scope="module")
def mongo_corpus(
    tmp_path_factory: pytest.TempPathFactory, mongo_server: MongoServer
) -> Iterator[tuple[MongoServer, Path]]:
    workdir = tmp_path_factory.mktemp("mongo-corpus")
    server = replace(mongo_server, database=f"{mongo_server.database}_corpus")
    store = MongoStore(server.uri, server.database, spill_path=str(workdir / "spill.jsonl"))
    store.open()
    try:
        store.upsert_articles(corpus_records())
        yield server, workdir
    finally:
        store.drop()
        store.close()


def _mongo_args(server: MongoServer, workdir: Path) -> list[str]:
    return [
        "--no-progress",
        "-s", "SACORPUS_STORE=sacorpus.storage.mongo.MongoStore",
        "-s", f"MONGO_URI={server.uri}",
        "-s", f"MONGO_DATABASE={server.database}",
        "-s", f"SACORPUS_STORE_SPILL_PATH={workdir / 'spill.jsonl'}",
    ]  # fmt: skip


def test_commands_over_mongodb(mongo_corpus: tuple[MongoServer, Path], corpus_path: Path) -> None:
    server, workdir = mongo_corpus
    args = _mongo_args(server, workdir)
    for command, extra in (
        ("stats", ["--by", "language"]),
        ("kwic", ["land reform", "--sort", "right"]),
        ("export", ["--format", "lines", "--exclude-duplicates", "--publication", "mg"]),
    ):
        mongo = run_command(command, *extra, *args, store=None)
        assert mongo.returncode == 0, mongo.stderr
        sqlite = run_command(command, *extra, "--no-progress", store=corpus_path)
        assert sqlite.returncode == 0, sqlite.stderr
        assert mongo.stdout == sqlite.stdout and mongo.stdout.strip(), command


def test_annotate_and_tagged_exports_over_mongodb(
    mongo_server: MongoServer, tmp_path: Path, corpus_path: Path
) -> None:
    """`scrapy annotate` writes through the store protocol: MongoDB ends up tagged like SQLite."""
    import shutil

    server = replace(mongo_server, database=f"{mongo_server.database}_annotate")
    store = MongoStore(server.uri, server.database, spill_path=str(tmp_path / "spill.jsonl"))
    store.open()
    sqlite_copy = tmp_path / "corpus.sqlite"
    shutil.copy(corpus_path, sqlite_copy)
    try:
        store.upsert_articles(corpus_records())
        args = _mongo_args(server, tmp_path)
        first = run_command("annotate", *args, store=None)
        assert first.returncode == 0 and "tagged 5" in first.stderr, first.stderr
        again = run_command("annotate", *args, store=None)
        assert "already tagged 5" in again.stderr, again.stderr
        assert run_command("annotate", "--no-progress", store=sqlite_copy).returncode == 0
        mongo = run_command("export", "--format", "conllu", *args, store=None)
        sqlite = run_command("export", "--format", "conllu", "--no-progress", store=sqlite_copy)
        assert mongo.returncode == 0 and mongo.stdout == sqlite.stdout and "\tNOUN\t" in mongo.stdout
    finally:
        store.drop()
        store.close()
