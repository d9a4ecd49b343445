"""Fixtures for the publication-data and demo-site tests: a real SiteServer on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sacorpus.demo.server import SiteServer
from sacorpus.demo.site import build_site


@pytest.fixture(scope="session")
def demo_site() -> dict:
    return build_site()


@pytest.fixture()
def demo_server(demo_site: dict) -> Iterator[SiteServer]:
    with SiteServer(demo_site) as server:
        yield server
