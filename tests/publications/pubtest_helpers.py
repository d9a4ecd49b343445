"""Helpers shared by the publication tests (a uniquely named module: ``from conftest import`` is ambiguous
when several test directories have a conftest.py)."""

from __future__ import annotations

from pathlib import Path

SITES_DIR = Path(__file__).resolve().parents[1] / "sites"
