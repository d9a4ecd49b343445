"""Ctrl-C stops a corpus command with one line and exit status 130, not a traceback.

A real ``scrapy export`` writes a corpus larger than a pipe holds to a pipe the test stops reading:
the export is then certainly still running (blocked on its output) when SIGINT comes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_fixtures import REPO, corpus_records

from sacorpus.storage.sqlite import SQLiteStore


def test_ctrl_c_stops_an_export_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    records = corpus_records()
    with SQLiteStore(str(db), spill_path=str(tmp_path / "spill.jsonl")) as store:
        store.upsert_articles(
            [{**r, "url": f"{r['url']}-{i}"} for i in range(150) for r in records]  # megabytes of JSON
        )
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scrapy",
            "export",
            "--html",
            "--no-progress",
            "-s",
            f"SACORPUS_SQLITE_PATH={db}",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("{")  # exporting; now the pipe fills and it waits
        time.sleep(0.5)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert "export: interrupted (Ctrl-C)" in err
    assert "Traceback" not in err
