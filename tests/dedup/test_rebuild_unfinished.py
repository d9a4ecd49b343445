"""A ``dedup --rebuild`` that does not finish leaves a mark, and its incomplete index is rebuilt before use.

The rebuild clears the index first and writes it whole at the end; a rebuild stopped part way (a store
failure here, Ctrl-C or a kill in use) leaves an index missing articles, against which a new copy would
be labelled ``unique``. On both backends: the mark is there after a failed rebuild and gone after a
finished one, and finishing gives exactly the labels and index ingest gave.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_dedup_index import ingest
from test_rebuild_equivalence import labels, planted
from test_rebuild_memory_index import _answers

from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_rebuild import finish_unfinished_rebuild, rebuild_index, unfinished_rebuild


def test_a_failed_rebuild_is_marked_and_finished_again(index_store: ArticleStore, monkeypatch) -> None:
    articles = planted(60, seed=13)
    ingest(index_store, articles, DedupConfig(), batch=5, textless=True)
    urls = [a.url for a in articles]
    crawl, crawl_index = labels(index_store), _answers(index_store, urls)
    assert unfinished_rebuild(index_store) is None
    assert finish_unfinished_rebuild(index_store, DedupConfig()) is False  # nothing to finish

    writes = 0
    update_labels = index_store.update_labels

    def failing(given: Any) -> int:
        nonlocal writes
        writes += 1
        if writes > 2:
            raise StorageError("the disk is full")
        return update_labels(given)

    monkeypatch.setattr(index_store, "update_labels", failing)
    with pytest.raises(StorageError):
        rebuild_index(index_store, DedupConfig(), progress=False, batch_size=7, workers=0)
    monkeypatch.undo()
    started = unfinished_rebuild(index_store)
    assert started is not None and started[:2] == "20"
    indexed = [a.url for a in articles if a.text]
    assert len(index_store.dedup_fingerprints(indexed)) < len(indexed), "the index is incomplete"

    assert finish_unfinished_rebuild(index_store, DedupConfig()) is True
    assert unfinished_rebuild(index_store) is None
    assert labels(index_store) == crawl
    assert _answers(index_store, urls) == crawl_index
