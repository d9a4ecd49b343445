"""``dedup --rebuild`` keeps its index in memory: the same answers, labels and stored index as the store's.

The rebuild asks an in-memory index (``sacorpus.text.dedup_memory``) and writes the store's index in
one bulk load at the end. These prove on both backends that the memory index answers every question
as the store's index does after the same adds, that the rebuild leaves exactly the index ingest left
(fingerprints, postings with their counts and id lists, exact-key lookups), that many exact copies
keep each backend's lookup evidence (SQLite: the first 20 by url; MongoDB: the first 21 added), and
that the store's index is no longer asked article by article.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_dedup_index import ingest, story, text
from test_rebuild_equivalence import labels, planted

from sacorpus.items import Article
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.dedup import DedupConfig, fingerprint
from sacorpus.text.dedup_memory import LookupRule, MemoryDedupIndex
from sacorpus.text.dedup_rebuild import rebuild_index


def _memory_like(store: ArticleStore, merge_at: int = 1 << 16) -> MemoryDedupIndex:
    return MemoryDedupIndex(
        store.dedup_max_ids, LookupRule(store.dedup_lookup_limit, store.dedup_lookup_sorted), merge_at
    )


def _answers(index: Any, urls: list[str]) -> dict[str, Any]:
    """Every question dedup asks, over every url and sentence hash the index holds."""
    fps = index.dedup_fingerprints(urls)
    hashes = sorted({int(e[0]) for fp in fps.values() for e in fp["sentences"]})
    lookups = {
        url: index.dedup_lookup(
            text_hash=fp["text_hash"], canonical_key=fp["canonical_key"], slug_key=fp["slug_key"], url="x"
        )
        for url, fp in fps.items()
    }
    return {
        "fingerprints": {
            u: {**fp, "sentences": [[int(x) for x in e] for e in fp["sentences"]]} for u, fp in fps.items()
        },
        "candidates": {h: (n, list(ids)) for h, (n, ids) in index.dedup_candidates(hashes).items()},
        "counts": index.dedup_counts([*hashes, 12345]),
        "lookups": lookups,
        "order_keys": index.dedup_order_keys([*urls, "https://not.indexed/"]),
    }


def _copies(n: int) -> list[Article]:
    """``n`` exact copies of one story under shuffled urls (more than a lookup gives), then others."""
    rng = random.Random(4)
    body = text(story(rng, 9))
    numbers = list(range(n))
    rng.shuffle(numbers)
    out = [
        Article(
            url=f"https://copy.co.za/a/{k:03d}",
            publication="copy",
            fetched_at=f"2024-06-01T09:00:{i:02d}Z",
            published_at=f"2024-06-01T09:00:{i:02d}Z",
            text=body,
            tokens=body.split(),
            body=b"<html></html>",
        )
        for i, k in enumerate(numbers)
    ]
    return out + planted(12, seed=8)


@pytest.mark.parametrize("merge_at", [1, 7, 1 << 16], ids=["merged-each-add", "merged-often", "recent"])
@pytest.mark.parametrize("max_ids", [None, 8], ids=["max-ids", "few-ids"])
def test_the_memory_index_answers_as_the_store_does(
    index_store: ArticleStore, merge_at: int, max_ids: int | None
) -> None:
    """Also when the postings were merged into the sorted arrays after every add or every few
    (numbers in order within a hash) and when a hash holds more articles than its posting keeps."""
    if max_ids is not None:
        index_store.dedup_max_ids = max_ids  # type: ignore[misc]
    memory = _memory_like(index_store, merge_at)
    records = [
        fingerprint(a.url, a.text, config=DedupConfig(), order=str(i)).to_record()
        for i, a in enumerate(_copies(30))
        if a.text
    ]
    records.append({**records[-1], "url": "https://empty.co.za/1", "sentences": [], "text_hash": None})
    for record in records:
        index_store.dedup_add(record)
        memory.dedup_add(record)
    urls = [r["url"] for r in records]
    answers = _answers(memory, urls)
    assert answers == _answers(index_store, urls)
    assert max(len(ids) for _n, ids in answers["candidates"].values()) == min(30, index_store.dedup_max_ids)
    assert len(memory) == len(records)
    assert list(memory.records()) == [{**r, "sentences": [list(e) for e in r["sentences"]]} for r in records]


def test_the_rebuild_leaves_the_index_ingest_left(index_store: ArticleStore) -> None:
    articles = planted(60, seed=5)
    ingest(index_store, articles, DedupConfig(), batch=5, textless=True)
    urls = [a.url for a in articles]
    crawl, crawl_index = labels(index_store), _answers(index_store, urls)
    rebuild_index(index_store, DedupConfig(), progress=False, batch_size=7)
    assert labels(index_store) == crawl
    assert _answers(index_store, urls) == crawl_index


def test_many_exact_copies_keep_the_backends_lookup_evidence(index_store: ArticleStore) -> None:
    articles = _copies(30)
    ingest(index_store, articles, DedupConfig(), batch=4, textless=True)
    crawl = labels(index_store)
    last = crawl[articles[29].url]
    exact = [e["url"] for e in last[1] if e["kind"] == "exact-text"]
    # the evidence keeps 20 entries; which ones is the backend's lookup order
    first = sorted(a.url for a in articles[:29])[:20] if index_store.dedup_lookup_sorted else None
    assert exact == (first or [a.url for a in articles[:20]])
    for url in crawl:
        index_store.update_fields(url, {"dedup_label": None, "dedup_evidence": [], "text_hash": None})
    rebuild_index(index_store, DedupConfig(), progress=False, batch_size=8)
    assert labels(index_store) == crawl


class _CountingStore(SQLiteStore):
    """A real SQLite store that counts the index questions asked of it."""

    asked = 0

    def dedup_candidates(self, hashes: Any) -> Any:
        self.asked += 1
        return super().dedup_candidates(hashes)

    def dedup_add(self, fingerprint: Any) -> None:
        self.asked += 1
        super().dedup_add(fingerprint)


def test_the_rebuild_asks_the_store_no_index_question_per_article(tmp_path) -> None:
    with _CountingStore(str(tmp_path / "c.sqlite"), spill_path=str(tmp_path / "s.jsonl")) as store:
        ingest(store, planted(30, seed=2), DedupConfig(), batch=5, textless=True)
        crawl = labels(store)
        store.asked = 0
        rebuild_index(store, DedupConfig(), progress=False)
        assert store.asked == 0
        assert labels(store) == crawl
        assert len(store.dedup_fingerprints([url for url, (label, _e, _h) in crawl.items() if label])) == len(
            [1 for label, _e, _h in crawl.values() if label]
        )


def test_a_rebuild_past_its_memory_budget_goes_on_against_the_store(
    index_store: ArticleStore, caplog
) -> None:
    """A corpus whose index would not fit the budget: after the first chunks the index is written to the
    store and the store answers the rest; labels and the stored index are those ingest left."""
    articles = planted(60, seed=11)
    ingest(index_store, articles, DedupConfig(), batch=5, textless=True)
    urls = [a.url for a in articles]
    crawl, crawl_index = labels(index_store), _answers(index_store, urls)
    budget_mb = 20_000 / 2**20  # about the size of the first chunk's index
    with caplog.at_level("INFO", logger="sacorpus.text.dedup_rebuild"):
        rebuild_index(index_store, DedupConfig(), progress=False, batch_size=7, memory_mb=budget_mb)
    switched = [r.getMessage() for r in caplog.records if "passed" in r.getMessage()]
    assert len(switched) == 1 and "articles passed" in switched[0]
    in_memory = int(switched[0].split("index of ")[1].split()[0])
    assert 0 < in_memory < len(articles), "the switch came part way through"
    assert labels(index_store) == crawl
    assert _answers(index_store, urls) == crawl_index


def test_the_memory_estimate_follows_the_index() -> None:
    index = MemoryDedupIndex(64)
    before = index.approx_bytes()
    for i, article in enumerate(planted(20, seed=3)):
        if article.text:
            index.dedup_add(
                fingerprint(article.url, article.text, config=DedupConfig(), order=str(i)).to_record()
            )
    assert before == 0 < index.approx_bytes()
    assert index.approx_bytes() >= 24 * sum(len(r["sentences"]) for r in index.records())


def _random_texts(rng: random.Random, n: int, sentences: int) -> list[str]:
    words = [
        f"{a}{b}" for a in ("ka", "lo", "mi", "se", "tu", "ve", "zo") for b in ("ba", "di", "ne", "ri", "wo")
    ]
    return [
        " ".join(
            " ".join(rng.choice(words) for _ in range(rng.randint(8, 14))).capitalize() + "."
            for _ in range(sentences)
        )
        for _ in range(n)
    ]


def test_the_memory_estimate_is_what_the_index_holds() -> None:
    """The rebuild's memory budget reads ``approx_bytes``: it must be near what the index really holds
    (tracemalloc, numpy's arrays included), and a sentence of one article must cost a pair in the
    arrays and its row, not a dict entry."""
    import tracemalloc

    rng = random.Random(7)
    texts = _random_texts(rng, 400, 30)
    texts += texts[:100]  # whole copies: their hashes are shared
    records = [
        fingerprint(f"https://r.co.za/{i}", t, config=DedupConfig(), order=str(i)).to_record()
        for i, t in enumerate(texts)
    ]
    rows = sum(len(r["sentences"]) for r in records)
    tracemalloc.start()
    index = MemoryDedupIndex(64, merge_at=1024)
    for record in records:
        index.dedup_add(record)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert rows > 12_000
    assert 0.8 * held <= index.approx_bytes() <= 1.25 * held
    assert held / rows < 100  # 155 with a dict entry per hash
