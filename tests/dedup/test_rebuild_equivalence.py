"""``dedup --rebuild`` gives exactly the crawl-time labels (both backends), in batches of any size.

A store gets planted near-duplicates through the dedup and store stages in fetch order (exact copies,
copies with boilerplate, reworded sentences, new leads, half-copies, copies fetched before their
original, articles without text); the rebuild must then give every article the same label, evidence
and text hash, keep the kept word counts equal to a recount, never label an original a copy of a
later one, and rewrite nothing when run again.
"""

from __future__ import annotations

import random

import pytest
from test_dedup_index import BOILER, ingest, story, text

from sacorpus.items import Article
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.maintenance import check_counts
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.dedup import DedupConfig, order_key
from sacorpus.text.dedup_rebuild import rebuild_index


def _reword(sentence: str, rng: random.Random) -> str:
    words = sentence.split()
    i = rng.randrange(len(words))
    words[i] = "reportedly" if words[i] != "reportedly" else "allegedly"
    return " ".join(words)


def planted(n: int, seed: int) -> list[Article]:
    """``n`` articles: a third originals, the rest copies of them of every kind, out of order."""
    rng = random.Random(seed)
    stories = [story(rng, rng.randint(8, 14)) for _ in range(n // 3)]
    out = []
    for i in range(n):
        base = stories[i % len(stories)]
        kind = i // len(stories)
        sentences = {
            0: base,
            1: [*base, BOILER],
            2: [_reword(s, rng) if rng.random() < 0.1 else s for s in base],
            3: ["A new lead written by the sub-editor for this edition of the paper.", *base[1:]],
            4: base[: len(base) // 2] + story(rng, len(base) // 2),
        }.get(kind % 5, story(rng, 6))
        # the copies published before their original sometimes (a feed lists the syndicated copy first)
        day = 20 - kind if rng.random() < 0.3 else 10 + kind
        body = None if i % 17 == 5 else text(sentences)
        out.append(
            Article(
                url=f"https://pub{i % 4}.co.za/news/{i}",
                publication=f"pub{i % 4}",
                fetched_at=f"2024-06-01T08:{i // 60:02d}:{i % 60:02d}Z",
                published_at=f"2024-05-{day:02d}T06:00:00Z" if i % 11 else None,
                text=body,
                tokens=(body or "").split(),
                body=b"<html></html>",
            )
        )
    return out


def labels(store: ArticleStore) -> dict[str, tuple]:
    fields = ["dedup_label", "dedup_evidence", "text_hash"]
    return {r["url"]: tuple(r.get(f) for f in fields) for r in store.iter_articles(fields=fields)}


@pytest.mark.parametrize("batch_size", [1, 9, 500])
def test_rebuild_gives_the_crawl_time_labels(index_store: ArticleStore, batch_size: int) -> None:
    articles = planted(90, seed=batch_size)
    assert ingest(index_store, articles, DedupConfig(), batch=5, textless=True) > 0  # originals after copies
    crawl = labels(index_store)
    assert {label for label, _e, _h in crawl.values()} >= {"duplicate", "similar", "unique", None}

    # scramble some labels (and with them the kept counts' duplicate keys): the rebuild restores them
    for url in list(crawl)[::7]:
        index_store.update_fields(url, {"dedup_label": "duplicate", "dedup_evidence": [], "text_hash": "x"})
    counts = rebuild_index(index_store, DedupConfig(), progress=False, batch_size=batch_size)
    assert labels(index_store) == crawl
    assert sum(counts.values()) == 90
    assert counts["no_text"] == sum(1 for a in articles if a.text is None)
    assert check_counts(index_store) == []

    # nothing mislabelled: every piece of evidence names a copy that came first
    key = {a.url: order_key(a.published_at, a.fetched_at, a.url) for a in articles}
    for url, (label, evidence, _h) in crawl.items():
        assert all(key[e["url"]] < key[url] for e in evidence), url
        assert (label == "unique") == (not evidence and label is not None), url


def test_a_second_rebuild_rewrites_no_article(tmp_path) -> None:
    """Labels already right are not written again (a rebuild with the crawl's settings is a check)."""
    with SQLiteStore(str(tmp_path / "c.sqlite"), spill_path=str(tmp_path / "s.jsonl")) as store:
        ingest(store, planted(45, seed=3), DedupConfig(), batch=5, textless=True)
        rebuild_index(store, DedupConfig(), progress=False, batch_size=10)
        before = labels(store)
        assert store._conn is not None
        # a trigger of this connection only counts the article rows the rebuild writes
        store._conn.executescript(
            "CREATE TEMP TABLE writes (n INTEGER); INSERT INTO writes VALUES (0);"
            "CREATE TEMP TRIGGER count_writes AFTER UPDATE ON main.articles "
            "BEGIN UPDATE writes SET n = n + 1; END;"
        )
        # one batch: a copy fetched before its original ends the batch with its stored label
        rebuild_index(store, DedupConfig(), progress=False, batch_size=100)
        assert labels(store) == before
        assert store._conn.execute("SELECT n FROM writes").fetchone()[0] == 0
        store.update_fields("https://pub1.co.za/news/1", {"dedup_label": "similar"})
        rebuild_index(store, DedupConfig(), progress=False, batch_size=100)
        assert labels(store) == before
        assert store._conn.execute("SELECT n FROM writes").fetchone()[0] == 2  # the scramble and its repair


def test_a_relabel_reads_the_label_fields_of_stored_articles(index_store: ArticleStore) -> None:
    evidence = [{"url": "https://a.co.za/1", "score": 0.91, "shared": 7, "kind": "sentences"}]
    index_store.upsert_articles(
        [
            {"url": "https://b.co.za/2", "text": "Body two.", "dedup_label": "duplicate", "text_hash": "h2"}
            | {"dedup_evidence": evidence, "fetched_at": "2024-01-01T00:00:00Z", "body": b"<p>two</p>"},
            {"url": "https://b.co.za/3", "text": None, "fetched_at": "2024-01-01T00:00:01Z"},
        ]
    )
    got = index_store.dedup_labels(["https://b.co.za/2", "https://b.co.za/3", "https://b.co.za/404"])
    assert got == {
        "https://b.co.za/2": {"text_hash": "h2", "dedup_label": "duplicate", "dedup_evidence": evidence},
        "https://b.co.za/3": {"text_hash": None, "dedup_label": None, "dedup_evidence": None},
    }
