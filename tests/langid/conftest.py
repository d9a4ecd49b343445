"""Fixtures of the langid tests: the hand-written paragraphs of langid_samples.py."""

from __future__ import annotations

import pytest
from langid_samples import OTHER_PARAGRAPHS, SA_PARAGRAPHS


@pytest.fixture(scope="session")
def sa_paragraphs() -> dict[str, str]:
    return SA_PARAGRAPHS


@pytest.fixture(scope="session")
def other_paragraphs() -> dict[str, str]:
    return OTHER_PARAGRAPHS
