"""Labels in bulk and count moves settled once (``update_labels``, ``relabelling``), both backends.

Whatever happens inside a relabelling (an article relabelled back and forth, rewritten whole, or
re-extracted), the kept word counts equal a full recount once it exits; on SQLite the moves a killed
run left are settled by the next process that opens the store.
"""

from __future__ import annotations

from pathlib import Path

from test_corpus_index_contract import CORPUS, article, recount

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.maintenance import check_counts
from sacorpus.storage.sqlite import SQLiteStore

DUP = {"dedup_label": "duplicate", "dedup_evidence": [{"url": "https://a/2", "score": 1.0}], "text_hash": "h"}
UNIQUE = {"dedup_label": "unique", "dedup_evidence": [], "text_hash": "h"}


def labels(store: ArticleStore) -> dict[str, str | None]:
    return {r["url"]: r.get("dedup_label") for r in store.iter_articles(fields=["dedup_label"])}


def non_duplicate_counts(store: ArticleStore) -> tuple[object, object]:
    """(kept counts without duplicates, recount of the stored non-duplicates)."""
    stored = list(store.iter_articles(fields=["tokens", "dedup_label"]))
    kept = store.word_counts(StoreFilter(exclude_duplicates=True))
    assert kept is not None
    return kept.counts, recount([r for r in stored if r.get("dedup_label") != "duplicate"])


def test_update_labels_sets_the_labels_and_the_counts_follow(store: ArticleStore) -> None:
    store.upsert_articles([dict(r) for r in CORPUS])
    with store.relabelling():
        assert store.update_labels({"https://a/1": DUP, "https://b/2": UNIQUE, "https://none/1": DUP}) == 2
        assert store.update_labels({"https://a/1": UNIQUE, "https://c/1": DUP}) == 2  # a/1 back
        assert store.update_labels({"https://a/1": DUP}) == 1  # and a duplicate again
    got = labels(store)
    assert (got["https://a/1"], got["https://b/2"], got["https://c/1"]) == (
        "duplicate",
        "unique",
        "duplicate",
    )
    assert "https://none/1" not in got
    assert check_counts(store) == []
    kept, recounted = non_duplicate_counts(store)
    assert kept == recounted
    # outside a relabelling the counts move with each write
    assert store.update_labels({"https://c/1": UNIQUE}) == 1
    assert check_counts(store) == []


def test_writes_inside_a_relabelling_are_counted_where_they_end(store: ArticleStore) -> None:
    store.upsert_articles([dict(r) for r in CORPUS])
    with store.relabelling():
        store.update_labels({"https://a/1": DUP, "https://a/2": DUP, "https://b/1": DUP})
        # a/1 stored again with new text, a/2 re-extracted, b/1 relabelled one at a time
        store.upsert_articles([article("https://a/1", "Completely new words here.", dedup_label="unique")])
        new = article("https://a/2", "Elections were held in June.", published_at="2025-06-01T00:00:00")
        store.update_fields("https://a/2", {k: new[k] for k in ("text", "tokens", "token_offsets")})
        store.update_fields("https://b/1", UNIQUE)
    assert labels(store)["https://a/2"] == "duplicate"
    assert check_counts(store) == []
    kept, recounted = non_duplicate_counts(store)
    assert kept == recounted


def test_moves_left_by_a_killed_relabelling_are_settled_on_open(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    with SQLiteStore(path, spill_path=str(tmp_path / "s.jsonl")) as first:
        first.upsert_articles([dict(r) for r in CORPUS])
        relabelling = first.relabelling()
        relabelling.__enter__()
        first.update_labels({"https://a/1": DUP, "https://c/1": DUP, "https://b/2": UNIQUE})
        assert check_counts(first) != []  # committed labels, counts not moved yet
        # another process opens the file (the first one could have been killed here)
        with SQLiteStore(path, spill_path=str(tmp_path / "s2.jsonl")) as second:
            assert check_counts(second) == []
            assert labels(second)["https://c/1"] == "duplicate"
        relabelling.__exit__(None, None, None)  # nothing left to settle: moved once, not twice
        assert check_counts(first) == []


def test_a_group_most_of_whose_articles_changed_side_is_recounted_from_the_rest(tmp_path: Path) -> None:
    """Eight articles of one publication and month, seven relabelled duplicate: the tokens of the one
    left are read (the group's counts folded in SQL), not those of the seven that moved."""
    group = [article(f"https://g/{i}", f"Story {i} about the water board and land.") for i in range(8)]
    other = [article(f"https://o/{i}", f"Other {i} story.", publication="citizen") for i in range(2)]
    for record in group:
        record["published_at"] = "2024-01-05T08:00:00"
    with SQLiteStore(str(tmp_path / "c.sqlite"), spill_path=str(tmp_path / "s.jsonl")) as store:
        store.upsert_articles([*group, *other])
        store._moves_deferred = True
        store.update_labels({r["url"]: DUP for r in [*group[1:], other[0]]})
        store._moves_deferred = False
        with store._cursor(write=True) as cur:
            assert store._settle_moves(cur) == 2  # the one left in the group, the one moved of the other
        assert check_counts(store) == []
        kept, recounted = non_duplicate_counts(store)
        assert kept == recounted


def test_one_call_mixes_light_writes_whole_rewrites_and_absent_articles(store: ArticleStore) -> None:
    """Labels alone are set in place, a new text rewrites its row whole, an absent URL is skipped:
    in one call, inside and outside a relabelling, and the counts equal a recount after each."""
    store.upsert_articles([dict(r) for r in CORPUS])
    new = article("https://a/2", "Elections were held in June.")
    rewritten = {**{k: new[k] for k in ("text", "tokens", "token_offsets")}, **DUP}
    with store.relabelling():
        given = {"https://a/1": DUP, "https://a/2": rewritten, "https://none/1": DUP, "https://b/2": DUP}
        assert store.update_labels(given) == 3
    got = labels(store)
    assert [got[u] for u in ("https://a/1", "https://a/2", "https://b/2")] == ["duplicate"] * 3
    assert store.get("https://a/2")["text"] == "Elections were held in June."  # type: ignore[index]
    assert check_counts(store) == []
    given = {"https://a/2": {**rewritten, **UNIQUE}, "https://b/2": UNIQUE, "https://none/2": UNIQUE}
    assert store.update_labels(given) == 2
    assert labels(store)["https://a/2"] == labels(store)["https://b/2"] == "unique"
    assert check_counts(store) == []
    kept, recounted = non_duplicate_counts(store)
    assert kept == recounted
