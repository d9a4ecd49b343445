"""The SQLite store's dedup index: sentence hashes and fingerprints in two tables of the store's file.

Why its own module: the index has its own tables, write pattern (one read-modify-write transaction
per article, ``BEGIN IMMEDIATE``) and bulk loader; the articles part of the store (``sqlite.py``) does
not need any of it. A fingerprint's ``order_key`` says which copy of a story came first.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sacorpus.storage.base import LABEL_FIELDS, StorageError
from sacorpus.storage.layout import LayoutError, unpack_document

DEDUP_SCHEMA = """
CREATE TABLE IF NOT EXISTS dedup_docs (
    url TEXT PRIMARY KEY,
    text_hash TEXT,
    canonical_key TEXT,
    slug_key TEXT,
    sentences TEXT NOT NULL,
    order_key TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dedup_docs_text_hash ON dedup_docs(text_hash);
CREATE INDEX IF NOT EXISTS dedup_docs_canonical ON dedup_docs(canonical_key);
CREATE INDEX IF NOT EXISTS dedup_docs_slug ON dedup_docs(slug_key);
CREATE TABLE IF NOT EXISTS sentence_hashes (hash INTEGER PRIMARY KEY, n INTEGER NOT NULL, ids TEXT NOT NULL);
"""

CHUNK = 500  # parameters per IN (...) query, well under SQLite's limit
#: parsed fingerprint sentence lists kept (about 3 KB each)
SENTENCE_CACHE = 4096

_DOC_COLUMNS = "url, text_hash, canonical_key, slug_key, sentences, order_key"
_INSERT_DOC = f"INSERT OR REPLACE INTO dedup_docs ({_DOC_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
_UPSERT_HASH = (
    "INSERT INTO sentence_hashes (hash, n, ids) VALUES (?, ?, ?) "
    "ON CONFLICT(hash) DO UPDATE SET n=excluded.n, ids=excluded.ids"
)


class PostedIds(Sequence[str]):
    """The article ids of one sentence hash as stored (a JSON list), parsed only when read.

    Why: most hashes an article looks up are in more articles than a candidate may share
    (boilerplate, or a story copied widely); their ids are never iterated, only asked whether they
    hold the article itself, and parsing every list was most of the index's reading time. A URL is
    in the list only if its JSON form is in the text (``json.dumps`` writes each element so, and no
    URL has an unescaped quote); the list is parsed to confirm.
    """

    __slots__ = ("_ids", "raw")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self._ids: list[str] | None = None

    def _list(self) -> list[str]:
        if self._ids is None:
            self._ids = json.loads(self.raw)
        return self._ids

    def __contains__(self, url: object) -> bool:
        return isinstance(url, str) and json.dumps(url) in self.raw and url in self._list()

    def __len__(self) -> int:
        """Elements are separated by ``", "`` (a quote inside a URL is escaped): counted, not parsed."""
        return 0 if len(self.raw) <= 2 else self.raw.count('", "') + 1

    def __getitem__(self, i: Any) -> Any:
        return self._list()[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._list() == list(other)

    def __repr__(self) -> str:
        return f"PostedIds({self.raw})"

    def plus(self, url: str) -> str:
        """The stored text with ``url`` appended (what ``json.dumps`` of the longer list writes)."""
        return f"[{json.dumps(url)}]" if len(self.raw) <= 2 else f"{self.raw[:-1]}, {json.dumps(url)}]"


def chunks(items: list[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def migrate_dedup(conn: sqlite3.Connection) -> None:
    """Create the index tables; add ``order_key`` to an index made before copies were ordered."""
    conn.executescript(DEDUP_SCHEMA)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(dedup_docs)")}
    if "order_key" not in columns:
        conn.execute("ALTER TABLE dedup_docs ADD COLUMN order_key TEXT")


def label_fields(url: str, data: str | bytes) -> dict[str, Any]:
    """The label fields of a stored row's document (either layout)."""
    try:
        doc = unpack_document(data)
    except (LayoutError, ValueError) as exc:
        raise StorageError(f"the stored row of {url!r} cannot be decoded: {exc}") from exc
    return {k: doc.get(k) for k in LABEL_FIELDS}


def _doc_row(fp: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        fp["url"],
        fp.get("text_hash"),
        fp.get("canonical_key"),
        fp.get("slug_key"),
        json.dumps(fp.get("sentences") or []),
        fp.get("order_key"),
    )


class SQLiteDedupIndex:
    """The ``DedupIndex`` methods of :class:`sacorpus.storage.sqlite.SQLiteStore`."""

    dedup_max_ids: int
    dedup_lookup_limit: int

    def _cursor(self, write: bool = False) -> AbstractContextManager[sqlite3.Cursor]:
        raise NotImplementedError  # the store's connection

    def _hash_rows(self, cur: sqlite3.Cursor, hashes: Iterable[int]) -> dict[int, tuple[int, str]]:
        rows: dict[int, tuple[int, str]] = {}
        for chunk in chunks(list(dict.fromkeys(int(h) for h in hashes))):
            marks = ",".join("?" * len(chunk))
            for h, n, ids in cur.execute(
                f"SELECT hash, n, ids FROM sentence_hashes WHERE hash IN ({marks})", chunk
            ):
                rows[h] = (n, ids)
        return rows

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        with self._cursor() as cur:
            rows = self._hash_rows(cur, hashes)
        return {h: (n, PostedIds(ids)) for h, (n, ids) in rows.items()}

    def dedup_counts(self, hashes: Iterable[int]) -> dict[int, int]:
        counts: dict[int, int] = {}
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(int(h) for h in hashes))):
                marks = ",".join("?" * len(chunk))
                counts.update(
                    cur.execute(f"SELECT hash, n FROM sentence_hashes WHERE hash IN ({marks})", chunk)
                )
        return counts

    def dedup_fingerprints(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(urls))):
                sql = f"SELECT {_DOC_COLUMNS} FROM dedup_docs WHERE url IN ({','.join('?' * len(chunk))})"
                for url, th, ck, sk, sentences, order in cur.execute(sql, chunk):
                    out[url] = {
                        "url": url,
                        "text_hash": th,
                        "canonical_key": ck,
                        "slug_key": sk,
                        "sentences": self._parsed_sentences(sentences),
                        "order_key": order,
                    }
        return out

    def dedup_order_keys(self, urls: Iterable[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(urls))):
                sql = f"SELECT url, order_key FROM dedup_docs WHERE url IN ({','.join('?' * len(chunk))})"
                out.update(cur.execute(sql, chunk))
        return out

    def _parsed_sentences(self, raw: str) -> list[list[int]]:
        """The parsed sentence list of a stored fingerprint, kept for the next lookup of the same text.

        Why: the copies of a story all fetch the fingerprints of the same earlier copies (dozens of
        sentences, three big integers each), and parsing them again was the index's largest read cost.
        Keyed by the stored text itself, so a changed fingerprint is never answered from the cache;
        callers only read the lists. Bounded: emptied when full.
        """
        cache: dict[str, list[list[int]]] = self.__dict__.setdefault("_sentence_cache", {})
        found = cache.get(raw)
        if found is None:
            if len(cache) >= SENTENCE_CACHE:
                cache.clear()
            found = cache[raw] = json.loads(raw)
        return found

    def dedup_lookup(
        self, *, text_hash: str | None, canonical_key: str | None, slug_key: str | None, url: str
    ) -> list[dict[str, str]]:
        hits: list[dict[str, str]] = []
        with self._cursor() as cur:
            for kind, column, value in (
                ("exact-text", "text_hash", text_hash),
                ("canonical", "canonical_key", canonical_key),
                ("slug", "slug_key", slug_key),
            ):
                if value is None:
                    continue
                sql = f"SELECT url FROM dedup_docs WHERE {column}=? AND url<>? ORDER BY url LIMIT {int(self.dedup_lookup_limit)}"
                hits.extend({"url": u, "kind": kind} for (u,) in cur.execute(sql, (value, url)))
        return hits

    def dedup_add(self, fingerprint: Mapping[str, Any]) -> None:
        url = fingerprint["url"]
        hashes = list(dict.fromkeys(int(entry[0]) for entry in fingerprint.get("sentences") or []))
        with self._cursor(write=True) as cur:  # BEGIN IMMEDIATE: read-modify-write is atomic
            self._forget_sentences(cur, url, set(hashes))
            cur.execute(_INSERT_DOC, _doc_row(fingerprint))
            rows = self._hash_rows(cur, hashes)
            updates = []
            for h in hashes:
                n, raw = rows.get(h, (0, "[]"))
                ids = PostedIds(raw)
                if url in ids:
                    continue  # counted already
                updates.append((h, n + 1, ids.plus(url) if len(ids) < self.dedup_max_ids else raw))
            cur.executemany(_UPSERT_HASH, updates)

    def _forget_sentences(self, cur: sqlite3.Cursor, url: str, keep: set[int]) -> None:
        """A refetched article whose text changed: its old sentences no longer count for it."""
        row = cur.execute("SELECT sentences FROM dedup_docs WHERE url=?", (url,)).fetchone()
        gone = {int(entry[0]) for entry in json.loads(row[0])} - keep if row else set()
        if not gone:
            return
        for h, (n, raw) in self._hash_rows(cur, list(gone)).items():
            ids = [u for u in json.loads(raw) if u != url]
            if n <= 1:
                cur.execute("DELETE FROM sentence_hashes WHERE hash=?", (h,))
            else:
                cur.execute("UPDATE sentence_hashes SET n=?, ids=? WHERE hash=?", (n - 1, json.dumps(ids), h))

    def dedup_labels(self, urls: Iterable[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(urls))):
                sql = f"SELECT url, data FROM articles WHERE url IN ({','.join('?' * len(chunk))})"
                for url, data in cur.execute(sql, chunk):
                    out[url] = label_fields(url, data)
        return out

    def dedup_clear(self) -> None:
        with self._cursor(write=True) as cur:
            cur.execute("DELETE FROM sentence_hashes")
            cur.execute("DELETE FROM dedup_docs")

    def _bulk_load_batch(self, batch: list[Mapping[str, Any]]) -> int:
        postings: dict[int, list[str]] = {}
        for fp in batch:
            for h in dict.fromkeys(int(entry[0]) for entry in fp.get("sentences") or []):
                postings.setdefault(h, []).append(fp["url"])
        with self._cursor(write=True) as cur:
            cur.executemany(_INSERT_DOC, [_doc_row(fp) for fp in batch])
            rows = self._hash_rows(cur, postings)
            updates = []
            for h, urls in postings.items():
                n, raw = rows.get(h, (0, "[]"))
                ids = json.loads(raw)
                ids.extend(urls[: max(0, self.dedup_max_ids - len(ids))])
                updates.append((h, n + len(urls), json.dumps(ids)))
            cur.executemany(_UPSERT_HASH, updates)
        return len(batch)
