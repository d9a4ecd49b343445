"""``scrapy reextract``: stored raw bodies go through the page core again; fetch facts stay, labels rebuilt."""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

from corpus_fixtures import REPO, run_command

from sacorpus.items import Article
from sacorpus.publications import load_publication
from sacorpus.storage.sqlite import SQLiteStore

PAGE = (REPO / "tests" / "extraction" / "fixtures" / "iol_article.html").read_text(encoding="utf-8")
URL = "https://www.iol.co.za/news/south-africa/severe-storms-gauteng-1234"
COPY = "https://www.iol.co.za/the-star/news/severe-storms-gauteng-5678"
OTHER = "https://www.citizen.co.za/news/unrelated-story/"


def _stale(url: str, publication: str, body: bytes | None, html: str | None = None) -> dict:
    """A record as an old extraction left it: wrong text and title, no language or tokens."""
    item = Article(
        url=url,
        publication=publication,
        body=body,
        html=html,
        headers={"Content-Type": "text/html; charset=utf-8"},
        fetched_at="2025-11-28T14:00:00Z",
        text="Stale text from an old rule set.",
        title="Stale",
        title_clean="Stale",
        dedup_label="unique",
        rule_version="old",
    )
    return dataclasses.asdict(item)


def _store(path: Path) -> SQLiteStore:
    return SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl"))


def test_reextract_updates_stored_articles_of_one_publication(tmp_path):
    path = tmp_path / "corpus.sqlite"
    with _store(path) as store:
        store.upsert_articles(
            [
                _stale(URL, "iol", gzip.compress(PAGE.encode("utf-8"))),
                _stale(COPY, "iol", None, html=PAGE),  # stored without its raw body: its HTML is used
                _stale(OTHER, "citizen", b"<html><body><p>Other publication.</p></body></html>"),
            ]
        )
    run = run_command("reextract", "--publication", "iol", "--no-progress", store=path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "2 articles re-extracted" in run.stderr
    with _store(path) as store:
        first, copy, other = store.get(URL), store.get(COPY), store.get(OTHER)
    assert first["title_clean"].startswith("Severe storms hit Gauteng")
    assert "Stale text" not in first["text"] and len(first["text"]) > 300
    assert first["rule_version"] == load_publication("iol").rules_for(None).version
    assert first["language"] == "en" and first["token_count"] > 50
    assert first["fetched_at"] == "2025-11-28T14:00:00Z"  # what was fetched is kept
    assert copy["text"] == first["text"]
    assert sorted([first["dedup_label"], copy["dedup_label"]]) == ["duplicate", "unique"]  # labels rebuilt
    assert other["text"] == "Stale text from an old rule set."  # another publication is left alone


def test_reextract_on_a_missing_corpus_fails_with_one_line(tmp_path):
    run = run_command("reextract", "--no-progress", store=tmp_path / "absent.sqlite")
    assert run.returncode == 1
    assert "no corpus at" in run.stderr and "Traceback" not in run.stderr
