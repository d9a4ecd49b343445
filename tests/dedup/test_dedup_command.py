"""`scrapy dedup [--rebuild]` as a user runs it (a subprocess in the project)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
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
