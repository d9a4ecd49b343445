"""The SQLite store's kept word counts: integer ids for count keys and words.

Why ids: one row per (publication, month, language, duplicate-or-not, word) is most of a store that
keeps counts (about 13 of 49 KB per article at 10,000 articles when every row spelt its key and word
out). A row of ``key_word_counts`` is three small integers in a ``WITHOUT ROWID`` table ordered by
(key, word), so a word list of one key is one range scan; ``count_keys`` and ``count_words`` name the
ids. Words are never deleted from ``count_words`` (a word whose count falls to 0 loses its count row
only), so an id once read stays valid for the life of the file; the store keeps a bounded cache of
them, cleared whenever a write transaction rolls back (an id inserted there never existed).

Stores written with the older table (``word_counts``, the key and word as text) are migrated in SQL
when the store opens: one transaction, no article read.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from sacorpus.storage.counts import CountDelta, CountKey, WordCounts

logger = logging.getLogger(__name__)

COUNTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS count_totals (
    publication TEXT NOT NULL, month TEXT NOT NULL, language TEXT NOT NULL, dup INTEGER NOT NULL,
    articles INTEGER NOT NULL, tokens INTEGER NOT NULL, words INTEGER NOT NULL,
    PRIMARY KEY (publication, month, language, dup)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS count_keys (
    id INTEGER PRIMARY KEY, publication TEXT NOT NULL, month TEXT NOT NULL, language TEXT NOT NULL,
    dup INTEGER NOT NULL, UNIQUE (publication, month, language, dup)
);
CREATE TABLE IF NOT EXISTS count_words (id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS key_word_counts (
    k INTEGER NOT NULL, w INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (k, w)
) WITHOUT ROWID;
"""
#: word ids kept in memory before the cache starts again (about 100 bytes each)
WORD_CACHE = 200_000
_CHUNK = 500
_KEY_COLUMNS = "publication = ? AND month = ? AND language = ? AND dup = ?"


def migrate_counts(conn: sqlite3.Connection) -> None:
    """Move the counts of the older text-keyed table into the id tables, once, in one transaction."""
    legacy = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'word_counts'")
    if legacy.fetchone() is None:
        return
    logger.info("moving the kept word counts to integer ids (once per store)")
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT OR IGNORE INTO count_keys (publication, month, language, dup) "
            "SELECT DISTINCT publication, month, language, dup FROM word_counts"
        )
        conn.execute("INSERT OR IGNORE INTO count_words (word) SELECT DISTINCT word FROM word_counts")
        conn.execute(
            "INSERT INTO key_word_counts (k, w, n) SELECT k.id, c.id, o.n FROM word_counts o "
            "JOIN count_keys k ON k.publication = o.publication AND k.month = o.month "
            "AND k.language = o.language AND k.dup = o.dup JOIN count_words c ON c.word = o.word "
            "WHERE true ON CONFLICT (k, w) DO UPDATE SET n = n + excluded.n"
        )
        conn.execute("DROP TABLE word_counts")
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise


