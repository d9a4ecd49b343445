"""`scrapy dedup [--rebuild]` as a user runs it (a subprocess in the project)."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sacorpus.items import Article
from sacorpus.storage.sqlite import SQLiteStore

REPO = Path(__file__).resolve().parent.parent.parent
STORY = [
    "The municipality announced a new water tariff for residents of Polokwane this week.",
    "Councillors said the increase was needed to repair ageing pipes across the city.",
    "Residents' associations said they would challenge the tariff in the high court.",
    "The mayor promised that poor households would keep receiving free basic water.",
]


def scrapy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_rebuild_labels_a_store_crawled_without_dedup(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    with SQLiteStore(str(db)) as store:
        store.upsert_articles(
            [
                dataclasses.asdict(
                    Article(
                        url="https://a.co.za/1",
                        publication="a",
                        text="\n".join(STORY),
                        fetched_at="2024-01-01T00:00:01Z",
                    )
                ),
                dataclasses.asdict(
                    Article(
                        url="https://b.co.za/2",
                        publication="b",
                        text=" ".join(STORY),
                        fetched_at="2024-01-01T00:00:02Z",
                    )
                ),
                dataclasses.asdict(
                    Article(
                        url="https://b.co.za/3", publication="b", text=None, fetched_at="2024-01-01T00:00:03Z"
                    )
                ),
            ]
        )
    before = scrapy("dedup", "-s", f"SACORPUS_SQLITE_PATH={db}")
    assert before.returncode == 0, before.stderr[-2000:]
    assert "none       3" in before.stdout
    run = scrapy("dedup", "--rebuild", "-s", f"SACORPUS_SQLITE_PATH={db}")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "re-labelled 3 articles" in run.stdout
    assert "3/3" in run.stderr  # the progress bar
    with SQLiteStore(str(db)) as store:
        first, second, empty = (
            store.get(u) for u in ("https://a.co.za/1", "https://b.co.za/2", "https://b.co.za/3")
        )
        assert first and second and empty
        assert first["dedup_label"] == "unique"
        assert second["dedup_label"] == "duplicate"
        assert second["dedup_evidence"][0]["url"] == "https://a.co.za/1"
        assert second["text_hash"] == first["text_hash"] is not None
        assert empty["dedup_label"] is None


def _children(pid: int) -> list[str]:
    """The processes ``pid`` started (Linux)."""
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def _ignores_ctrl_c(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT now (the ``SigIgn`` mask of ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    return False


def test_ctrl_c_stops_a_rebuild_with_one_line_and_leaves_it_marked(tmp_path: Path) -> None:
    """Ctrl-C reaches the command and its fingerprint worker (one process group): exit status 130, one
    line and no traceback, the kept counts settled, and the index reported incomplete afterwards."""
    from test_dedup_index import ingest
    from test_rebuild_equivalence import planted

    from sacorpus.storage.maintenance import check_counts
    from sacorpus.text.dedup import DedupConfig
    from sacorpus.text.dedup_rebuild import REBUILD_STATE

    db = tmp_path / "corpus.sqlite"
    settings = ["-s", f"SACORPUS_SQLITE_PATH={db}", "-s", "SACORPUS_DEDUP_REBUILD_WORKERS=1"]
    with SQLiteStore(str(db)) as store:
        ingest(store, planted(1800, seed=6), DedupConfig(), batch=50, textless=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "dedup", "--rebuild", "--no-progress", *settings],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        with SQLiteStore(str(db)) as watcher:
            deadline = time.monotonic() + 60
            # the rebuild has started (and cleared the index) once its mark is written, and its worker
            # once the command has two children (multiprocessing's resource tracker and the worker,
            # which ignores Ctrl-C from its first instruction) and no longer ignores Ctrl-C itself (it
            # does while it starts the worker): Ctrl-C comes at once, while most of the 1,800 articles
            # are still to be labelled (a fixed wait let a fast machine finish first)
            while (
                not (watcher.get_state(REBUILD_STATE) or {}).get("started")
                or len(_children(proc.pid)) < 2
                or _ignores_ctrl_c(proc.pid)
            ):
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr and proc.stderr.read()
                time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err[-2000:]
    assert "dedup --rebuild interrupted: the labels written so far are kept" in err
    assert "Traceback" not in err and "re-labelled" not in out
    shown = scrapy("dedup", "-s", f"SACORPUS_SQLITE_PATH={db}")
    assert "the index is incomplete: a rebuild started" in shown.stdout
    with SQLiteStore(str(db)) as store:
        assert check_counts(store) == []
