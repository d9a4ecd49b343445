"""Fixtures shared by every test folder; the helpers behind them live in crawlkit.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crawlkit import CrawlRun, run_crawl

from sacorpus.testing.mongo import MongoServer, local_mongo_server


@pytest.fixture(scope="session")
def mongo_server() -> Iterator[MongoServer]:
    """One real MongoDB-wire server for the session: a SecantusDB daemon on a free loopback port,
    or the server MONGO_URI names (tests then use databases of their own and drop them)."""
    with local_mongo_server() as server:
        yield server


@pytest.fixture
def crawl(tmp_path: Path):
    """``crawl(slug, *args, env=None)`` runs a real crawl in ``tmp_path`` and returns a CrawlRun."""

    def _crawl(slug: str, *args: str, workdir: Path | None = None, **kwargs: Any) -> CrawlRun:
        return run_crawl(slug, workdir or tmp_path, *args, **kwargs)

    return _crawl
