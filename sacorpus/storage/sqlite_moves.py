"""Relabels whose count moves wait: the SQLite store's ``relabelling()`` and its settling.

Why: a relabel to or from ``duplicate`` moves the article's word counts between two count keys, read
from its packed tokens. ``scrapy dedup --rebuild`` relabels most articles of a store whose labels
are stale, some of them twice (labelled, then relabelled when an earlier-published copy arrives), and
moving the counts one relabel at a time was most of its time. Inside :meth:`relabelling` a relabel
only notes the article's count key before its first move in ``count_moves`` (same transaction as the
label, so the file is consistent at every commit: the counts hold each noted article under its noted
key); at the end, only the articles whose key really changed are moved, from one read of their
tokens, and the moves are summed per key and word into one write. Notes left by a run that was
killed are settled when the store next opens or relabels.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from itertools import islice
from typing import Any

from sacorpus.storage.base import StorageError
from sacorpus.storage.counts import ALL, CountDelta, CountKey, count_key
from sacorpus.storage.layout import LayoutError, unpack_document
from sacorpus.storage.layout_text import join_text
from sacorpus.storage.sqlite_rows import move_counts

MOVES_SCHEMA = """
CREATE TABLE IF NOT EXISTS count_moves (
    url TEXT PRIMARY KEY, publication TEXT NOT NULL, month TEXT NOT NULL, language TEXT NOT NULL,
    dup INTEGER NOT NULL
) WITHOUT ROWID;
"""
#: rows whose tokens are read together while settling
_CHUNK = 500
_KEY_COLUMNS = ("publication", "published_at", "language", "dedup_label")
_NOTED = (
    "SELECT m.url, m.publication, m.month, m.language, m.dup, a.publication, a.published_at, a.language, "
    "a.dedup_label FROM count_moves m JOIN articles a ON a.url = m.url"
)


class SQLiteCountMoves:
    """Mixin of SQLiteStore: relabels inside :meth:`relabelling` move their counts once, at the end."""

    _moves_deferred: bool = False
    _conn: sqlite3.Connection | None

    # provided by SQLiteStore and SQLiteCounts (annotations: nothing here shadows them)
    _cursor: Callable[..., AbstractContextManager[sqlite3.Cursor]]
    _apply_delta: Callable[[sqlite3.Cursor, CountDelta], None]
    _key_ids: Callable[[sqlite3.Cursor, Iterable[CountKey]], dict[CountKey, int]]

    def _note_move(self, cur: sqlite3.Cursor, url: str, before: CountKey) -> bool:
        """Whether a relabel's count move waits: inside :meth:`relabelling`, or when the article's
        counts already wait under a noted key (the first note wins: it is where they are counted)."""
        noted = cur.execute("SELECT 1 FROM count_moves WHERE url = ?", (url,)).fetchone() is not None
        if not (self._moves_deferred or noted):
            return False
        cur.execute("INSERT OR IGNORE INTO count_moves VALUES (?, ?, ?, ?, ?)", (url, *before))
        return True

    @contextmanager
    def relabelling(self) -> Iterator[None]:
        """Relabels inside note their count moves; the net moves are written once on the way out
        (also after an error: what was written is then counted right)."""
        if self._moves_deferred:
            yield
            return
        self._moves_deferred = True
        try:
            yield
        finally:
            self._moves_deferred = False
            with self._cursor(write=True) as cur:
                self._settle_moves(cur)

    def _settle_moves(self, cur: sqlite3.Cursor, urls: Sequence[str] | None = None) -> int:
        """Move the counts of the noted articles (of ``urls``, or all) whose key changed; forget the
        notes. Returns the articles whose tokens were read.

        Why a choice per (publication, month, language): when most of a group's articles changed
        side (a stale store relabelled), reading the tokens of the few that end on one side is
        cheaper than reading those that moved. That side's counts are then folded into the other in
        SQL and its articles counted out again (:meth:`_fold_side`); the result is the same counts.
        """
        if cur.execute("SELECT 1 FROM count_moves LIMIT 1").fetchone() is None:
            return 0
        changed: dict[str, tuple[CountKey, CountKey]] = {}
        for url, *noted in self._noted(urls):
            before = (noted[0], noted[1], noted[2], int(noted[3]))
            now = count_key(dict(zip(_KEY_COLUMNS, noted[4:], strict=True)))
            if now != before:
                changed[url] = (before, now)
        delta = CountDelta()
        folded = self._folded_sides(cur, changed, delta) if urls is None else {}
        if folded:
            changed = {u: m for u, m in changed.items() if m[0][:3] not in folded}
            changed.update(self._side_articles(folded))
        moved = 0
        for i in range(0, len(changed), _CHUNK):
            moved += self._move_rows(cur, dict(islice(changed.items(), i, i + _CHUNK)), delta)
        self._apply_delta(cur, delta)
        if folded:
            keys = self._key_ids(cur, [k for key in folded.values() for k in _touched(key)])
            marks = ",".join("?" * len(keys))
            cur.execute(f"DELETE FROM key_word_counts WHERE k IN ({marks}) AND n <= 0", list(keys.values()))
        if urls is None:
            cur.execute("DELETE FROM count_moves")
        else:
            cur.executemany("DELETE FROM count_moves WHERE url = ?", [(u,) for u in urls])
        return moved

    def _folded_sides(
        self, cur: sqlite3.Cursor, changed: dict[str, tuple[CountKey, CountKey]], delta: CountDelta
    ) -> dict[tuple[str, str, str], CountKey]:
        """The groups cheaper to recount on one side than to move: group -> the side's key, folded."""
        moves: Counter[tuple[tuple[str, str, str], int]] = Counter()
        crossed: set[tuple[str, str, str]] = set()  # groups an article left or joined: moved one by one
        for before, now in changed.values():
            if before[:3] == now[:3]:
                moves[(before[:3], now[3])] += 1  # into the duplicate side (1) or out of it (0)
            else:
                crossed.update((before[:3], now[:3]))
        folded: dict[tuple[str, str, str], CountKey] = {}
        for group in {g for g, _side in moves} - crossed:
            ends = []
            for side in (0, 1):
                row = cur.execute(
                    "SELECT articles FROM count_totals WHERE publication = ? AND month = ? AND language = ? "
                    "AND dup = ?",
                    (*group, side),
                ).fetchone()
                ends.append((row[0] if row else 0) + moves[(group, side)] - moves[(group, 1 - side)])
            side = 0 if ends[0] <= ends[1] else 1
            if ends[side] < moves[(group, 0)] + moves[(group, 1)]:
                folded[group] = (*group, side)
                self._fold_side(cur, (*group, side), delta)
        self._fold_whole_corpus(cur, list(folded.values()))
        return folded

    def _fold_whole_corpus(self, cur: sqlite3.Cursor, sides: list[CountKey]) -> None:
        """The whole-corpus keys follow the folded sides: each side's counts leave its ``ALL`` key for
        the other's, summed per word over every side folded (one statement per direction, not one
        per group), then the sides are emptied."""
        ids = self._key_ids(cur, [key for side in sides for key in (side, *_touched(side)[1:])])
        for dup in (0, 1):
            of_side = [ids[side] for side in sides if side[3] == dup]
            for keys in (of_side[i : i + _CHUNK] for i in range(0, len(of_side), _CHUNK)):
                self._fold_keys(cur, keys, ids[(ALL, ALL, ALL, dup)], ids[(ALL, ALL, ALL, 1 - dup)])

    @staticmethod
    def _fold_keys(cur: sqlite3.Cursor, keys: list[int], all_side: int, all_other: int) -> None:
        """Move the word counts of ``keys`` (one side) from that side's ``ALL`` key to the other's.

        The sums per word are taken once into a temporary table and applied to both ``ALL`` keys
        (summing every row of the keys was most of the settling, and it was done twice)."""
        marks = ",".join("?" * len(keys))
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS fold_sums (w INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
        cur.execute("DELETE FROM temp.fold_sums")
        cur.execute(
            f"INSERT INTO temp.fold_sums (w, n) SELECT w, SUM(n) FROM key_word_counts WHERE k IN ({marks}) "
            "GROUP BY w",
            keys,
        )
        for target, sign in ((all_other, 1), (all_side, -1)):
            cur.execute(
                "INSERT INTO key_word_counts (k, w, n) SELECT ?, w, ? * n FROM temp.fold_sums WHERE true "
                "ON CONFLICT (k, w) DO UPDATE SET n = n + excluded.n",
                (target, sign),
            )
        cur.execute("DELETE FROM temp.fold_sums")
        cur.execute(f"DELETE FROM key_word_counts WHERE k IN ({marks})", keys)

    def _fold_side(self, cur: sqlite3.Cursor, side: CountKey, delta: CountDelta) -> None:
        """Count every article of ``side`` under the group's other side, in SQL (the whole-corpus keys
        in :meth:`_fold_whole_corpus`); its articles are then moved back one by one."""
        other, all_side, all_other = _touched(side)
        ids = self._key_ids(cur, [side, other])
        cur.execute(
            "INSERT INTO key_word_counts (k, w, n) SELECT ?, w, n FROM key_word_counts WHERE k = ? "
            "ON CONFLICT (k, w) DO UPDATE SET n = n + excluded.n",
            (ids[other], ids[side]),
        )
        row = cur.execute(
            "SELECT articles, tokens, words FROM count_totals WHERE publication = ? AND month = ? "
            "AND language = ? AND dup = ?",
            side,
        ).fetchone()
        for key, sign in ((side, -1), (other, 1), (all_other, 1), (all_side, -1)):
            total = delta.totals.setdefault(key, [0, 0, 0])
            for i, n in enumerate(row or (0, 0, 0)):
                total[i] += sign * n

    def _side_articles(
        self, folded: dict[tuple[str, str, str], CountKey]
    ) -> dict[str, tuple[CountKey, CountKey]]:
        """The articles on a folded side now: each moves from the other side back to it."""
        assert self._conn is not None
        out: dict[str, tuple[CountKey, CountKey]] = {}
        sql = "SELECT url, publication, published_at, language, dedup_label FROM articles"
        for url, *columns in self._conn.execute(sql):
            key = count_key(dict(zip(_KEY_COLUMNS, columns, strict=True)))
            if folded.get(key[:3]) == key:
                out[url] = (_touched(key)[0], key)
        return out

    def _noted(self, urls: Sequence[str] | None) -> Iterator[tuple[Any, ...]]:
        """The noted articles (of ``urls``, or all) with their key columns now, on a cursor of their own
        (the settling reads tokens and writes on the other)."""
        assert self._conn is not None
        if urls is None:
            yield from self._conn.execute(_NOTED)
            return
        for i in range(0, len(urls), _CHUNK):
            chunk = list(urls[i : i + _CHUNK])
            yield from self._conn.execute(f"{_NOTED} WHERE m.url IN ({','.join('?' * len(chunk))})", chunk)

    @staticmethod
    def _move_rows(
        cur: sqlite3.Cursor, changed: dict[str, tuple[CountKey, CountKey]], delta: CountDelta
    ) -> int:
        """Count a chunk of articles out of their noted key and into their key now (``changed`` emptied)."""
        if not changed:
            return 0
        marks = ",".join("?" * len(changed))
        sql = f"SELECT url, data, tokens_z, text_z FROM articles WHERE url IN ({marks})"
        for url, data, tokens_z, text_z in cur.execute(sql, list(changed)).fetchall():
            try:
                doc = join_text(unpack_document(data), text_z)
            except (LayoutError, ValueError) as exc:
                raise StorageError(f"the stored row of {url!r} cannot be decoded: {exc}") from exc
            before, now = changed[url]
            move_counts(doc, tokens_z, before, now, delta)
        n = len(changed)
        changed.clear()
        return n


def _touched(side: CountKey) -> tuple[CountKey, CountKey, CountKey]:
    """The group's other side and the whole-corpus keys of the side and the other side."""
    return (*side[:3], 1 - side[3]), (ALL, ALL, ALL, side[3]), (ALL, ALL, ALL, 1 - side[3])


__all__ = ["MOVES_SCHEMA", "SQLiteCountMoves"]
