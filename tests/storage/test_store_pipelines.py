"""The dedup and store pipelines in a real (offline) Scrapy crawl, and the spill path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.pipelines.dedup import DedupPipeline
from sacorpus.pipelines.store import StorePipeline
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.servers import free_port

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

STORY = [
    "The provincial health department opened three new clinics in Mthatha on Monday morning.",
    "Officials said the clinics would serve more than forty thousand residents in the district.",
    "Community leaders welcomed the move but warned that staff shortages remain a serious problem.",
    "The department said it would hire two hundred nurses before the end of the financial year.",
    "Patients previously travelled up to sixty kilometres to reach the nearest hospital.",
]
OTHER = [
    "Heavy rain caused flooding along the KwaZulu-Natal south coast over the weekend.",
    "Several roads were closed and residents of low-lying areas were moved to community halls.",
    "The weather service warned that more rain was expected on Wednesday and Thursday.",
]


def article(url: str, sentences: list[str], publication: str, i: int) -> dict[str, Any]:
    return {
        "url": url,
        "publication": publication,
        "fetched_at": f"2024-05-01T08:00:{i:02d}Z",
        "text": "\n".join(sentences),
        "body": f"<html><body>{' '.join(sentences)}</body></html>",
    }


def run_crawl(tmp_path: Path, articles: list[dict[str, Any]], *settings: str) -> tuple[dict[str, Any], str]:
    src = tmp_path / "articles.json"
    src.write_text(json.dumps(articles), encoding="utf-8")
    stats = tmp_path / "stats.json"
    args = [sys.executable, str(HERE / "pipeline_crawl.py"), str(src), str(stats)]
    for s in settings:
        args += ["-s", s]
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(stats.read_text(encoding="utf-8")), proc.stderr


def test_crawl_labels_and_stores(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    articles = [
        article("https://iol.co.za/news/clinics-1", STORY, "iol", 1),
        article("https://citizen.co.za/news/clinics-x", STORY, "citizen", 2),  # syndicated copy
        article(
            "https://mg.co.za/article/9",
            ["A new lead sentence written by another editor today.", *STORY[1:]],
            "mg",
            3,
        ),
        article("https://iol.co.za/news/floods-2", OTHER, "iol", 4),
        article("https://iol.co.za/news/empty", [], "iol", 5),
        article("https://iol.co.za/news/clinics-1", STORY, "iol", 6),  # the same URL fetched again
    ]
    stats, log = run_crawl(
        tmp_path,
        articles,
        f"SACORPUS_SQLITE_PATH={db}",
        "SACORPUS_STORE_BATCH_SIZE=2",
        f"SACORPUS_STORE_SPILL_PATH={tmp_path / 'spill.jsonl'}",
    )
    assert stats["sacorpus/store/stored"] == 6
    assert "sacorpus/store/spilled" not in stats
    assert stats["sacorpus/dedup/no_text"] == 1
    # the copy is a duplicate; the new lead (4 of 6 sentences shared) is similar; the original and
    # its unchanged re-fetch stay unique (first come is the original, whatever was indexed since)
    assert (
        stats["sacorpus/dedup/duplicate"],
        stats["sacorpus/dedup/similar"],
        stats["sacorpus/dedup/unique"],
    ) == (1, 1, 3)
    assert "articles stored this run" in log
    with SQLiteStore(str(db)) as store:
        assert store.count() == 5  # one record per URL
        copy = store.get("https://citizen.co.za/news/clinics-x")
        assert copy is not None
        assert copy["dedup_label"] == "duplicate"
        assert copy["dedup_evidence"][0]["url"] == "https://iol.co.za/news/clinics-1"
        assert copy["body"] == articles[1]["body"].encode("utf-8")
        lead = store.get("https://mg.co.za/article/9")
        assert lead is not None and lead["dedup_label"] == "similar"
        assert lead["dedup_evidence"][0]["kind"] == "sentences"
        assert lead["dedup_evidence"][0]["score"] == round(4 / 6, 4)
        floods = store.get("https://iol.co.za/news/floods-2")
        assert floods is not None and floods["dedup_label"] == "unique"


def test_store_outage_spills_and_reimports(tmp_path: Path) -> None:
    spill = tmp_path / "spill.jsonl"
    articles = [article(f"https://iol.co.za/news/{i}", [*OTHER, f"Item {i}"], "iol", i) for i in range(5)]
    stats, log = run_crawl(
        tmp_path,
        articles,
        "SACORPUS_STORE=sacorpus.storage.mongo.MongoStore",
        f"MONGO_URI=mongodb://127.0.0.1:{free_port()}",  # nothing listens there
        "MONGO_TIMEOUT_MS=200",
        "SACORPUS_STORE_RETRIES=1",
        "SACORPUS_STORE_RETRY_BACKOFF=0.05",
        "SACORPUS_STORE_BATCH_SIZE=3",
        f"SACORPUS_STORE_SPILL_PATH={spill}",
    )
    assert stats["sacorpus/store/spilled"] == 5
    assert stats["sacorpus/store/errors"] >= 4
    assert stats["sacorpus/dedup/errors"] == 5  # dedup could not reach its index: unlabelled, not dropped
    assert stats["item_scraped_count"] == 5
    assert "spilled 3 articles" in log
    assert len(spill.read_text(encoding="utf-8").splitlines()) == 5
    # the next open of a (working) store re-imports the spill file
    with SQLiteStore(str(tmp_path / "corpus.sqlite"), spill_path=str(spill)) as store:
        assert store.count() == 5
        got = store.get("https://iol.co.za/news/3")
        assert got is not None and got["body"] == articles[3]["body"].encode("utf-8")
    assert not spill.exists()


SHARED = {"sacorpus.storage.shared.SharedStore": 100}


@pytest.mark.parametrize("pipeline", [StorePipeline, DedupPipeline])
def test_stages_need_the_shared_store(pipeline: type) -> None:
    with pytest.raises(NotConfigured, match="SharedStore is not in EXTENSIONS"):
        pipeline.from_crawler(get_crawler(settings_dict={"EXTENSIONS": {}}))


def test_stages_share_one_store_instance() -> None:
    crawler = get_crawler(settings_dict={"EXTENSIONS": SHARED})
    assert StorePipeline.from_crawler(crawler).store is DedupPipeline.from_crawler(crawler).store


@pytest.mark.parametrize("pipeline", [StorePipeline, DedupPipeline])
@pytest.mark.parametrize("switch", ["SACORPUS_STORE_ENABLED", "SACORPUS_DEDUP_ENABLED"])
def test_switches(pipeline: type, switch: str) -> None:
    crawler = get_crawler(settings_dict={switch: False, "EXTENSIONS": SHARED})
    own = (pipeline is StorePipeline) == (switch == "SACORPUS_STORE_ENABLED")
    if own:
        with pytest.raises(NotConfigured):
            pipeline.from_crawler(crawler)
    else:
        assert isinstance(pipeline.from_crawler(crawler), pipeline)
