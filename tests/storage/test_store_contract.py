"""The storage contract, run against both backends (SQLite file and a real SecantusDB server)."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest

from sacorpus.items import Article
from sacorpus.storage.base import ArticleStore, StorageError, load_store_class, store_from_settings
from sacorpus.storage.mongo import MongoStore, with_direct_connection
from sacorpus.storage.spill_lines import write_spill
from sacorpus.storage.sqlite import SQLiteStore


def record(url: str, **fields: Any) -> dict[str, Any]:
    """An Article as the store pipeline passes it (dataclasses.asdict, body included)."""
    values: dict[str, Any] = {
        "publication": "testpub",
        "text": f"Text of {url}.",
        "body": b"<html>" + url.encode(),
    }
    values.update(fields)
    return dataclasses.asdict(Article(url=url, **values))


def test_upsert_get_roundtrip_keeps_every_field(store: ArticleStore) -> None:
    body = bytes(range(256)) * 40
    rec = record(
        "https://example.co.za/news/a",
        body=body,
        headers={"Content-Type": "text/html"},
        tags=["politics", "eskom"],
        sentences=[[0, 10], [11, 20]],
        dedup_evidence=[{"url": "https://x/y", "score": 0.9, "shared": 3, "kind": "sentences"}],
        published_at="2024-05-01T10:00:00Z",
    )
    store.upsert_articles([rec])
    got = store.get(rec["url"])
    assert got is not None
    assert got["body"] == body
    for key, value in rec.items():
        assert got[key] == value, key
    assert store.get("https://example.co.za/missing") is None


def test_none_body_roundtrip(store: ArticleStore) -> None:
    store.upsert_articles([record("https://e.x/none", body=None)])
    got = store.get("https://e.x/none")
    assert got is not None and got["body"] is None


def test_crawling_twice_updates_not_duplicates(store: ArticleStore) -> None:
    url = "https://example.co.za/news/b"
    store.upsert_articles([record(url, title="old")])
    store.upsert_articles([record(url, title="new"), record("https://example.co.za/news/c")])
    assert store.count() == 2
    got = store.get(url)
    assert got is not None and got["title"] == "new"


def test_has_urls_and_count_by_publication(store: ArticleStore) -> None:
    store.upsert_articles(
        [record(f"https://a.example/{i}", publication="a") for i in range(5)]
        + [record(f"https://b.example/{i}", publication="b") for i in range(3)]
    )
    assert store.count() == 8
    assert store.count("a") == 5
    assert store.count("b") == 3
    assert store.count("zzz") == 0
    assert store.has_urls(["https://a.example/1", "https://b.example/2", "https://none"]) == {
        "https://a.example/1",
        "https://b.example/2",
    }
    assert store.has_urls([]) == set()


def test_iter_articles_streams_in_fetched_order_with_fields(store: ArticleStore) -> None:
    recs = [
        record(
            f"https://e.x/{i:03d}",
            fetched_at=f"2024-01-01T00:00:{59 - i % 60:02d}Z",
            publication="p" if i % 2 else "q",
        )
        for i in range(25)
    ]
    store.upsert_articles(recs)
    got = list(store.iter_articles(batch_size=4))
    assert [g["url"] for g in got] == [
        r["url"] for r in sorted(recs, key=lambda r: (r["fetched_at"], r["url"]))
    ]
    assert got[0]["body"] is not None
    slim = list(store.iter_articles(publication="p", fields=["title", "fetched_at"], batch_size=3))
    assert len(slim) == 12
    assert all(set(s) <= {"url", "title", "fetched_at"} and "url" in s for s in slim)


def test_iter_articles_allows_updates_while_iterating(store: ArticleStore) -> None:
    store.upsert_articles(
        [record(f"https://e.x/{i}", fetched_at=f"2024-01-0{1 + i}T00:00:00Z") for i in range(7)]
    )
    seen = []
    for rec in store.iter_articles(fields=["url"], batch_size=2):
        seen.append(rec["url"])
        assert store.update_fields(rec["url"], {"dedup_label": "unique", "dedup_evidence": []})
    assert len(seen) == 7 == len(set(seen))
    assert all(r["dedup_label"] == "unique" for r in store.iter_articles(fields=["dedup_label"]))


def test_update_fields(store: ArticleStore) -> None:
    store.upsert_articles([record("https://e.x/u", body=b"raw")])
    ev = [{"url": "https://e.x/v", "score": 1.0, "shared": 4, "kind": "exact-text"}]
    assert store.update_fields("https://e.x/u", {"dedup_label": "duplicate", "dedup_evidence": ev})
    got = store.get("https://e.x/u")
    assert got is not None
    assert got["dedup_label"] == "duplicate" and got["dedup_evidence"] == ev and got["body"] == b"raw"
    assert not store.update_fields("https://e.x/missing", {"dedup_label": "x"})


def test_state(store: ArticleStore) -> None:
    assert store.get_state("feed:iol") is None
    store.set_state("feed:iol", {"etag": "abc", "seen": ["a", "b"]})
    store.set_state("feed:iol", {"etag": "def", "seen": ["a"]})
    assert store.get_state("feed:iol") == {"etag": "def", "seen": ["a"]}


def test_spill_file_is_reimported_on_open(store: ArticleStore) -> None:
    assert store.spill_path
    recs = [record(f"https://spill.example/{i}", body=b"\x00\xff" * i) for i in range(3)]
    assert write_spill(store.spill_path, recs) == 3
    store.close()
    store.open()
    assert store.count() == 3
    got = store.get("https://spill.example/2")
    assert got is not None and got["body"] == b"\x00\xff" * 2
    store.close()
    store.open()  # the file was moved aside: nothing imported twice
    assert store.count() == 3


def test_a_spilled_relabel_is_applied_after_the_row_it_updates(store: ArticleStore) -> None:
    """A copy spilled in an outage, then relabelled when its original came (written after it)."""
    from sacorpus.storage.spill import UPDATE_KEY

    assert store.spill_path
    copy = record("https://spill.example/copy", dedup_label="unique", dedup_evidence=[])
    relabel = {"dedup_label": "duplicate", "dedup_evidence": [{"url": "https://o.example/1", "score": 1.0}]}
    write_spill(store.spill_path, [copy, {"url": copy["url"], UPDATE_KEY: relabel}])
    store.close()
    store.open()
    got = store.get(copy["url"])
    assert got is not None and store.count() == 1
    assert (got["dedup_label"], got["dedup_evidence"]) == (relabel["dedup_label"], relabel["dedup_evidence"])


def test_record_without_url_is_a_storage_error(store: ArticleStore) -> None:
    with pytest.raises(StorageError):
        store.upsert_articles([{"publication": "x"}])


# --- dedup index ---------------------------------------------------------------------------------


def fp(url: str, hashes: list[int], **keys: str | None) -> dict[str, Any]:
    return {"url": url, "sentences": [[h, 40] for h in hashes], **keys}


def test_the_index_keeps_each_copys_order_key(store: ArticleStore) -> None:
    store.dedup_add(
        fp("https://a.example/1", [1, 2], order_key="2024-05-01T10:00:00Z\t2024-05-03\thttps://a.example/1")
    )
    store.dedup_bulk_load([fp("https://b.example/2", [2, 3], order_key="2024-05-02")])
    keys = {
        u: r["order_key"]
        for u, r in store.dedup_fingerprints(["https://a.example/1", "https://b.example/2"]).items()
    }
    assert keys == {
        "https://a.example/1": "2024-05-01T10:00:00Z\t2024-05-03\thttps://a.example/1",
        "https://b.example/2": "2024-05-02",
    }


def test_dedup_index_counts_and_ids(store: ArticleStore) -> None:
    big = -(2**63)  # signed int64 extremes survive both backends
    store.dedup_add(fp("u1", [1, 2, big]))
    store.dedup_add(fp("u2", [2, 3, 2**63 - 1]))
    store.dedup_add(fp("u1", [1, 2, big]))  # re-adding the same article counts nothing twice
    cands = store.dedup_candidates([1, 2, 3, big, 2**63 - 1, 99])
    assert cands[1] == (1, ["u1"])
    assert cands[2][0] == 2 and sorted(cands[2][1]) == ["u1", "u2"]
    assert cands[big] == (1, ["u1"])
    assert cands[2**63 - 1] == (1, ["u2"])
    assert 99 not in cands
    fps = store.dedup_fingerprints(["u1", "u2", "nope"])
    assert set(fps) == {"u1", "u2"}
    assert sorted(h for h, _ in fps["u1"]["sentences"]) == sorted([1, 2, big])


def test_dedup_ids_are_capped_counts_are_not(store: ArticleStore) -> None:
    for i in range(20):
        store.dedup_add(fp(f"u{i}", [7]))
    count, ids = store.dedup_candidates([7])[7]
    assert count == 20
    assert len(ids) <= 8  # the fixture's dedup_max_ids


def test_dedup_lookup_and_clear(store: ArticleStore) -> None:
    store.dedup_add(
        fp("https://a/1", [1], text_hash="t1", canonical_key="a/1", slug_key="a/story-of-the-day")
    )
    store.dedup_add(fp("https://b/2", [2], text_hash="t2", canonical_key="a/1", slug_key=None))
    hits = store.dedup_lookup(
        text_hash="t1", canonical_key="a/1", slug_key="a/story-of-the-day", url="https://c/3"
    )
    assert {"url": "https://a/1", "kind": "exact-text"} in hits
    assert {"url": "https://b/2", "kind": "canonical"} in hits
    assert {"url": "https://a/1", "kind": "slug"} in hits
    # never the article itself
    assert all(
        h["url"] != "https://a/1"
        for h in store.dedup_lookup(text_hash="t1", canonical_key=None, slug_key=None, url="https://a/1")
    )
    store.dedup_clear()
    assert store.dedup_candidates([1, 2]) == {}
    assert store.dedup_lookup(text_hash="t1", canonical_key="a/1", slug_key=None, url="x") == []


def test_dedup_bulk_load(store: ArticleStore) -> None:
    assert store.dedup_bulk_load(fp(f"b{i}", [i, 1000]) for i in range(50)) == 50
    cands = store.dedup_candidates([3, 1000])
    assert cands[3] == (1, ["b3"])
    assert cands[1000][0] == 50
    # a second load meets hashes already in the index: counts add up, ids stay capped
    assert store.dedup_bulk_load(fp(f"c{i}", [1000, 5000 + i]) for i in range(10)) == 10
    count, ids = store.dedup_candidates([1000])[1000]
    assert count == 60 and 1 <= len(ids) <= 8
    assert set(store.dedup_fingerprints(["b0", "c9"])) == {"b0", "c9"}


def test_concurrent_dedup_adds_lose_no_update(store: ArticleStore) -> None:
    """Two writers (two store instances, as two crawlers) adding overlapping hashes at once."""
    if isinstance(store, SQLiteStore):
        other: ArticleStore = SQLiteStore(store.path, dedup_max_ids=store.dedup_max_ids)
    else:
        assert isinstance(store, MongoStore)
        other = MongoStore(store.uri, store.database, dedup_max_ids=store.dedup_max_ids)
    other.open()
    errors: list[BaseException] = []

    def writer(st: ArticleStore, prefix: str) -> None:
        try:
            for i in range(15):
                st.dedup_add(fp(f"{prefix}{i}", [100, 200 + i % 3]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(s, p)) for s, p in ((store, "x"), (other, "y"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    other.close()
    assert not errors
    cands = store.dedup_candidates([100, 200, 201, 202])
    assert cands[100][0] == 30
    assert sum(cands[h][0] for h in (200, 201, 202)) == 30


# --- construction --------------------------------------------------------------------------------


def test_from_settings_and_import_path(tmp_path: Any) -> None:
    st = store_from_settings({"SACORPUS_SQLITE_PATH": str(tmp_path / "x.sqlite")})
    assert isinstance(st, SQLiteStore) and st.path.endswith("x.sqlite")
    assert load_store_class("sacorpus.storage.mongo.MongoStore") is MongoStore
    with pytest.raises(StorageError):
        load_store_class("sacorpus.storage.nope.Store")
    with pytest.raises(StorageError):
        MongoStore.from_settings({})
    m = MongoStore.from_settings({"MONGO_URI": "mongodb://h:1", "MONGO_DATABASE": "db1"})
    assert m.database == "db1" and "directConnection=true" in m.uri


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("mongodb://h:1", "mongodb://h:1/?directConnection=true"),
        ("mongodb://h:1/", "mongodb://h:1/?directConnection=true"),
        ("mongodb://h:1/db", "mongodb://h:1/db?directConnection=true"),
        ("mongodb://h:1/db?w=1", "mongodb://h:1/db?w=1&directConnection=true"),
        ("mongodb://h:1/?directConnection=false", "mongodb://h:1/?directConnection=false"),
        ("mongodb://h:1,h:2/?replicaSet=rs", "mongodb://h:1,h:2/?replicaSet=rs"),
    ],
)
def test_direct_connection_added(uri: str, expected: str) -> None:
    assert with_direct_connection(uri) == expected


def test_unreachable_mongo_is_a_storage_error() -> None:
    from sacorpus.testing.servers import free_port

    st = MongoStore(f"mongodb://127.0.0.1:{free_port()}", "x", timeout_ms=300)
    with pytest.raises(StorageError):
        st.open()


PAGE = (
    "<html><body>"
    + "".join(f"<p>Paragraph {i} of the story about water in Soweto.</p>" for i in range(3000))
    + "</body></html>"
)


def test_html_is_stored_compressed_and_read_back_exactly(store: ArticleStore) -> None:
    store.upsert_articles([record("https://e.x/html", html=PAGE)])
    assert store.get("https://e.x/html")["html"] == PAGE
    (only,) = list(store.iter_articles(fields=["html"]))
    assert only["html"] == PAGE
    assert store.update_fields("https://e.x/html", {"html": PAGE + "<!-- again -->"})
    assert store.get("https://e.x/html")["html"].endswith("<!-- again -->")
    if isinstance(store, SQLiteStore):  # the row holds the HTML compressed, not in its JSON
        with store._cursor() as cur:
            data, html_z = cur.execute(
                "SELECT data, html_z FROM articles WHERE url='https://e.x/html'"
            ).fetchone()
        assert b"Paragraph 10 of the story" not in data and len(html_z) < len(PAGE) / 10


def test_a_record_too_large_for_the_store_is_stored_trimmed_and_flagged(store: ArticleStore) -> None:
    import os

    huge = os.urandom(9_000_000).hex()  # 18 MB of HTML that does not compress: over MongoDB's 16 MB
    store.upsert_articles(
        [record("https://e.x/huge", html=huge, body=huge.encode()), record("https://e.x/small")]
    )
    got = store.get("https://e.x/huge")
    assert got is not None and got["text"] == "Text of https://e.x/huge."
    if isinstance(store, MongoStore):
        assert got["html"] is None and any(p.startswith("store:trimmed:html") for p in got["problems"])
    assert store.get("https://e.x/small") is not None  # the rest of the batch is stored too
    store.upsert_articles([record("https://e.x/after")])  # and nothing is poisoned for later writes
    assert store.count() == 3


def test_a_store_made_before_html_was_compressed_apart_opens_and_reads(tmp_path) -> None:
    import json
    import sqlite3

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE articles (url TEXT PRIMARY KEY, publication TEXT, published_at TEXT, fetched_at TEXT "
        "NOT NULL DEFAULT '', language TEXT, dedup_label TEXT, text_hash TEXT, canonical_url TEXT, "
        "page_type TEXT, data TEXT NOT NULL, body BLOB)"
    )
    conn.execute(
        "INSERT INTO articles (url, fetched_at, data) VALUES (?, ?, ?)",
        ("https://e.x/old", "2020", json.dumps({"url": "https://e.x/old", "html": "<p>old</p>"})),
    )
    conn.commit()
    conn.close()
    with SQLiteStore(str(path)) as store:
        assert store.get("https://e.x/old")["html"] == "<p>old</p>"
        store.upsert_articles([record("https://e.x/new", html="<p>new</p>")])
        assert store.get("https://e.x/new")["html"] == "<p>new</p>"


def test_a_refetched_article_whose_text_changed_replaces_its_sentences(store: ArticleStore) -> None:
    from sacorpus.text.dedup import fingerprint

    old = fingerprint(
        "https://e.x/a",
        "The council met on Monday to discuss water. Residents were angry about cuts.",
        config=None,
    )
    new = fingerprint(
        "https://e.x/a", "The council met on Monday to discuss water. Tankers arrive on Tuesday morning."
    )
    store.dedup_add(old.to_record())
    store.dedup_add(new.to_record())
    gone = set(old.sentences) - set(new.sentences)
    kept = set(old.sentences) & set(new.sentences)
    assert gone and kept
    assert not store.dedup_candidates(gone)  # the old sentence no longer points at the article
    assert all(n == 1 for n, _ids in store.dedup_candidates(kept).values())  # the shared one counts once
    assert all(n == 1 for n, _ids in store.dedup_candidates(set(new.sentences)).values())
