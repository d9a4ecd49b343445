"""Fixtures shared by every test folder; the helpers behind them live in crawlkit.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crawlkit import CrawlRun, run_crawl


@pytest.fixture
def crawl(tmp_path: Path):
    """``crawl(slug, *args, env=None)`` runs a real crawl in ``tmp_path`` and returns a CrawlRun."""

    def _crawl(slug: str, *args: str, workdir: Path | None = None, **kwargs: Any) -> CrawlRun:
        return run_crawl(slug, workdir or tmp_path, *args, **kwargs)

    return _crawl
