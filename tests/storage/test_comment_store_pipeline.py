"""The comment store stage in a real (offline) Scrapy crawl: batched upserts by URL, and an outage that
spills comments to the store's own comments file, re-imported exactly when the store next opens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_store_pipelines import run_crawl

from sacorpus.storage.spill_lines import decode_spill_record
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.verdict import run_failures

ARTICLE = "https://iol.co.za/news/story-1"


def comment(i: int, **extra: Any) -> dict[str, Any]:
    return {
        "url": f"{ARTICLE}#comment-{i}",
        "article_url": ARTICLE,
        "publication": "iol",
        "comment_id": str(i),
        "raw_message": f"Reader comment number {i}.",
        "text": f"Reader comment number {i}.",
        "fetched_at": f"2024-05-01T08:00:{i:02d}Z",
        **extra,
    }


def test_comments_are_stored_once_and_apart_from_articles(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    settings = (f"SACORPUS_SQLITE_PATH={db}", f"SACORPUS_STORE_SPILL_DIR={tmp_path / 'spill'}")
    stats, _ = run_crawl(tmp_path, [comment(i) for i in range(5)] + [comment(1)], *settings)
    assert stats["sacorpus/comments/store/stored"] == 6 and "sacorpus/store/stored" not in stats
    assert stats["sacorpus/comments/store/new"] == 5
    stats, _ = run_crawl(tmp_path, [comment(2, raw_message="Edited.", text="Edited.")], *settings)
    assert stats["sacorpus/comments/store/updated"] == 1
    with SQLiteStore(str(db)) as store:
        assert store.count_comments() == 5 and store.count() == 0
        assert (store.get_comment(f"{ARTICLE}#comment-2") or {})["text"] == "Edited."


def test_an_outage_spills_comments_to_their_own_file_and_they_come_back(tmp_path: Path) -> None:
    db, spill_dir = tmp_path / "corpus.sqlite", tmp_path / "spill-disk"
    settings = (
        f"SACORPUS_SQLITE_PATH={db}",
        f"SACORPUS_STORE_SPILL_DIR={spill_dir}",
        "SACORPUS_SQLITE_TIMEOUT=0.2",
        "SACORPUS_STORE_RETRIES=1",
        "SACORPUS_STORE_RETRY_BACKOFF=0.05",
        "SACORPUS_STORE_BATCH_SIZE=3",
    )
    comments = [comment(i) for i in range(8)]
    stats, _ = run_crawl(tmp_path, comments, *settings, spider_args={"lock_after": "3", "lock_db": str(db)})
    assert stats["sacorpus/comments/store/stored"] == 3 and stats["sacorpus/comments/store/spilled"] == 5
    spill_files = list(spill_dir.glob("sqlite-*.comments.jsonl"))
    assert len(spill_files) == 1 and str(spill_files[0]) == stats["sacorpus/comments/store/spill_path"]
    assert any("comments were spilled" in line for line in run_failures(stats))  # exits non-zero
    spilled = {r["url"]: r for r in map(decode_spill_record, spill_files[0].read_text().splitlines())}
    run_crawl(tmp_path, [], *settings)  # the store opens again: its comments file is re-imported
    assert not spill_files[0].exists()
    with SQLiteStore(str(db)) as store:
        assert store.count_comments() == 8 and store.count() == 0
        for url, record in spilled.items():
            assert (store.get_comment(url) or {})["raw_message"] == record["raw_message"]
