"""The demo publication's comments end to end: ``scrapy crawl demo -a comments=1`` offline, then the
corpus commands with ``--comments`` / ``--articles`` keeping the two registers apart."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from crawlkit import run_crawl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "corpus"))
from corpus_fixtures import CommandRun, run_command

from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("demo_comments")
    first = run_crawl("demo", work, "-a", "comments=1")
    again = run_crawl("demo", work, "-a", "sources=comments")  # the next day's run, an hour later
    with SQLiteStore(str(work / "corpus.sqlite")) as store:
        comments = list(store.iter_comments())
        articles = list(store.iter_articles(fields=["word_count"]))
    return {"work": work, "first": first, "again": again, "comments": comments, "articles": articles}


def command(demo: dict[str, Any], name: str, *args: str) -> CommandRun:
    run = run_command(name, *args, "--no-progress", store=demo["work"] / "corpus.sqlite")
    assert run.returncode == 0, run.stderr[-2000:]
    return run


def test_the_demo_stores_both_kinds_of_comments_offline(demo: dict[str, Any]) -> None:
    assert demo["first"].returncode == 0, demo["first"].log[-3000:]
    comments = demo["comments"]
    assert len(comments) >= 20
    assert {c["source"] for c in comments} == {"disqus", "page"}
    assert all(c["publication"] == "demo" and c["article_url"] in c["url"] for c in comments)
    assert {c["language"] for c in comments} >= {"en", "zu", "af"}
    assert any(c["parent"] for c in comments if c["source"] == "disqus")
    assert [i for i in demo["first"].items if "article_url" in i], "comments are items of the crawl too"


def test_threads_not_due_cost_no_request_and_nothing_is_stored_twice(demo: dict[str, Any]) -> None:
    again = demo["again"]
    assert again.returncode == 0, again.log[-3000:]
    assert "sacorpus/comments/threads/polled" not in again.log  # polled daily: none due an hour later
    assert "sacorpus/comments/store/new" not in again.log and again.items == []


def test_export_comments_writes_every_comment(demo: dict[str, Any]) -> None:
    out = demo["work"] / "comments.jsonl"
    run = command(demo, "export", "--comments", "-o", str(out))
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(demo["comments"]) and "comments exported" in run.stderr
    assert {"url", "article_url", "author_name", "raw_message", "text", "tokens", "is_deleted"} <= set(
        lines[0]
    )
    only = command(demo, "export", "--comments", "--fields", "text", "-o", "-").stdout.splitlines()
    assert set(json.loads(only[0])) == {"url", "text"}
    bad = run_command("export", "--comments", "--format", "lines", store=demo["work"] / "corpus.sqlite")
    assert bad.returncode != 0 and "JSONL" in bad.stderr and "Traceback" not in bad.stderr


def test_word_counts_of_the_two_registers_stay_apart(demo: dict[str, Any]) -> None:
    words = {"comments": sum(c["word_count"] for c in demo["comments"])}
    words["articles"] = sum(a["word_count"] for a in demo["articles"])
    for register in ("comments", "articles"):
        run = command(demo, "wordlist", f"--{register}", "--top", "3")
        assert f"{words[register]} word tokens" in run.stderr
    assert f"{words['articles']} word tokens" in command(demo, "wordlist", "--top", "3").stderr  # default


def test_search_and_kwic_read_one_register(demo: dict[str, Any]) -> None:
    said = "Nobody from the municipality answers the phone"  # a demo comment, in no article
    assert said not in command(demo, "kwic", "municipality").stdout
    hits = command(demo, "kwic", "--comments", "municipality").stdout
    assert "municipality" in hits and "#comment-" in hits
    found = command(demo, "search", "--comments", "municipality").stdout
    assert "#comment-" in found and "comments" in command(demo, "search", "--comments", "water").stderr


def test_stats_counts_and_names_the_register_it_reads(demo: dict[str, Any]) -> None:
    for register, records in (("comments", demo["comments"]), ("articles", demo["articles"])):
        table = command(demo, "stats", f"--{register}").stdout.splitlines()
        assert table[0].split("\t")[:2] == ["publication", register]
        total = table[-1].split("\t")
        assert total[0] == "TOTAL" and int(total[1]) == len(records)
        assert int(total[3]) == sum(r["word_count"] for r in records)
