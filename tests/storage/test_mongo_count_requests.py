"""The MongoDB store writes a batch's count changes in bounded requests, and they add up exactly.

Why: a batch of 500 articles changes tens of thousands of counts. Sent as one request, a single-threaded
server (SecantusDB) stays busy past the client's heartbeat, and the client cancels the write in flight as
if the server had gone ("operation cancelled"): the batch spills although nothing was down.
"""

from __future__ import annotations

from typing import Any

import pytest
from pymongo import monitoring
from test_corpus_index_contract import article

from sacorpus.storage import mongo_counts
from sacorpus.storage.maintenance import check_counts
from sacorpus.storage.mongo import HEARTBEAT_PATIENCE_MS


class CountWrites(monitoring.CommandListener):
    """The size of every update request to the kept counts, while recording."""

    def __init__(self) -> None:
        self.recording = False
        self.sizes: list[int] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if (
            self.recording
            and event.command_name == "update"
            and event.command.get("update") == mongo_counts.WORDS
        ):
            # count changes a request: the fields of each $inc (a pipeline update tidies one document)
            self.sizes.append(sum(len(u["u"].get("$inc", {})) if isinstance(u["u"], dict) else 1
                                  for u in event.command["updates"]))  # fmt: skip

    def succeeded(self, event: Any) -> None:
        pass

    def failed(self, event: Any) -> None:
        pass


LISTENER = CountWrites()
monitoring.register(LISTENER)  # global: only clients made after this see it; it records only when asked


@pytest.mark.parametrize("store", ["mongo"], indirect=True)  # the conftest's store, on SecantusDB
def test_count_changes_go_in_bounded_requests_and_equal_a_recount(store, monkeypatch) -> None:
    monkeypatch.setattr(mongo_counts, "COUNT_OPS_PER_REQUEST", 7)
    words = [f"word{i}" for i in range(60)]
    records = [article(f"https://a/{i}", " ".join(words[i * 3 : i * 3 + 30]) + ".") for i in range(10)]
    LISTENER.sizes.clear()
    LISTENER.recording = True
    try:
        store.upsert_articles(records)
    finally:
        LISTENER.recording = False
    assert LISTENER.sizes and max(LISTENER.sizes) <= 7
    assert sum(LISTENER.sizes) > 7 * 5  # the many changes of one batch, in many requests
    assert check_counts(store) == []  # every request landed: the counts equal a recount


@pytest.mark.parametrize("store", ["mongo"], indirect=True)
def test_a_late_heartbeat_answer_is_not_taken_for_an_outage(store) -> None:
    options = store.db.client.options.pool_options
    assert options.connect_timeout * 1000 >= HEARTBEAT_PATIENCE_MS > store.timeout_ms
    assert store.db.client.options.server_selection_timeout * 1000 == store.timeout_ms
