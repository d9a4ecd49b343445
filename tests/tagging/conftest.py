"""Fixtures of the tagging tests: the training script, loaded as a module (it is not in the package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def train_pos() -> ModuleType:
    script = Path(__file__).resolve().parents[2] / "scripts" / "train_pos.py"
    spec = importlib.util.spec_from_file_location("train_pos", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
