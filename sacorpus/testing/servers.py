"""Starting and stopping the real servers tests and benchmarks use (SecantusDB, redis-server, scrapyd).

One place for the two things every such fixture needs: wait until the process listens (failing
fast, with its log, when it dies first) and stop it for sure (a polite signal, then kill).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_listening(
    port: int, proc: subprocess.Popen, name: str, timeout: float = 30.0, log: Path | None = None
) -> None:
    """Return once 127.0.0.1:port accepts connections; raise if ``proc`` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{name} exited with code {proc.returncode} before listening\n{tail}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} did not listen on port {port} within {timeout}s")


def stop_process(proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 10.0) -> None:
    """Send ``sig``, wait, and kill when the process does not end in time."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)
