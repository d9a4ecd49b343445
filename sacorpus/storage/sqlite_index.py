"""The SQLite store's corpus indexes: FTS5 over title and text, kept word counts, stats by GROUP BY.

Why a contentless FTS5 table with ``detail=none``: the text already lives (compressed) in the article
row, so the index keeps no second copy and no positions, only which articles hold which word (about
2 KB per article where trigrams took 23 KB). A substring of a word is found through ``fts_vocab``,
every word ever indexed: ``ater`` becomes ``water OR waters OR ...`` (see :func:`match_expression`).
So a literal search, the literal parts of a regex and the tokens of a KWIC query narrow to the
articles that can match before a row is decoded; the caller then verifies on the text or the tokens,
so results are exactly those of a full scan. The FTS rowid is ``fts_ids.id``, an INTEGER PRIMARY KEY
that VACUUM keeps (the articles table's implicit rowid it may renumber).

The counts tables are updated in the transaction that writes the articles (see ``_index_write``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from sacorpus.storage.counts import ALL, CountDelta, KeptCount, StoreFilter, WordCounts, index_text
from sacorpus.storage.sqlite_counts import COUNTS_SCHEMA, SQLiteCounts

INDEX_SCHEMA = (
    COUNTS_SCHEMA
    + """
CREATE TABLE IF NOT EXISTS fts_ids (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE INDEX IF NOT EXISTS articles_groups ON articles(
    publication, published_at, language, dedup_label, page_type, token_count, word_count
);
CREATE VIRTUAL TABLE IF NOT EXISTS article_fts USING fts5(
    body, content='', detail=none, tokenize='unicode61 remove_diacritics 0'
);
CREATE TABLE IF NOT EXISTS fts_vocab (term TEXT PRIMARY KEY) WITHOUT ROWID;
"""
)
#: state keys saying an index covers every stored article (a store made before it existed has not)
FTS_READY = "index:fts"
COUNTS_READY = "index:word_counts"


_RUN = re.compile(r"[^\W_]+")
_ASCII_RUN = re.compile(r"^[A-Za-z0-9]+$")
MAX_EXPANSION = 400  # vocabulary words one word part may stand for before it stops narrowing
NOTHING = "\x00nothing"  # a part no indexed word holds: no article can match


def index_terms(text: str) -> set[str]:
    """The words of a text as the FTS tokenizer (unicode61) sees them, lower-cased (``fts_vocab``)."""
    return {run.lower() for run in set(_RUN.findall(text))}  # each distinct run lowered once


def match_expression(cur: sqlite3.Cursor, substrings: Iterable[str]) -> str | None:
    """An FTS5 MATCH expression every article containing all ``substrings`` satisfies (None: the
    index cannot narrow; ``NOTHING``: no article can match).

    Each run of letters and digits in a substring is a whole word when the substring continues past
    it on both sides, a word start when only its right side is open (``"run"*``), and otherwise looked
    up in ``fts_vocab`` (``LIKE '%run%'``). Only ASCII runs are used (Python's and SQLite's case
    folding agree on them); other runs are left to the caller's check.
    """
    parts: list[str] = []
    for sub in dict.fromkeys(substrings):
        for m in _RUN.finditer(sub):
            run = m.group(0)
            if not _ASCII_RUN.match(run):
                continue
            # a side is closed only by an ASCII separator (both tokenizers split there)
            open_left = m.start() == 0 or not sub[m.start() - 1].isascii()
            open_right = m.end() == len(sub) or not sub[m.end()].isascii()
            word = '"' + run.lower() + '"'
            if not open_left:
                parts.append(word + ("*" if open_right else ""))
                continue
            if len(run) < 3:
                continue
            like = "%" + run.lower() + ("%" if open_right else "")
            words = [
                r[0]
                for r in cur.execute(
                    "SELECT term FROM fts_vocab WHERE term LIKE ? LIMIT ?", (like, MAX_EXPANSION + 1)
                )
            ]
            if not words:
                return NOTHING
            if len(words) > MAX_EXPANSION or not all(_ASCII_RUN.match(w) for w in words):
                continue
            parts.append("(" + " OR ".join('"' + w + '"' for w in words) + ")")
    return " AND ".join(dict.fromkeys(parts)) or None


#: words the Treebank tokenizer splits into two tokens (``cannot`` -> ``can not``): an article whose
#: tokens hold ``can`` may hold it only inside ``cannot`` as the full-text index sees it
_JOINED = {
    "cannot": ("can", "not"),
    "gimme": ("gim", "me"),
    "gonna": ("gon", "na"),
    "gotta": ("got", "ta"),
    "lemme": ("lem", "me"),
    "wanna": ("wan", "na"),
}
_JOINED_BY_PART: dict[str, list[str]] = {}
for _word, _parts in _JOINED.items():
    for _part in _parts:
        _JOINED_BY_PART.setdefault(_part, []).append(_word)


def token_expression(tokens: Iterable[str]) -> str | None:
    """An FTS5 MATCH expression every article whose tokens include all ``tokens`` satisfies.

    Why not :func:`match_expression`: a token is a whole word, so it is asked as one (``"the"``), not
    as a fragment expanded into every vocabulary word holding it (``the`` stood for up to 400 words,
    ``there``, ``other``..., and made ``the water`` slow). A hyphenated token is each of its parts (the
    index splits at hyphens); a part the tokenizer cuts out of a longer word also finds that word.
    Tokens outside ASCII letters and digits are left to the caller's check.
    """
    parts: list[str] = []
    for token in dict.fromkeys(tokens):
        pieces = token.lower().split("-")
        if not all(_ASCII_RUN.match(p) for p in pieces):
            continue
        for piece in pieces:
            words = [piece, *_JOINED_BY_PART.get(piece, ())]
            parts.append("(" + " OR ".join('"' + w + '"' for w in words) + ")")
    return " AND ".join(dict.fromkeys(parts)) or None


def narrowing_expression(cur: sqlite3.Cursor, substrings: Iterable[str], tokens: Iterable[str]) -> str | None:
    """The MATCH expression for substrings (fragments, :func:`match_expression`) and whole tokens
    (:func:`token_expression`) together; None: no narrowing, ``NOTHING``: no article can match."""
    fragments = match_expression(cur, substrings)
    if fragments == NOTHING:
        return NOTHING
    words = token_expression(tokens)
    return " AND ".join(e for e in (fragments, words) if e) or None


FIRST_BATCH = 50  # rows decoded before the first answer: a page of 50 needs no more


def _growing_chunks(items: Sequence[str], largest: int) -> Iterator[Sequence[str]]:
    """Chunks of ``items`` from ``FIRST_BATCH`` doubling up to ``largest``: a reader that stops early
    (a browser page, ``--limit``) decodes little more than it shows; a full read pays a few more
    queries at most."""
    size, at = min(FIRST_BATCH, largest), 0
    while at < len(items):
        yield items[at : at + size]
        at += size
        size = min(size * 2, largest)


def where_sql(where: StoreFilter, prefix: str = "") -> tuple[str, list[Any]]:
    """A WHERE clause (without the keyword; "1" when empty) for the indexed article columns."""
    clauses: list[str] = []
    params: list[Any] = []
    if where.publications:
        clauses.append(f"{prefix}publication IN ({','.join('?' * len(where.publications))})")
        params.extend(where.publications)
    if where.languages:
        clauses.append(f"{prefix}language IN ({','.join('?' * len(where.languages))})")
        params.extend(where.languages)
    if where.exclude_duplicates:
        clauses.append(f"coalesce({prefix}dedup_label, '') != 'duplicate'")
    if where.since:
        clauses.append(f"substr(replace({prefix}published_at, ' ', 'T'), 1, ?) >= ?")
        params.extend([len(where.since), where.since])
    if where.until:
        clauses.append(f"substr(replace({prefix}published_at, ' ', 'T'), 1, ?) <= ?")
        params.extend([len(where.until), where.until])
    return (" AND ".join(clauses) or "1"), params


def _count_where(where: StoreFilter) -> tuple[str, list[Any]] | None:
    """The counts rows a filter sums, or None when the counts cannot answer it (a day-level date)."""
    months = where.month_range()
    if months is None:
        return None
    if not (where.publications or where.languages or months != ("", "")):
        return "publication = ? AND month = ? AND language = ?" + (
            " AND dup = 0" if where.exclude_duplicates else ""
        ), [ALL, ALL, ALL]
    clauses, params = ["publication != ?"], [ALL]
    if where.publications:
        clauses.append(f"publication IN ({','.join('?' * len(where.publications))})")
        params.extend(where.publications)
    if where.languages:
        clauses.append(f"language IN ({','.join('?' * len(where.languages))})")
        params.extend(where.languages)
    if months != ("", ""):
        clauses.append("month BETWEEN ? AND ?")
        params.extend(months)
    if where.exclude_duplicates:
        clauses.append("dup = 0")
    return " AND ".join(clauses), params


class SQLiteCorpusIndex(SQLiteCounts):
    """Mixin of SQLiteStore: FTS, kept counts and aggregate queries (needs ``_cursor``)."""

    _ready: dict[str, bool]

    def _init_ready(self, conn: sqlite3.Connection) -> None:
        """A new (empty) store is indexed from its first article; an older one after ``compact``."""
        keys = dict(
            conn.execute("SELECT key, value FROM state WHERE key IN (?, ?)", (FTS_READY, COUNTS_READY))
        )
        if not keys and conn.execute("SELECT 1 FROM articles LIMIT 1").fetchone() is None:
            for key in (FTS_READY, COUNTS_READY):
                conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, 'true')", (key,))
            keys = {FTS_READY: "true", COUNTS_READY: "true"}
        self._ready = {key: keys.get(key) == "true" for key in (FTS_READY, COUNTS_READY)}

    def index_ready(self, name: str) -> bool:
        return bool(self._ready.get(name))

    # --- writes ----------------------------------------------------------------------------------

    def _index_write(
        self, cur: sqlite3.Cursor, old: Mapping[str, Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
    ) -> None:
        """Move the FTS rows and the counts from the ``old`` records (by url) to the ``new`` ones."""
        if self._ready.get(FTS_READY):
            self._fts_replace(cur, old, new)
        if self._ready.get(COUNTS_READY):
            delta = self._counts_delta()
            for record in new:
                delta.add(old.get(str(record["url"])), -1)
                delta.add(record)
            if delta is not self._deferred:
                self._apply_delta(cur, delta)

    @staticmethod
    def _fts_replace(
        cur: sqlite3.Cursor, old: Mapping[str, Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
    ) -> None:
        cur.executemany("INSERT OR IGNORE INTO fts_ids (url) VALUES (?)", [(r["url"],) for r in new])
        terms: set[str] = set()
        for record in new:
            terms |= index_terms(index_text(record))
            (fid,) = cur.execute("SELECT id FROM fts_ids WHERE url=?", (record["url"],)).fetchone()
            before = old.get(str(record["url"]))
            if before is not None:
                cur.execute(
                    "INSERT INTO article_fts (article_fts, rowid, body) VALUES ('delete', ?, ?)",
                    (fid, index_text(before)),
                )
            cur.execute("INSERT INTO article_fts (rowid, body) VALUES (?, ?)", (fid, index_text(record)))
        cur.executemany("INSERT OR IGNORE INTO fts_vocab (term) VALUES (?)", ((t,) for t in terms))

    # --- reads -----------------------------------------------------------------------------------

    def _matching_rows(
        self, select: str, where: StoreFilter, query: str | None, batch_size: int
    ) -> Iterator[tuple[Any, ...]]:
        """Rows in batches: by keyset paging over the filter, or the FTS matches' rows in order."""
        if query is not None:
            clause, params = where_sql(where, "a.")
            sql = (
                "SELECT a.url FROM article_fts x JOIN fts_ids f ON f.id = x.rowid JOIN articles a "
                f"ON a.url = f.url WHERE article_fts MATCH ? AND {clause} ORDER BY a.fetched_at, a.url"
            )
            with self._cursor() as cur:
                urls = [r[0] for r in cur.execute(sql, (query, *params))]
            for chunk in _growing_chunks(urls, batch_size):
                marks = ",".join("?" * len(chunk))
                with self._cursor() as cur:
                    batch = cur.execute(
                        f"SELECT {select} FROM articles WHERE url IN ({marks}) ORDER BY fetched_at, url",
                        chunk,
                    ).fetchall()
                yield from batch
            return
        clause, params = where_sql(where)
        last: tuple[str, str] | None = None
        while True:
            keyset = " AND (fetched_at, url) > (?, ?)" if last is not None else ""
            sql = f"SELECT {select} FROM articles WHERE {clause}{keyset} ORDER BY fetched_at, url LIMIT ?"
            with self._cursor() as cur:
                batch = cur.execute(sql, (*params, *(last or ()), batch_size)).fetchall()
            if not batch:
                return
            yield from batch
            last = (batch[-1][0], batch[-1][1])

    def group_counts(self, where: StoreFilter, period: int = 7) -> list[tuple[Any, ...]]:
        """Articles, tokens and words per (publication, month, language, label, page type): one
        GROUP BY over indexed columns, no article decoded."""
        clause, params = where_sql(where)

        def kept(name: str) -> str:
            """The column (a covering index answers); rows of a store not yet compacted may keep it
            in their JSON document only."""
            if self._ready.get(COUNTS_READY):
                return name
            return f"coalesce({name}, CASE WHEN typeof(data) = 'text' THEN json_extract(data, '$.{name}') END, 0)"

        sql = (
            f"SELECT publication, substr(published_at, 1, {int(period)}), language, dedup_label, page_type, COUNT(*), "
            f"SUM({kept('token_count')}), SUM({kept('word_count')}) FROM articles WHERE {clause} "
            "GROUP BY 1, 2, 3, 4, 5"
        )
        with self._cursor() as cur:
            return [(*r[:5], int(r[5]), int(r[6] or 0), int(r[7] or 0)) for r in cur.execute(sql, params)]

    def word_counts(self, where: StoreFilter) -> WordCounts | None:
        """The word list of the articles passing ``where`` from the kept counts (None: cannot answer)."""
        found = _count_where(where)
        if found is None or not self._ready.get(COUNTS_READY):
            return None
        return self._read_counts(found)

    def iter_kept_counts(self) -> Iterator[KeptCount]:
        """Every kept count, streamed (the check against a recount holds none of them in memory)."""
        with self._cursor() as cur:
            for *key, word, n in cur.execute(
                "SELECT k.publication, k.month, k.language, k.dup, w.word, c.n FROM key_word_counts c "
                "JOIN count_keys k ON k.id = c.k JOIN count_words w ON w.id = c.w"
            ):
                yield tuple(key), word, (int(n),)
            for *key, articles, tokens, words in cur.execute("SELECT * FROM count_totals"):
                yield tuple(key), None, (int(articles), int(tokens), int(words))

    def _reset_indexes(self, names: Iterable[str]) -> None:
        """Empty the named indexes and mark them not ready (a rebuild then re-adds every article)."""
        with self._cursor(write=True) as cur:
            for name in names:
                if name == FTS_READY:
                    cur.execute("INSERT INTO article_fts (article_fts) VALUES ('delete-all')")
                    cur.execute("DELETE FROM fts_vocab")
                    cur.execute("DELETE FROM fts_ids")
                else:
                    self._clear_counts(cur)
                cur.execute("DELETE FROM state WHERE key=?", (name,))
                self._ready[name] = False

    def _mark_ready(self, names: Iterable[str]) -> None:
        with self._cursor(write=True) as cur:
            for name in names:
                cur.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, 'true')", (name,))
                self._ready[name] = True

    def _index_batch(self, records: Sequence[Mapping[str, Any]], names: Iterable[str]) -> None:
        """Add a batch of stored articles to the named (being rebuilt) indexes."""
        names = set(names)
        with self._cursor(write=True) as cur:
            if FTS_READY in names:
                self._fts_replace(cur, {}, records)
            if COUNTS_READY in names:
                delta = CountDelta()
                for record in records:
                    delta.add(record)
                self._apply_delta(cur, delta)
