"""The dedup and store pipelines in a real (offline) Scrapy crawl, and the spill path."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.pipelines.dedup import DedupPipeline
from sacorpus.pipelines.store import StorePipeline
from sacorpus.storage.spill_lines import decode_spill_record
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.servers import free_port
from sacorpus.verdict import REFUSED, run_failures

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


def run_crawl(
    tmp_path: Path, articles: list[dict[str, Any]], *settings: str, spider_args: dict[str, str] | None = None
) -> tuple[dict[str, Any], str]:
    src = tmp_path / "articles.json"
    src.write_text(json.dumps(articles), encoding="utf-8")
    stats = tmp_path / "stats.json"
    args = [sys.executable, str(HERE / "pipeline_crawl.py"), str(src), str(stats)]
    for s in settings:
        args += ["-s", s]
    for name, value in (spider_args or {}).items():
        args += ["-a", f"{name}={value}"]
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


def test_unreachable_store_at_start_stops_the_run_at_once(tmp_path: Path) -> None:
    articles = [article(f"https://iol.co.za/news/{i}", [*OTHER, f"Item {i}"], "iol", i) for i in range(5)]
    started = time.monotonic()
    stats, log = run_crawl(
        tmp_path,
        articles,
        "SACORPUS_STORE=sacorpus.storage.mongo.MongoStore",
        f"MONGO_URI=mongodb://127.0.0.1:{free_port()}",  # nothing listens there
        "MONGO_TIMEOUT_MS=500",
    )
    # the stats below say it stopped before any article; the clock only catches a run that waited
    # for every batch to time out (minutes), with room for a loaded machine's slow start
    assert time.monotonic() - started < 90
    assert "cannot be used" in stats[REFUSED] and stats["finish_reason"] == "store_unavailable"
    assert run_failures(stats) and stats.get("sacorpus/store/spilled", 0) == 0
    assert "Topology Description" not in log


def test_outage_during_the_crawl_spills_to_that_stores_file_and_reimports_exactly(tmp_path: Path) -> None:
    db, spill_dir = tmp_path / "corpus.sqlite", tmp_path / "spill-disk"
    stories = [STORY, OTHER, STORY[:4] + OTHER[:1], OTHER[1:] + STORY[:1]]
    articles = [
        article(f"https://iol.co.za/news/{i}", [*stories[i % 4], f"Item {i} of the day."], "iol", i)
        for i in range(8)
    ]
    settings = (
        f"SACORPUS_SQLITE_PATH={db}",
        f"SACORPUS_STORE_SPILL_DIR={spill_dir}",
        "SACORPUS_SQLITE_TIMEOUT=0.2",
        "SACORPUS_STORE_RETRIES=1",
        "SACORPUS_STORE_RETRY_BACKOFF=0.05",
        "SACORPUS_STORE_BATCH_SIZE=3",
    )
    stats, _ = run_crawl(tmp_path, articles, *settings, spider_args={"lock_after": "3", "lock_db": str(db)})
    assert stats["sacorpus/store/stored"] == 3 and stats["sacorpus/store/spilled"] == 5
    assert stats["item_scraped_count"] == 8  # nothing dropped
    spill_files = list(spill_dir.glob("sqlite-*.jsonl"))
    assert len(spill_files) == 1 and str(spill_files[0]) == stats["sacorpus/store/spill_path"]
    assert any("spilled" in line for line in run_failures(stats))  # the run exits non-zero
    spilled = {r["url"]: r for r in map(decode_spill_record, spill_files[0].read_text().splitlines())}
    # the next crawl's store opens, re-imports its own spill file exactly, then labels what had no label
    stats2, _ = run_crawl(tmp_path, [], *settings)
    assert not spill_files[0].exists() and list(spill_dir.glob("sqlite-*.jsonl.imported-*"))
    with SQLiteStore(str(db)) as store:
        assert store.count() == 8
        for url, record in spilled.items():
            got = store.get(url)
            assert got is not None and got["body"] == record["body"] and got["text"] == record["text"]
            if record.get("dedup_label"):
                assert (got["dedup_label"], got["dedup_evidence"]) == (
                    record["dedup_label"],
                    record["dedup_evidence"],
                )
        assert store.unlabelled_urls() == []  # every row fingerprinted and labelled, none reset
        assert store.dedup_fingerprints(list(spilled)).keys() == spilled.keys()
    assert stats2.get("sacorpus/dedup/caught_up", 0) == sum(
        1 for r in spilled.values() if not r.get("dedup_label")
    )


def test_a_slow_store_holds_the_pipeline_back_instead_of_buffering_every_page(tmp_path: Path) -> None:
    """Another writer holds the SQLite file: each batch waits out the lock timeout, and the items behind
    it wait for the store's thread rather than pile up in memory as batches waiting to be written."""
    db, spill_dir = tmp_path / "corpus.sqlite", tmp_path / "spill"
    articles = [
        article(f"https://iol.co.za/news/{i}", [*STORY[: 1 + i % 5], f"Item {i} of the day."], "iol", i)
        for i in range(16)
    ]
    settings = (
        f"SACORPUS_SQLITE_PATH={db}",
        f"SACORPUS_STORE_SPILL_DIR={spill_dir}",
        "SACORPUS_DEDUP_ENABLED=False",
        "SACORPUS_SQLITE_TIMEOUT=0.2",
        "SACORPUS_STORE_RETRIES=0",
        "SACORPUS_STORE_COOLOFF_SECONDS=0",
        "SACORPUS_STORE_BATCH_SIZE=1",
        "SACORPUS_STORE_MAX_PENDING=2",
    )
    stats, _ = run_crawl(tmp_path, articles, *settings, spider_args={"lock_after": "1", "lock_db": str(db)})
    assert stats["item_scraped_count"] == 16  # nothing dropped
    assert stats["sacorpus/store/stored"] + stats["sacorpus/store/spilled"] == 16
    assert stats["sacorpus/store/max_pending"] == 2
    assert stats["sacorpus/store/waited"] >= 1


