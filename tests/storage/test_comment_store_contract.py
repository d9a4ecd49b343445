"""Comment storage contract: both backends keep each comment once, update edits and deletions, keep the
reading order, keep thread poll state, and bring spilled comments back exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.comment_records import comment_spill_path
from sacorpus.storage.spill_lines import write_spill

ARTICLE = "https://news.example/2026/11/02/story-1"


def comment(n: int, article: str = ARTICLE, **extra: Any) -> dict[str, Any]:
    return {
        "url": f"{article}#comment-{n}",
        "article_url": article,
        "publication": "demo",
        "comment_id": str(n),
        "published_at": f"2026-11-02T10:{n:02d}:00Z",
        "raw_message": f"comment number {n}",
        "text": f"comment number {n}",
        "likes": 1,
        "fetched_at": "2026-11-02T12:00:00Z",
        **extra,
    }


def test_a_comment_polled_again_is_stored_once(store: ArticleStore) -> None:
    assert store.upsert_comments([comment(1), comment(2)]) == {"new": 2, "updated": 0, "unchanged": 0}
    again = store.upsert_comments([comment(1, fetched_at="2026-11-03T12:00:00Z"), comment(2)])
    assert again == {"new": 0, "updated": 0, "unchanged": 2}
    assert store.count_comments() == 2
    assert store.count() == 0  # articles are another register
    kept = store.get_comment(f"{ARTICLE}#comment-1")
    assert kept is not None and kept["first_seen_at"] == "2026-11-02T12:00:00Z"
    assert kept["fetched_at"] == "2026-11-03T12:00:00Z"


def test_edits_and_deletions_update_the_stored_comment(store: ArticleStore) -> None:
    store.upsert_comments([comment(1), comment(2)])
    edited = comment(1, raw_message="comment number 1, corrected", fetched_at="2026-11-03T00:00:00Z")
    deleted = comment(2, raw_message="", is_deleted=True, fetched_at="2026-11-03T00:00:00Z")
    assert store.upsert_comments([edited, deleted]) == {"new": 0, "updated": 2, "unchanged": 0}
    one = store.get_comment(f"{ARTICLE}#comment-1") or {}
    two = store.get_comment(f"{ARTICLE}#comment-2") or {}
    assert one["raw_message"] == "comment number 1, corrected"
    assert one["updated_at"] == "2026-11-03T00:00:00Z"
    assert two["is_deleted"] is True
    assert store.count_comments() == 2


def test_comments_are_read_by_article_then_date_in_batches(store: ArticleStore) -> None:
    other = "https://news.example/2026/11/01/story-0"
    store.upsert_comments([comment(3), comment(1), comment(2, article=other, publication="other")])
    read = list(store.iter_comments(batch_size=1))
    assert [r["url"] for r in read] == [
        f"{other}#comment-2",
        f"{ARTICLE}#comment-1",
        f"{ARTICLE}#comment-3",
    ]
    assert [r["url"] for r in store.iter_comments(publication="demo", fields=["text"])] == [
        f"{ARTICLE}#comment-1",
        f"{ARTICLE}#comment-3",
    ]
    assert set(next(store.iter_comments(fields=["text"]))) == {"url", "text"}
    assert store.count_comments("other") == 1
    assert store.has_comments([f"{ARTICLE}#comment-1", f"{ARTICLE}#comment-9"]) == {f"{ARTICLE}#comment-1"}


def test_thread_state_and_due_threads(store: ArticleStore) -> None:
    base = {"publication": "demo", "kind": "disqus"}
    store.set_thread(
        {**base, "key": "t1", "article_url": ARTICLE, "done": False, "next_poll": "2026-11-02T00:00:00Z"}
    )
    store.set_thread(
        {**base, "key": "t2", "article_url": "u2", "done": False, "next_poll": "2026-11-05T00:00:00Z"}
    )
    store.set_thread({**base, "key": "t3", "article_url": "u3", "done": True, "next_poll": None})
    assert [t["key"] for t in store.due_threads("demo", "2026-11-03T00:00:00Z")] == ["t1"]
    assert [t["key"] for t in store.due_threads("demo", "2026-11-06T00:00:00Z")] == ["t1", "t2"]
    assert store.due_threads("other", "2026-11-06T00:00:00Z") == []
    store.set_thread({**base, "key": "t1", "article_url": ARTICLE, "done": True, "next_poll": None})
    assert (store.get_thread("t1") or {})["done"] is True
    assert store.get_thread("nope") is None
    assert store.articles_with_threads([ARTICLE, "u9"]) == {ARTICLE}


def test_spilled_comments_come_back_exactly(store: ArticleStore, tmp_path: Path) -> None:
    path = comment_spill_path(store.spill_path)
    assert path is not None and path.endswith(".comments.jsonl")
    write_spill(path, [comment(1), comment(2, raw_message="spilled")])
    assert store.import_spill() == 2
    assert (store.get_comment(f"{ARTICLE}#comment-2") or {})["raw_message"] == "spilled"
    assert store.count() == 0 and store.count_comments() == 2
    assert store.import_spill() == 0  # imported once
    assert list(tmp_path.glob("*.comments.jsonl.imported-*"))
