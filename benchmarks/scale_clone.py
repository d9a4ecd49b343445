"""A large benchmark store made from a smaller one, row by row, in minutes instead of an hour.

Why: the scale benchmark's article ``i`` is two of its real pages (chosen by ``i`` modulo the page
count) plus what :func:`scale.varying` gives it (URL, publication, dates, label). Article ``i`` of a
store of ``n`` therefore holds the same body, HTML, text and tokens as article ``i mod m`` of a store
of ``m`` (``m`` a multiple of the page count and of the five publications, ``n`` a multiple of ``m``).
Writing ``n`` articles through ``upsert_articles`` compresses and counts the same pages again and
again (25-35 articles/s on a loaded machine: an hour for 100,000); this copies each row's stored
blobs as they are, rewrites its JSON document with its own URL and dates (the store's own
``pack_document``), adds it to the FTS index, and adds its word counts once per distinct text times
the number of articles sharing a counts key (the store's own ``CountDelta`` and ``_apply_delta``).
The result is the store the slow path would write; ``scrapy wordlist --check`` proves the counts.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scale import varying

from sacorpus.storage.counts import ALL, CountDelta, count_key, index_text, is_word
from sacorpus.storage.layout import pack_document, unpack_document, unpack_tokens
from sacorpus.storage.layout_text import join_text
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.storage.sqlite_rows import STORED as _STORED


def cloned_store(base: Path, dest: Path, base_n: int, n: int) -> float:
    """Write ``n`` articles into ``dest`` from the ``base_n`` of ``base``; returns articles per second."""
    if n % base_n:
        raise ValueError(f"{n} is not a multiple of {base_n}")
    start = time.perf_counter()
    with SQLiteStore(str(dest), spill_path=str(dest.parent / "clone-spill.jsonl")):
        pass  # the schema, and the indexes marked ready (an empty store is indexed from its first row)
    conn = sqlite3.connect(str(dest), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("ATTACH DATABASE ? AS src", (str(base),))
    conn.execute("BEGIN")
    conn.execute("INSERT INTO fts_vocab SELECT term FROM src.fts_vocab")
    words_of: dict[int, dict[str, int]] = {}  # distinct text -> its word counts
    sharing: Counter[tuple[Any, int]] = Counter()  # (counts key, text) -> articles
    totals: dict[Any, list[int]] = {}
    marks = ", ".join("?" * len(_STORED))
    insert = f"INSERT INTO articles ({', '.join(_STORED)}) VALUES ({marks})"
    done = 0
    source = sqlite3.connect(f"file:{base}?mode=ro", uri=True)  # streamed: the rows hold the bodies
    for row in source.execute(f"SELECT {', '.join(_STORED)} FROM articles"):
        stored = dict(zip(_STORED, row, strict=True))
        i = int(str(stored["url"]).rsplit("/", 1)[1])
        doc = unpack_document(stored["data"])  # the title and text may be in their own blob
        full = join_text(dict(doc), stored.get("text_z"))
        text = full.get("text") or ""
        content = hash((full.get("title"), text))
        if content not in words_of:
            tokens, _ = unpack_tokens(stored["tokens_z"], text) if stored["tokens_z"] else ([], [])
            words_of[content] = {t: c for t, c in Counter(tokens).items() if is_word(t)}
        for j in range(i, n, base_n):
            mine = varying(j, n)
            doc.update(mine)
            full.update(mine)
            values = {**stored, **{k: v for k, v in mine.items() if k in stored}, "data": pack_document(doc)}
            conn.execute(insert, [values[c] for c in _STORED])
            (fid,) = conn.execute(
                "INSERT INTO fts_ids (url) VALUES (?) RETURNING id", (mine["url"],)
            ).fetchone()
            conn.execute("INSERT INTO article_fts (rowid, body) VALUES (?, ?)", (fid, index_text(full)))
            key = count_key(full)
            sharing[(key, content)] += 1
            for k in (key, (ALL, ALL, ALL, key[3])):
                total = totals.setdefault(k, [0, 0, 0])
                total[0] += 1
                total[1] += int(stored["token_count"] or 0)
                total[2] += int(stored["word_count"] or 0)
            done += 1
            if done % 10_000 == 0:
                print(
                    f"  cloned {done} articles, {done / (time.perf_counter() - start):.0f}/s", file=sys.stderr
                )
    delta = CountDelta(totals=totals)
    for (key, content), articles in sharing.items():
        for k in (key, (ALL, ALL, ALL, key[3])):
            for word, c in words_of[content].items():
                delta.words[(k, word)] += articles * c
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE src")
    source.close()
    conn.close()
    # the counts through the store's own write (its word and key ids), in one transaction
    store = SQLiteStore(str(dest), spill_path=str(dest.parent / "clone-spill.jsonl"))
    with store, store._cursor(write=True) as cur:
        store._apply_delta(cur, delta)
    return n / (time.perf_counter() - start)
