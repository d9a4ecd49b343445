"""The offline demo crawl, end to end: every stage runs for real on the synthetic site.

This is issue 2's "done when": at least 25 articles stored with text, language, tokens and a dedup
label; glued paragraphs split; hidden text absent; ``-O out.jsonl`` valid; the same with MongoDB;
a second run fetches nothing already stored and ``refetch=1`` updates records without duplicating them.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter

import pytest

from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow

GLUED = re.compile(r"[a-z]\.</p><p>[A-Z]")


def stored_articles(path) -> list[dict]:
    store = SQLiteStore(str(path))
    store.open()
    try:
        return list(store.iter_articles())
    finally:
        store.close()


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    from crawlkit import run_crawl

    return run_crawl("demo", tmp_path_factory.mktemp("demo"))


def test_demo_crawl_stores_clean_labelled_articles(demo_run):
    assert demo_run.returncode == 0, demo_run.log[-3000:]
    articles = [a for a in stored_articles(demo_run.sqlite_path) if a["page_type"] == "article"]
    assert len(articles) >= 25, demo_run.log[-3000:]
    for a in articles:
        assert a["text"] and len(a["text"]) > 200, a["url"]
        assert a["language"] and a["language"] != "und", a["url"]
        assert a["token_count"] > 50 and len(a["tokens"]) == a["token_count"] == len(a["token_offsets"])
        assert a["dedup_label"] in {"unique", "similar", "duplicate"}
        assert a["html"] and a["body"], "raw HTML and raw body are kept in storage"
        assert "HIDDEN-MARKER" not in a["text"], a["url"]
    langs = {a["language"] for a in articles}
    assert {"en", "zu", "af"} <= langs
    labels = {a["dedup_label"] for a in articles}
    assert "duplicate" in labels and "unique" in labels


def test_every_original_published_first_is_unique(demo_run):
    """The demo's re-published copies are published after their originals and listed before them:
    whichever arrives first, the originals are ``unique`` and each copy points at its original."""
    from sacorpus.demo.site import load_articles

    demo = load_articles()
    by_id = {a.id: a for a in demo}
    stored = {a["url"].rsplit("/", 1)[-1]: a for a in stored_articles(demo_run.sqlite_path)}
    variants = [a for a in demo if a.variant_of is not None]
    assert len(variants) == 4
    fetched_first = 0
    for copy in variants:
        original = by_id[copy.variant_of]
        assert original.published < copy.published
        got_copy, got_original = stored[f"{copy.slug}-{copy.id}"], stored[f"{original.slug}-{original.id}"]
        fetched_first += got_copy["fetched_at"] < got_original["fetched_at"]
        assert got_original["dedup_label"] == "unique", got_original["dedup_evidence"]
        assert got_copy["dedup_label"] in {"duplicate", "similar"}, copy.slug
        assert got_original["url"] in [e["url"] for e in got_copy["dedup_evidence"]], copy.slug
    # the crawl's label counters say how the articles stand after relabelling, as the store does
    stored_labels = Counter(a["dedup_label"] for a in stored.values())
    for label in ("unique", "duplicate", "similar"):
        counted = re.search(rf"'sacorpus/dedup/{label}': (\d+)", demo_run.log)
        assert (int(counted.group(1)) if counted else 0) == stored_labels[label], label
    # which copy arrives first depends on the scheduler and the load; the relabelling of copies stored
    # before their original is proven deterministically in tests/dedup and tests/storage
    print(f"copies fetched before their original in this crawl: {fetched_first} of {len(variants)}")


def test_glued_paragraphs_come_out_separate(demo_run):
    articles = stored_articles(demo_run.sqlite_path)
    glued = [a for a in articles if a["html"] and GLUED.search(a["html"])]
    assert glued, "the demo site has a page with </p><p> glued paragraphs"
    for a in glued:
        for m in GLUED.finditer(a["html"]):
            left, right = m.group(0)[0], m.group(0)[-1]
            # the last word of one paragraph and the first of the next never fuse into one token
            assert not re.search(rf"{left}\.{right}", a["text"]), a["url"]
        assert a["text"].count("\n") >= 3


def test_jsonl_export_has_one_valid_object_per_article(demo_run):
    stored = stored_articles(demo_run.sqlite_path)
    assert len(demo_run.items) == len(stored)
    assert {i["url"] for i in demo_run.items} == {a["url"] for a in stored}
    for item in demo_run.items:
        assert item["body"] is None  # raw bytes stay in storage
        assert isinstance(item["tokens"], list)


def test_second_run_fetches_nothing_already_stored_and_refetch_updates(demo_run, tmp_path):
    from crawlkit import run_crawl

    before = stored_articles(demo_run.sqlite_path)
    again = run_crawl("demo", demo_run.workdir)
    assert again.returncode == 0, again.log[-3000:]
    assert again.items == []
    assert "already_stored" in again.log
    refetched = run_crawl("demo", demo_run.workdir, "-a", "refetch=1", "-s", "JOBDIR=")
    assert refetched.returncode == 0, refetched.log[-3000:]
    assert len(refetched.items) == len(before)
    after = stored_articles(demo_run.sqlite_path)
    assert len(after) == len(before)
    # an unchanged article keeps its label: the original stays unique, its copies stay duplicates
    labels = {a["url"]: a["dedup_label"] for a in before}
    assert {a["url"]: a["dedup_label"] for a in after} == labels
    assert max(a["fetched_at"] for a in after) > max(a["fetched_at"] for a in before) or len(before) == 0
    with sqlite3.connect(demo_run.sqlite_path) as db:
        (n,) = db.execute("select count(*) - count(distinct url) from articles").fetchone()
    assert n == 0


def test_demo_crawl_into_mongodb_stores_the_same_articles(demo_run, mongo_server, tmp_path):
    """The same crawl with MONGO_URI set lands the same articles in a MongoDB-wire server."""
    from crawlkit import run_crawl

    from sacorpus.storage.mongo import MongoStore

    database = f"{mongo_server.database}_democrawl"
    run = run_crawl("demo", tmp_path, env={"MONGO_URI": mongo_server.uri, "MONGO_DATABASE": database})
    assert run.returncode == 0, run.log[-3000:]
    store = MongoStore(mongo_server.uri, database)
    store.open()
    try:
        in_mongo = {a["url"]: a for a in store.iter_articles()}
        store.drop()
    finally:
        store.close()
    in_sqlite = {a["url"]: a for a in stored_articles(demo_run.sqlite_path)}
    assert set(in_mongo) == set(in_sqlite)
    for url, a in in_sqlite.items():
        b = in_mongo[url]
        for key in ("text", "title_clean", "language", "token_count", "published_at"):
            assert a[key] == b[key], (url, key)
        # raw bodies are kept byte for byte; the demo server writes its own (per-run) port into them
        port = re.compile(rb"127\.0\.0\.1:\d+")
        assert port.sub(b"HOST", b["body"]) == port.sub(b"HOST", a["body"])
    # the original of each pair is the earliest published, whatever the arrival order
    assert {u: a["dedup_label"] for u, a in in_mongo.items()} == {
        u: a["dedup_label"] for u, a in in_sqlite.items()
    }


def test_one_store_connection_per_crawl(crawl):
    """The spider's already-stored check, the dedup stage and the store stage share one connection."""
    run = crawl("demo", export=False)
    assert run.returncode == 0, run.log[-3000:]
    assert run.log.count("store connection opened") == 1, run.log[-3000:]
    assert "stored=" in run.log
    assert "Traceback" not in run.log and "] ERROR:" not in run.log, run.log[-3000:]


def test_urls_found_in_pages_keep_the_publications_host(crawl):
    """The demo is fetched from a loopback server; canonical URLs and links name the publication's host."""
    run = crawl("demo")
    assert run.returncode == 0, run.log[-3000:]
    canonicals = [item["canonical_url"] for item in run.items if item.get("canonical_url")]
    assert canonicals and all(url.startswith("http://demo.sacorpus.invalid/") for url in canonicals)
    assert not any("127.0.0.1" in link["url"] for item in run.items for link in item.get("links") or [])
