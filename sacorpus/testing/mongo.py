"""Start a throw-away MongoDB-wire server (SecantusDB) on loopback, for tests and benchmarks.

Why here: the contract tests, the dedup tests and benchmarks/dedup.py all need a real server on a
free port that is reliably stopped afterwards; one helper keeps the start/wait/stop logic in one place.
``MONGO_URI`` in the environment takes precedence (then a unique database name is used per run).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sacorpus.testing.servers import free_port, stop_process, wait_until_listening


@dataclass
class MongoServer:
    uri: str
    database: str
    external: bool  # True when it came from MONGO_URI (we did not start it)


@contextmanager
def local_mongo_server(timeout: float = 30.0, use_env: bool = True) -> Iterator[MongoServer]:
    """Yield a server: MONGO_URI from the environment, else a fresh ``secantusd-py`` we stop after."""
    database = f"sacorpus_test_{uuid.uuid4().hex[:10]}"
    env_uri = os.environ.get("MONGO_URI") if use_env else None
    if env_uri:
        yield MongoServer(uri=env_uri, database=database, external=True)
        return
    # next to this interpreter first: a venv used without activation still finds its own daemon
    exe = shutil.which(
        "secantusd-py", path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    )
    if exe is None:
        raise RuntimeError("secantusd-py is not installed (pip install SecantusDB)")
    tmp = tempfile.mkdtemp(prefix="sacorpus-secantus-")
    port = free_port()
    log = open(os.path.join(tmp, "server.log"), "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            exe,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--storage-path",
            os.path.join(tmp, "db"),
            "--log-level",
            "WARNING",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_until_listening(port, proc, "secantusd-py", timeout)
        yield MongoServer(
            uri=f"mongodb://127.0.0.1:{port}/?directConnection=true", database=database, external=False
        )
    finally:
        # SIGINT is the clean stop (seen: SIGTERM left secantusd-py running for over 20 s)
        stop_process(proc, signal.SIGINT)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


class RestartableMongo:
    """A SecantusDB daemon on a fixed port and data directory that can be stopped and started again.

    Why: an outage test stops the server mid-crawl and brings the same server (same port, same data)
    back, as an operator restarting MongoDB would.
    """

    def __init__(self, root: str, timeout: float = 60.0) -> None:
        exe = shutil.which(
            "secantusd-py",
            path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]),
        )
        if exe is None:
            raise RuntimeError("secantusd-py is not installed (pip install SecantusDB)")
        self.exe, self.root, self.timeout = exe, root, timeout
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/?directConnection=true"

    def start(self) -> None:
        with open(os.path.join(self.root, "secantus.log"), "ab") as log:
            self.proc = subprocess.Popen(
                [self.exe, "--host", "127.0.0.1", "--port", str(self.port), "--storage-path",
                 os.path.join(self.root, "db"), "--log-level", "WARNING"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        wait_until_listening(self.port, self.proc, "secantusd-py", self.timeout)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, signal.SIGINT, timeout=30)
            self.proc = None
