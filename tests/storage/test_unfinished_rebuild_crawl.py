"""A crawl after a ``dedup --rebuild`` that did not finish rebuilds the index before it labels anything.

Real crawls through the pipeline stack (``pipeline_crawl.py``) into one SQLite file, and the real
``scrapy dedup`` command. Between them a rebuild fails part way on a store error, which leaves the
index empty. ``scrapy dedup`` then reports the index as incomplete. The next crawl rebuilds the index
at its start, so a new copy of a stored story is labelled ``duplicate``; against the empty index it
would have been ``unique``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_store_pipelines import OTHER, REPO, STORY, article, run_crawl

from sacorpus.storage.base import StorageError
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_rebuild import rebuild_index, unfinished_rebuild


def _dedup_command(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "dedup", "-s", f"SACORPUS_SQLITE_PATH={db}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_next_crawl_finishes_an_unfinished_rebuild(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "corpus.sqlite"
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first = [
        article("https://iol.co.za/news/clinics-1", STORY, "iol", 1),
        article("https://citizen.co.za/news/clinics-x", STORY, "citizen", 2),
        article("https://iol.co.za/news/floods-2", OTHER, "iol", 3),
    ]
    stats, _ = run_crawl(tmp_path / "one", first, f"SACORPUS_SQLITE_PATH={db}")
    assert stats["sacorpus/dedup/duplicate"] == 1
    assert "sacorpus/dedup/index_rebuilt" not in stats

    with SQLiteStore(str(db)) as store:
        update_labels = store.update_labels

        def failing(given: Any) -> int:
            update_labels(given)
            raise StorageError("the disk is full")

        monkeypatch.setattr(store, "update_labels", failing)
        with pytest.raises(StorageError):
            rebuild_index(store, DedupConfig(), progress=False, batch_size=1, workers=0)
        monkeypatch.undo()
        assert unfinished_rebuild(store) is not None
        assert store.dedup_fingerprints([a["url"] for a in first]) == {}  # cleared, never written back
    shown = _dedup_command(db)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert "the index is incomplete: a rebuild started" in shown.stdout

    copy = article("https://sowetan.co.za/news/clinics-y", STORY, "sowetan", 4)
    stats, log = run_crawl(tmp_path / "two", [copy], f"SACORPUS_SQLITE_PATH={db}")
    assert stats["sacorpus/dedup/index_rebuilt"] == 1
    assert "did not finish, so the index is incomplete" in log
    with SQLiteStore(str(db)) as store:
        assert unfinished_rebuild(store) is None
        got = store.get(copy["url"])
        assert got is not None and got["dedup_label"] == "duplicate"
        assert {e["url"] for e in got["dedup_evidence"]} == {a["url"] for a in first[:2]}
    assert "incomplete" not in _dedup_command(db).stdout
