"""A process that used the MongoDB store stops pymongo's background threads at exit without joining them.

Each probe runs in a fresh interpreter against the session's real server: it opens the store, reads,
closes it and exits. Its report is the first exit handler registered, before pymongo is imported, so it
runs last (exit handlers run last-registered first): after the store's handler, or pymongo's own in
the control, it records whether pymongo's threads were told to stop and how often a join waited on one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sacorpus.testing.mongo import MongoServer

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import atexit, json, sys
joins, seen = [], []
def report():
    stopped = [bool(getattr(e, "_stopped", False)) for e in seen]
    print(json.dumps({"joins": len(joins), "executors": len(stopped), "stopped": all(stopped)}), flush=True)
atexit.register(report)

from pymongo import periodic_executor
from sacorpus.storage import mongo_exit
from sacorpus.storage.mongo import MongoStore

original_join = periodic_executor.PeriodicExecutor.join
def counted_join(self, timeout=None):
    joins.append(timeout)
    return original_join(self, timeout)
periodic_executor.PeriodicExecutor.join = counted_join

if sys.argv[3] == "control":
    mongo_exit._installed = True  # as if already installed: pymongo's own handler stays
store = MongoStore(sys.argv[1], sys.argv[2], spill_path=sys.argv[4])
with store:
    store.get_state("probe")
    seen += [ref() for ref in list(periodic_executor._EXECUTORS) if ref() is not None]
"""


@pytest.mark.parametrize("mode", ["ours", "control"])
def test_the_threads_are_stopped_and_not_joined(mode: str, mongo_server: MongoServer, tmp_path: Path) -> None:
    database = f"{mongo_server.database}_exit_{mode}"
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mongo_server.uri, database, mode, str(tmp_path / "spill.jsonl")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["executors"] >= 2  # the monitor's and the cursor killer's at least
    assert found["stopped"] is True
    if mode == "ours":
        assert found["joins"] == 0
    else:
        assert found["joins"] >= 2  # pymongo's handler waits on each thread
    assert "Traceback" not in out.stderr
