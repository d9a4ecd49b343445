"""The scale benchmark's MongoDB store made from its SQLite store of ``m`` articles, in minutes.

Why: article ``i`` of a store of ``n`` holds the same body, HTML, text and tokens as article
``i mod m`` of the store of ``m`` (see scale_clone.py); only what :func:`scale.varying` gives it
differs. Writing ``n`` articles through ``upsert_articles`` on SecantusDB (a MongoDB-wire server in
Python) compresses the same pages again and upserts their counts one batch at a time: a 10,000-article
build was stopped after 28 minutes. This makes each distinct row's document once with the store's own
``_to_doc`` (compact layout) and search terms, inserts a copy per article with its own URL, dates and label
(``insert_many``: the store is new) and posts its terms (the store's own ``post``), and writes the kept counts once, summed over the articles that
share a text and a count key, through the store's own ``_apply_delta``. The result is the store the
slow path would write; ``scrapy wordlist --check`` proves the counts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scale import varying

from sacorpus.storage.counts import ALL, CountDelta, count_key, is_word
from sacorpus.storage.mongo import MongoStore, _to_doc
from sacorpus.storage.mongo_counts import insert_word_counts
from sacorpus.storage.mongo_groups import group_changes, write_group_changes
from sacorpus.storage.mongo_postings import post
from sacorpus.storage.mongo_terms import search_terms
from sacorpus.storage.sqlite import SQLiteStore

#: MongoDB's target: within this many times SQLite's time at the same size
MONGO_RATIO = 3.0
#: documents an insert request: a few MB of compact articles
INSERT_BATCH = 200


def cloned_mongo(store: MongoStore, base: Path, base_n: int, n: int) -> float:
    """Write ``n`` articles into the open, empty ``store`` from the ``base_n`` of the SQLite store
    ``base``; returns articles per second."""
    if n % base_n and base_n % n:
        raise ValueError(f"{n} is neither a multiple nor a divisor of {base_n}")
    start = time.perf_counter()
    words_of: dict[int, dict[str, int]] = {}  # distinct text -> its word counts
    sharing: Counter[tuple[Any, int]] = Counter()  # (counts key, text) -> articles
    totals: dict[Any, list[int]] = {}
    chunk: list[dict[str, Any]] = []
    postings: list[tuple[str, list[str]]] = []
    groups: dict[tuple[Any, ...], list[int]] = {}
    done = 0
    source = SQLiteStore(str(base), spill_path=str(base.parent / "mongo-clone-spill.jsonl"))
    with source:
        for record in source.iter_articles(batch_size=200):
            i = int(str(record["url"]).rsplit("/", 1)[1])
            if i >= n:  # a smaller store: the first n rows (their pages are those of article i)
                continue
            doc = _to_doc(record, store.zstd_level)
            terms = search_terms(record)
            store.vocabulary.add(store.db, [terms])
            content = hash((record.get("title"), record.get("text")))
            if content not in words_of:
                tokens = record.get("tokens") or []
                words_of[content] = {t: c for t, c in Counter(tokens).items() if is_word(t)}
            for j in range(i, n, base_n):
                mine = varying(j, n)
                copy = {**doc, **mine, "_order": f"{mine['fetched_at']}\t{mine['url']}"}
                chunk.append(copy)
                postings.append((copy["_order"], terms))
                for group, total in group_changes([], [copy]).items():
                    kept = groups.setdefault(group, [0, 0, 0])
                    for k in range(3):
                        kept[k] += total[k]
                key = count_key(copy)
                sharing[(key, content)] += 1
                for k in (key, (ALL, ALL, ALL, key[3])):
                    total = totals.setdefault(k, [0, 0, 0])
                    total[0] += 1
                    total[1] += int(record.get("token_count") or 0)
                    total[2] += int(record.get("word_count") or 0)
                if len(chunk) >= INSERT_BATCH:
                    post(store.db, postings)
                    store.db.articles.insert_many(chunk, ordered=False)
                    done += len(chunk)
                    chunk.clear()
                    postings.clear()
                    if done % 10_000 == 0:
                        rate = done / (time.perf_counter() - start)
                        print(f"  mongo: {done} articles, {rate:.0f}/s", file=sys.stderr)
    if chunk:
        post(store.db, postings)
        store.db.articles.insert_many(chunk, ordered=False)
    delta = CountDelta()
    for (key, content), articles in sharing.items():
        for k in (key, (ALL, ALL, ALL, key[3])):
            for word, c in words_of[content].items():
                delta.words[(k, word)] += articles * c
    counted = time.perf_counter()
    insert_word_counts(store.db, delta.changes())
    store._apply_delta(CountDelta(totals=totals))
    write_group_changes(store.db, groups)
    print(f"  mongo: kept counts in {time.perf_counter() - counted:.0f} s", file=sys.stderr)
    return n / (time.perf_counter() - start)


def server_usage(pid: int | None) -> tuple[float, float, float]:
    """(CPU seconds, resident MB, peak resident MB) of the server process so far (zeros: not ours)."""
    if pid is None:
        return 0.0, 0.0, 0.0
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return cpu, int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def mongo_store(uri: str, database: str, cache: Path, base: Path, base_n: int, n: int) -> MongoStore:
    """The store of ``n`` articles in ``database``: reused when a finished build is there, else
    dropped and built from the SQLite store ``base`` of ``base_n``."""
    store = MongoStore(uri, database, spill_path=str(cache / "mongo-spill.jsonl"))
    with store:
        if store.get_state("scale:built") == {"articles": n}:
            print(f"MongoDB, {n} articles: reusing {database}", file=sys.stderr)
            return store
        store.drop()
    with store:
        rate = cloned_mongo(store, base, base_n, n)
        store.set_state("scale:built", {"articles": n})
    print(f"MongoDB, {n} articles built at {rate:.0f} articles/s", file=sys.stderr)
    return store


def run_mongo(
    opts: argparse.Namespace,
    pages: list[dict[str, Any]],
    out: Path,
    skip: set[str],
    sqlite_results: dict[int, dict[str, Any]],
) -> None:
    """Every command on MongoDB at each of ``--mongo-sizes`` next to SQLite at the same size, with
    the server's CPU seconds and resident memory (SecantusDB on loopback with its data under
    ``--cache``, reused by the next run; or MONGO_URI)."""
    from scale import commands, run_command, sqlite_store

    from sacorpus.testing.mongo import RestartableMongo

    sizes = [int(s) for s in opts.mongo_sizes.split(",") if s]
    base_n = min(sizes)
    base = sqlite_store(opts.cache, pages, base_n)
    external = os.environ.get("MONGO_URI")
    server = None
    if not external:
        root = opts.cache / "secantus"
        root.mkdir(parents=True, exist_ok=True)
        server = RestartableMongo(str(root))
        server.start()
    uri = external or (server.uri if server else "")
    try:
        for n in sizes:
            database = f"sacorpus_scale_{n}_{len(pages)}"
            mongo_store(uri, database, opts.cache, base, base_n, n)
            pid = server.proc.pid if server and server.proc else None
            settings = ["-s", f"MONGO_URI={uri}", "-s", f"MONGO_DATABASE={database}"]
            settings += ["-s", f"SACORPUS_STORE_SPILL_PATH={opts.cache / 'mongo-spill.jsonl'}"]
            results: dict[str, Any] = {}
            for name, args, _base in commands(out):
                if name in skip or name == "startup-scrapy":
                    continue
                before = server_usage(pid)
                seconds, rss, code, anon, cpu = run_command(args, settings, opts.timeout)
                after = server_usage(pid)
                results[name] = (seconds, rss, anon, cpu, after[0] - before[0], after[1], after[2])
                print(
                    f"  [mongo {n}] {name:<17} {seconds:8.2f} s  cpu {cpu:6.2f} s  server cpu"
                    f" {after[0] - before[0]:6.2f} s  anon {anon:6.0f} MB{'  FAILED' if code else ''}",
                    file=sys.stderr,
                )
            mongo_report(n, results, sqlite_results.get(n))
    finally:
        if server is not None:
            server.stop()


def mongo_report(n: int, results: dict[str, Any], sqlite: dict[str, Any] | None) -> None:
    """One line a command: MongoDB's wall and CPU seconds (client and server), peak RSS of the
    command, the server's resident memory after it, SQLite's time at the same size and the ratio."""
    print(f"\nMongoDB, {n} articles (ratio: to SQLite at the same size; target <= {MONGO_RATIO}x)")
    print(
        f"  {'command':<17} {'seconds':>8} {'cpu s':>6} {'srv cpu':>7} {'anon MB':>8} {'srv MB':>7}"
        f" {'srv peak':>8} {'sqlite s':>8} {'ratio':>6}  target"
    )
    for name, (seconds, _rss, anon, cpu, server_cpu, server_mb, server_peak) in results.items():
        ref = (sqlite or {}).get(name)
        ratio = seconds / ref[0] if ref and ref[0] else None
        verdict = ""
        if ratio is not None and name not in ("startup",):
            verdict = "ok" if ratio <= MONGO_RATIO else "MISSED"
        print(
            f"  {name:<17} {seconds:8.2f} {cpu:6.2f} {server_cpu:7.2f} {anon:8.0f} {server_mb:7.0f}"
            f" {server_peak:8.0f} {ref[0] if ref else 0:8.2f} {ratio or 0:6.2f}  {verdict}"
        )