class SQLiteCounts:
    """Mixin of SQLiteStore: writes and reads of the kept counts (inside the store's transactions)."""

    _word_ids: dict[str, int]
    #: the count changes of the open batch (``SQLiteStore.batched``), applied before its commit
    _deferred: CountDelta | None

    def _counts_delta(self) -> CountDelta:
        """Where a write adds its count changes: the open batch's sum, or a delta of its own."""
        return self._deferred if self._deferred is not None else CountDelta()

    def _cursor(self, write: bool = False) -> Any:  # provided by SQLiteStore
        raise NotImplementedError

    def _forget_ids(self) -> None:
        """Called when a write transaction rolls back: ids it inserted never existed."""
        self._word_ids = {}

    @staticmethod
    def _key_ids(cur: sqlite3.Cursor, keys: Iterable[CountKey]) -> dict[CountKey, int]:
        keys = list(dict.fromkeys(keys))
        cur.executemany(
            "INSERT OR IGNORE INTO count_keys (publication, month, language, dup) VALUES (?, ?, ?, ?)", keys
        )
        return {
            key: cur.execute(f"SELECT id FROM count_keys WHERE {_KEY_COLUMNS}", key).fetchone()[0]
            for key in keys
        }

    def _ids_of_words(self, cur: sqlite3.Cursor, words: Iterable[str]) -> dict[str, int]:
        cache = self._word_ids
        wanted = list(dict.fromkeys(words))
        missing = [w for w in wanted if w not in cache]
        if len(cache) + len(missing) > WORD_CACHE:
            cache.clear()
            missing = wanted  # the ones cached a moment ago are wanted too
        cur.executemany("INSERT OR IGNORE INTO count_words (word) VALUES (?)", ((w,) for w in missing))
        for i in range(0, len(missing), _CHUNK):
            chunk = missing[i : i + _CHUNK]
            marks = ",".join("?" * len(chunk))
            cache.update(cur.execute(f"SELECT word, id FROM count_words WHERE word IN ({marks})", chunk))
        return cache

    def _apply_delta(self, cur: sqlite3.Cursor, delta: CountDelta) -> None:
        # streamed unfolded: SQLite adds up a key and word given twice (no second copy of the batch)
        keys = self._key_ids(cur, delta.keys_changed())
        ids = self._ids_of_words(cur, delta.words_changed())
        cur.executemany(
            "INSERT INTO key_word_counts (k, w, n) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n",
            ((keys[k], ids[w], n) for k, w, n in delta.changes()),
        )
        cur.executemany(
            "INSERT INTO count_totals VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
            "articles = articles + excluded.articles, tokens = tokens + excluded.tokens, "
            "words = words + excluded.words",
            delta.total_rows(),
        )
        # only the rows this delta lowered can have fallen to 0 (no scan of the whole table)
        cur.executemany(
            "DELETE FROM key_word_counts WHERE k = ? AND w = ? AND n <= 0",
            ((keys[k], ids[w]) for k, w, n in delta.changes() if n < 0),
        )
        cur.executemany(
            f"DELETE FROM count_totals WHERE {_KEY_COLUMNS} AND articles <= 0",
            [key for key, total in delta.totals.items() if total[0] < 0],
        )

    def _count_words(self, clause: str, params: list[Any]) -> Iterator[tuple[str, int]]:
        """(word, count) summed over the count keys ``clause`` selects."""
        sql = (
            "SELECT (SELECT word FROM count_words WHERE id = g.w), g.n FROM (SELECT w, SUM(n) AS n "
            f"FROM key_word_counts WHERE k IN (SELECT id FROM count_keys WHERE {clause}) GROUP BY w) g"
        )
        with self._cursor() as cur:
            yield from cur.execute(sql, params)

    def _read_counts(self, where: tuple[str, list[Any]]) -> WordCounts:
        clause, params = where
        result = WordCounts()
        with self._cursor() as cur:
            row = cur.execute(
                f"SELECT SUM(articles), SUM(tokens), SUM(words) FROM count_totals WHERE {clause}", params
            ).fetchone()
            result.articles, result.total_tokens, result.total_words = (int(v or 0) for v in row)
        for word, n in self._count_words(clause, params):
            result.counts[word] = int(n)
        return result

    def kept_counts(self) -> CountDelta:
        """Every kept count (for the check against a recount)."""
        delta = CountDelta()
        sql = (
            "SELECT k.publication, k.month, k.language, k.dup, w.word, c.n FROM key_word_counts c "
            "JOIN count_keys k ON k.id = c.k JOIN count_words w ON w.id = c.w"
        )
        with self._cursor() as cur:
            for *key, word, n in cur.execute(sql):
                delta.words[(tuple(key), word)] = int(n)
            for *key, articles, tokens, words in cur.execute("SELECT * FROM count_totals"):
                delta.totals[tuple(key)] = [int(articles), int(tokens), int(words)]
        return delta

    @staticmethod
    def _clear_counts(cur: sqlite3.Cursor) -> None:
        """Empty the counts (the key and word names stay: ids are never reused)."""
        cur.execute("DELETE FROM key_word_counts")
        cur.execute("DELETE FROM count_totals")
        cur.execute("DELETE FROM count_moves")  # moves waiting to be settled (sqlite_moves.py)


__all__ = ["COUNTS_SCHEMA", "SQLiteCounts", "migrate_counts"]
