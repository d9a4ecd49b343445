"""``dedup --rebuild`` fingerprints the next chunk in worker processes: the same labels, and a dead worker
costs nothing but time.

Real worker processes (spawned, as the command spawns them) on both backends: the labels, evidence, text
hashes, kept counts and the stored index equal those of a rebuild without workers; a worker killed between
chunks makes the rest be fingerprinted in the command's own process, with one warning.
"""

from __future__ import annotations

import os
import signal

import pytest
from test_dedup_index import ingest
from test_rebuild_equivalence import labels, planted
from test_rebuild_memory_index import _answers

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.maintenance import check_counts
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_ahead import FingerprintsAhead, compute, default_workers
from sacorpus.text.dedup_labels import fingerprint_args
from sacorpus.text.dedup_rebuild import rebuild_index, rebuild_options


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_give_the_labels_of_a_rebuild_without_them(index_store: ArticleStore, workers: int) -> None:
    articles = planted(75, seed=21)
    ingest(index_store, articles, DedupConfig(), batch=5, textless=True)
    urls = [a.url for a in articles]
    for url in urls[::6]:  # stale labels, so the rebuild relabels and moves counts
        index_store.update_fields(url, {"dedup_label": "duplicate", "dedup_evidence": [], "text_hash": "x"})
    rebuild_index(index_store, DedupConfig(), progress=False, batch_size=8, workers=0)
    alone, alone_index = labels(index_store), _answers(index_store, urls)
    for url in urls[::5]:
        index_store.update_fields(url, {"dedup_label": "similar", "dedup_evidence": [], "text_hash": "y"})
    counts = rebuild_index(index_store, DedupConfig(), progress=False, batch_size=8, workers=workers)
    assert labels(index_store) == alone
    assert _answers(index_store, urls) == alone_index
    assert sum(counts.values()) == len(articles)
    assert check_counts(index_store) == []


def test_a_killed_worker_leaves_the_fingerprints_to_this_process(caplog) -> None:
    config = DedupConfig()
    jobs = [fingerprint_args(a) for a in planted(24, seed=4)]
    assert any(job is None for job in jobs), "articles without text keep their place"
    expected = [None if job is None else compute(job, config) for job in jobs]
    with (
        caplog.at_level("WARNING", logger="sacorpus.text.dedup_ahead"),
        FingerprintsAhead(config, 1) as ahead,
    ):
        first = ahead.submit(jobs[:12])
        assert first is not None and first.result() == expected[:12]
        assert ahead.pool is not None
        (worker,) = ahead.pool._processes.values()  # the one process the first chunk started
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(10)
        assert worker.exitcode == -signal.SIGKILL
        second = ahead.submit(jobs[12:])
        assert second is not None and second.result() == expected[12:]
        assert not ahead.active
        assert ahead.submit(jobs[:3]) is None  # from here on the labelling fingerprints each article
    warnings = [r.getMessage() for r in caplog.records if "fingerprint worker stopped" in r.getMessage()]
    assert len(warnings) == 1


def test_the_settings_choose_the_workers_and_the_memory_budget() -> None:
    options = rebuild_options({})
    assert (options["memory_mb"], options["workers"]) == (150.0, default_workers())
    assert options["publications"].directory is None  # the shipped publications
    given = {
        "SACORPUS_DEDUP_REBUILD_WORKERS": "3",
        "SACORPUS_DEDUP_REBUILD_MEMORY_MB": "20",
        "SACORPUS_PUBLICATIONS_DIR": "/srv/publications",
    }
    options = rebuild_options(given)
    assert (options["memory_mb"], options["workers"], options["publications"].directory) == (
        20.0,
        3,
        "/srv/publications",
    )
    assert rebuild_options({"SACORPUS_DEDUP_REBUILD_WORKERS": 0})["workers"] == 0
    assert default_workers() == (1 if len(os.sched_getaffinity(0)) > 1 else 0)
