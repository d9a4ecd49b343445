"""Fixtures: a real redis-server on a free loopback port, started in a temporary directory and stopped.

The distributed tests are skipped only when the ``redis-server`` binary is missing (CI installs it:
``apt-get install -y -qq redis-server``); every other failure to start it is an error.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from crawlkit import free_port, stop_process, wait_until_listening


@dataclass(frozen=True)
class RedisServer:
    port: int
    workdir: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, db=0)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed (apt-get install -y -qq redis-server)")
    workdir = tmp_path_factory.mktemp("redis")
    port = free_port()
    log = open(workdir / "redis.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            exe,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--dir",
            str(workdir),
        ],
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = RedisServer(port, workdir)
    try:
        wait_until_listening(port, proc, "redis-server", 20, log=workdir / "redis.log")
        server.client().ping()
        yield server
    finally:
        stop_process(proc)
        log.close()


@pytest.fixture
def redis_db(redis_server: RedisServer) -> Iterator[RedisServer]:
    """The server, emptied before and after the test (each test owns all keys while it runs)."""
    redis_server.client().flushall()
    yield redis_server
    redis_server.client().flushall()


@pytest.fixture
def demo_site() -> Iterator[object]:
    """The demo publication's synthetic site on a free loopback port; ``.requests`` logs every fetch."""
    from sacorpus.demo.server import SiteServer
    from sacorpus.demo.site import build_site

    server = SiteServer(build_site()).start()
    try:
        yield server
    finally:
        server.stop()