def test_a_batch_is_written_once_its_pages_weigh_enough(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    long = [f"{s} Paragraph {k} adds to a long page." for k in range(40) for s in STORY]
    articles = [article(f"https://iol.co.za/news/long-{i}", long, "iol", i) for i in range(6)]
    weight = len("\n".join(long)) + len(article("x", long, "iol", 0)["body"])
    mb = 2.5 * weight / (1024 * 1024)  # a batch of three pages weighs more than this
    settings = (f"SACORPUS_SQLITE_PATH={db}", "SACORPUS_DEDUP_ENABLED=False", f"SACORPUS_STORE_BATCH_MB={mb}")
    stats, _ = run_crawl(tmp_path, articles, *settings)
    assert stats["sacorpus/store/stored"] == 6
    with SQLiteStore(str(db)) as store:
        assert store.count() == 6
    assert stats["sacorpus/store/batches"] == 2


SHARED = {"sacorpus.storage.shared.SharedStore": 100}


def test_the_crawls_store_maps_no_memory_and_the_corpus_commands_store_does(tmp_path: Path) -> None:
    """Mapped store pages and the page cache count in a long crawl's resident memory and fill as the store
    grows: the crawl's store maps none and keeps a smaller cache than a command's."""
    db = str(tmp_path / "corpus.sqlite")
    crawler = get_crawler(settings_dict={"EXTENSIONS": SHARED, "SACORPUS_SQLITE_PATH": db})
    shared = StorePipeline.from_crawler(crawler).shared
    assert isinstance(shared.store, SQLiteStore)
    with shared.store as crawl_store, SQLiteStore(db) as other:
        assert _pragma(crawl_store, "mmap_size") == 0
        assert _pragma(other, "mmap_size") == 4 * 64 * 1024 * 1024  # 4 x SACORPUS_SQLITE_CACHE_MB
        assert _pragma(crawl_store, "cache_size") == -16 * 1024  # SACORPUS_CRAWL_SQLITE_CACHE_MB (KiB)
        assert _pragma(other, "cache_size") == -64 * 1024


def test_a_crawls_sqlite_cache_is_its_own_setting(tmp_path: Path) -> None:
    settings = {"EXTENSIONS": SHARED, "SACORPUS_SQLITE_PATH": str(tmp_path / "c.sqlite")}
    crawler = get_crawler(settings_dict=settings | {"SACORPUS_CRAWL_SQLITE_CACHE_MB": 4})
    store = StorePipeline.from_crawler(crawler).shared.store
    assert isinstance(store, SQLiteStore)
    with store:
        assert _pragma(store, "cache_size") == -4 * 1024


def _pragma(store: SQLiteStore, name: str) -> int:
    with store._cursor() as cur:
        return int(cur.execute(f"PRAGMA {name}").fetchone()[0])


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


def test_an_original_arriving_after_its_copies_relabels_them_in_the_store(tmp_path: Path) -> None:
    """Copies listed before their original are stored (batch of 3) before or after it arrives; once the
    original is in, it is ``unique`` and the stored copies point at it, as ``dedup --rebuild`` says."""
    db = tmp_path / "corpus.sqlite"
    published = {"copy": "2024-05-02T10:00:00Z", "original": "2024-05-01T10:00:00Z"}
    articles = [
        {**article(f"https://copy{i}.co.za/news/{i}", [*STORY, f"Syndicated copy {i}."], "copy", i),
         "published_at": published["copy"]}
        for i in range(2)
    ] + [
        {**article("https://news.co.za/weather", OTHER, "news", 2), "published_at": published["copy"]},
        {**article("https://origin.co.za/news/clinics", STORY, "origin", 3), "published_at": published["original"]},
        {**article("https://news.co.za/weather-2", [*OTHER[:1], *STORY[:1]], "news", 4)},
    ]  # fmt: skip
    stats, _ = run_crawl(tmp_path, articles, f"SACORPUS_SQLITE_PATH={db}", "SACORPUS_STORE_BATCH_SIZE=3")
    assert stats["sacorpus/dedup/relabelled"] == 2
    with SQLiteStore(str(db)) as store:
        original = store.get("https://origin.co.za/news/clinics")
        assert original is not None and original["dedup_label"] == "unique"
        assert original["dedup_evidence"] == []
        for i in range(2):
            copy = store.get(f"https://copy{i}.co.za/news/{i}")
            assert copy is not None and copy["dedup_label"] == "duplicate"
            assert "https://origin.co.za/news/clinics" in [e["url"] for e in copy["dedup_evidence"]]
        ingest = {r["url"]: (r["dedup_label"], r["dedup_evidence"]) for r in store.iter_articles()}
    rebuild = subprocess.run(
        [sys.executable, "-m", "scrapy", "dedup", "--rebuild", "-s", f"SACORPUS_SQLITE_PATH={db}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rebuild.returncode == 0, rebuild.stderr[-2000:]
    with SQLiteStore(str(db)) as store:
        assert {r["url"]: (r["dedup_label"], r["dedup_evidence"]) for r in store.iter_articles()} == ingest
