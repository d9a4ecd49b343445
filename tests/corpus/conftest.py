"""Fixtures of the corpus tests: the synthetic corpus in an SQLite store, and the command runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CommandRun, corpus_records, run_command

from sacorpus.storage.sqlite import SQLiteStore


@pytest.fixture(scope="session")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite corpus of the five synthetic articles (read-only for the tests)."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.sqlite"
    store = SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl"))
    with store:
        store.upsert_articles(corpus_records())
    return path


@pytest.fixture
def run(corpus_path: Path) -> Iterator[Any]:
    """Run a corpus command against the synthetic corpus."""

    def _run(command: str, *args: str) -> CommandRun:
        return run_command(command, *args, "--no-progress", store=corpus_path)

    yield _run
