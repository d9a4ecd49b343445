"""The SQLite store's reader comments and their threads' poll state, in tables of their own.

Why apart from ``articles``: the corpus commands read one register or the other and must never mix
their counts; comments are many and small (no raw body), and are read grouped by article. Queried
columns are real indexed columns (url, article, publication, dates, language, the reading order);
the rest is one JSON document, as for articles.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any

from sacorpus.storage.base import StorageError
from sacorpus.storage.comment_records import merge_comment
from sacorpus.storage.sqlite_dedup import chunks

COMMENTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS comments (
    url TEXT PRIMARY KEY,
    article_url TEXT NOT NULL,
    publication TEXT,
    published_at TEXT,
    fetched_at TEXT,
    language TEXT,
    ord TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_article ON comments(article_url);
CREATE INDEX IF NOT EXISTS comments_publication ON comments(publication, ord);
CREATE INDEX IF NOT EXISTS comments_ord ON comments(ord);
CREATE TABLE IF NOT EXISTS comment_threads (
    key TEXT PRIMARY KEY,
    publication TEXT NOT NULL,
    article_url TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    next_poll TEXT,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS comment_threads_due ON comment_threads(publication, done, next_poll);
CREATE INDEX IF NOT EXISTS comment_threads_article ON comment_threads(article_url);
"""


def comment_order(record: Mapping[str, Any]) -> str:
    """The reading order: by article, then oldest first within its thread (both backends)."""
    return f"{record.get('article_url') or ''}\t{record.get('published_at') or ''}\t{record['url']}"


def _dumps(record: Mapping[str, Any]) -> str:
    try:
        return json.dumps(dict(record), ensure_ascii=False, default=str)
    except (TypeError, ValueError) as exc:
        raise StorageError(f"comment {record.get('url')!r} is not JSON-serialisable: {exc}") from exc


class SQLiteComments:
    """The ``CommentStorage`` methods of :class:`sacorpus.storage.sqlite.SQLiteStore`."""

    def _cursor(self, write: bool = False) -> AbstractContextManager[sqlite3.Cursor]:
        raise NotImplementedError  # the store's connection

    def upsert_comments(self, records: list[dict[str, Any]]) -> dict[str, int]:
        kinds = {"new": 0, "updated": 0, "unchanged": 0}
        if not records:
            return kinds
        for record in records:
            if not record.get("url") or not record.get("article_url"):
                raise StorageError("a comment without url or article_url cannot be stored")
        with self._cursor(write=True) as cur:
            old = self._comments_in(cur, [r["url"] for r in records])
            rows = []
            for record in records:
                merged, kind = merge_comment(old.get(record["url"]), record)
                old[record["url"]] = merged  # the same comment twice in one batch: the later wins
                kinds[kind] += 1
                rows.append(
                    (
                        merged["url"],
                        merged["article_url"],
                        merged.get("publication"),
                        merged.get("published_at"),
                        merged.get("fetched_at"),
                        merged.get("language"),
                        comment_order(merged),
                        _dumps(merged),
                    )
                )
            cur.executemany(
                "INSERT OR REPLACE INTO comments (url, article_url, publication, published_at, fetched_at,"
                " language, ord, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
        return kinds

    @staticmethod
    def _comments_in(cur: sqlite3.Cursor, urls: list[str]) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for chunk in chunks(list(dict.fromkeys(urls))):
            sql = f"SELECT url, data FROM comments WHERE url IN ({','.join('?' * len(chunk))})"
            found.update((url, json.loads(data)) for url, data in cur.execute(sql, chunk))
        return found

    def get_comment(self, url: str) -> dict[str, Any] | None:
        with self._cursor() as cur:
            return self._comments_in(cur, [url]).get(url)

    def has_comments(self, urls: Iterable[str]) -> set[str]:
        with self._cursor() as cur:
            return set(self._comments_in(cur, list(urls)))

    def count_comments(self, publication: str | None = None) -> int:
        where, args = ("WHERE publication=?", [publication]) if publication else ("", [])
        with self._cursor() as cur:
            return int(cur.execute(f"SELECT COUNT(*) FROM comments {where}", args).fetchone()[0])

    def iter_comments(
        self,
        publication: str | None = None,
        fields: Iterable[str] | None = None,
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        wanted = set(fields) | {"url"} if fields is not None else None
        last: str | None = None
        while True:
            where, args = [], []
            if publication is not None:
                where.append("publication=?")
                args.append(publication)
            if last is not None:
                where.append("ord > ?")
                args.append(last)
            sql = "SELECT ord, data FROM comments" + (" WHERE " + " AND ".join(where) if where else "")
            with self._cursor() as cur:
                rows = cur.execute(sql + " ORDER BY ord LIMIT ?", (*args, max(1, batch_size))).fetchall()
            if not rows:
                return
            for _ord, data in rows:
                record = json.loads(data)
                yield {k: v for k, v in record.items() if k in wanted} if wanted is not None else record
            last = rows[-1][0]

    # --- threads ---------------------------------------------------------------------------------

    def get_thread(self, key: str) -> dict[str, Any] | None:
        with self._cursor() as cur:
            row = cur.execute("SELECT data FROM comment_threads WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_thread(self, record: Mapping[str, Any]) -> None:
        row = (
            record["key"],
            record["publication"],
            record["article_url"],
            1 if record.get("done") else 0,
            record.get("next_poll"),
            _dumps(record),
        )
        with self._cursor(write=True) as cur:
            cur.execute(
                "INSERT OR REPLACE INTO comment_threads (key, publication, article_url, done, next_poll, data)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )

    def due_threads(self, publication: str, now: str, limit: int = 1000) -> list[dict[str, Any]]:
        sql = (
            "SELECT data FROM comment_threads WHERE publication=? AND done=0 AND next_poll <= ? "
            "ORDER BY next_poll, key LIMIT ?"
        )
        with self._cursor() as cur:
            return [json.loads(r[0]) for r in cur.execute(sql, (publication, now, int(limit)))]

    def articles_with_threads(self, article_urls: Iterable[str]) -> set[str]:
        found: set[str] = set()
        with self._cursor() as cur:
            for chunk in chunks(list(dict.fromkeys(article_urls))):
                sql = f"SELECT article_url FROM comment_threads WHERE article_url IN ({','.join('?' * len(chunk))})"
                found.update(r[0] for r in cur.execute(sql, chunk))
        return found


__all__ = ["COMMENTS_SCHEMA", "SQLiteComments", "comment_order"]
