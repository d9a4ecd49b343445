"""A corpus of 10,000 / 100,000 (``--million``: 1,000,000) articles on one machine: storage per
article, zstd levels, and every corpus command's time and peak RSS, each with its baseline.

The articles are real pages (``<data>/extraction/trafilatura_eval``) run once through the page core,
language and tokenize steps (``scrapy reextract``'s code), then recombined: article ``i`` has the raw
body and HTML of one page and the text (tokens, offsets) of two, under one of five publications, a date
spread over three years in order and 5% labelled duplicate. They are written through the real storage path
(``upsert_articles`` in batches: compact rows, FTS, kept counts). Stores are cached under ``--cache``
and reused by the next run.

Baselines, in the same run: the store size of the older layout (HTML in the JSON document) for the
same records; for ``search``/``wordlist``/``collocations`` the linear path of the same command
(a regex with no literal part, ``--recount``); and at 100,000 the same command on the 10,000 store.
MongoDB (SecantusDB on loopback with its data under ``--cache``, or MONGO_URI) is measured at each of
``--mongo-sizes`` against SQLite at the same size, with the server's CPU seconds and memory.

    python benchmarks/scale.py [--data ../shared/data] [--cache /tmp/sacorpus-scale] [--sizes 10000,100000]
                               [--million] [--pages 200] [--mongo-sizes 10000,100000] [--skip-mongo]
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SLUGS = ("mg", "news24", "iol", "citizen", "netwerk24")
TARGETS = {"search": 1.0, "kwic": 1.0, "stats": 1.0, "wordlist": 1.0, "collocations": 5.0}
RSS_TARGET_MB = 300


def prepared_pages(data: Path, cache: Path, n: int) -> list[dict[str, Any]]:
    """``n`` real pages through the page core, language and tokenize steps (cached as JSONL.gz)."""
    path = cache / f"pages-{n}.jsonl.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            pages = [json.loads(line) for line in fh]
        for page in pages:
            page["body"] = base64.b64decode(page["body"])
        return pages
    from sacorpus.commands.reextract import reextracted_fields
    from sacorpus.publications import PublicationRegistry

    registry = PublicationRegistry()
    files = sorted((data / "extraction" / "trafilatura_eval").glob("*/*.html.gz"))
    pages = []
    start = time.perf_counter()
    for file in files:
        body = gzip.decompress(file.read_bytes())
        fields = reextracted_fields({"url": f"https://x.example/{file.stem}", "body": body}, registry)
        if len(fields.get("tokens") or []) >= 50:
            pages.append({**fields, "body": body})
        if len(pages) >= n:
            break
    print(f"prepared {len(pages)} pages in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    cache.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for page in pages:
            fh.write(json.dumps({**page, "body": base64.b64encode(page["body"]).decode()}) + "\n")
    return pages


def varying(i: int, n: int) -> dict[str, Any]:
    """What article ``i`` of ``n`` has of its own (the rest comes from its two pages)."""
    slug = SLUGS[i % len(SLUGS)]
    day = i * 1095 // n  # fetched in date order, as a crawl adds them
    return {
        "url": f"https://{slug}.example/{i}",
        "publication": slug,
        "published_at": f"{2022 + day // 365}-{1 + (day % 365) // 31:02d}-{1 + day % 28:02d}T08:00:00",
        "fetched_at": f"2025-01-01T00:00:00.{i:07d}",
        "dedup_label": "duplicate" if i % 20 == 0 else "unique",
        "text_hash": hashlib.sha1(f"{i}".encode()).hexdigest(),
    }


def recombined(pages: list[dict[str, Any]], n: int) -> Iterator[dict[str, Any]]:
    """Article ``i``: the body and HTML of one page, the text and tokens of two."""
    from sacorpus.storage.counts import is_word

    p = len(pages)
    for i in range(n):
        a, b = pages[i % p], pages[(i * 7 + 3) % p]
        shift = len(a["text"]) + 1
        tokens = a["tokens"] + b["tokens"]
        yield {
            **a,
            "text": a["text"] + "\n" + b["text"],
            "tokens": tokens,
            "token_offsets": a["token_offsets"] + [[s + shift, e + shift] for s, e in b["token_offsets"]],
            "token_count": len(tokens),
            "word_count": sum(1 for t in tokens if is_word(t)),
            **varying(i, n),
        }


def build(store: Any, pages: list[dict[str, Any]], n: int, batch: int = 500) -> float:
    """Write ``n`` recombined articles through ``upsert_articles``; returns articles per second of
    the store's own time (making the records is not the store's cost; the total is printed too)."""
    start = time.perf_counter()
    in_store = 0.0
    chunk: list[dict[str, Any]] = []

    def write() -> float:
        began = time.perf_counter()
        store.upsert_articles(chunk)
        chunk.clear()
        return time.perf_counter() - began

    for i, record in enumerate(recombined(pages, n), start=1):
        chunk.append(record)
        if len(chunk) >= batch:
            in_store += write()
        if i % 10_000 == 0:
            print(f"  {i} articles, {i / in_store:.0f}/s in the store", file=sys.stderr)
    in_store += write()
    total = time.perf_counter() - start
    print(
        f"  store write path: {n / in_store:.0f} articles/s ({n / total:.0f}/s with making records)",
        file=sys.stderr,
    )
    return n / in_store


def sqlite_store(cache: Path, pages: list[dict[str, Any]], n: int, clone_from: int = 0) -> Path:
    """The cached store of ``n`` articles; built through ``upsert_articles``, or with ``clone_from``
    copied from the store of that many (see scale_clone.py)."""
    from sacorpus.storage.sqlite import SQLiteStore

    path = cache / f"store-{n}-{len(pages)}.sqlite"
    if not path.exists():
        partial = path.with_suffix(".part")
        for leftover in cache.glob(partial.name + "*"):
            leftover.unlink()
        if clone_from and clone_from < n:
            from scale_clone import cloned_store

            base = sqlite_store(cache, pages, clone_from)
            rate = cloned_store(base, partial, clone_from, n)
        else:
            with SQLiteStore(str(partial), spill_path=str(cache / "spill.jsonl")) as store:
                rate = build(store, pages, n)
        partial.rename(path)
        print(f"built {n} articles into {path}: {rate:.0f} articles/s", file=sys.stderr)
    return path


def old_layout_kb(pages: list[dict[str, Any]], n: int = 1000) -> float:
    """KB per article of the first layout (HTML in the JSON document, zlib body) for the same records."""
    total = 0
    for record in recombined(pages, n):
        doc = {k: v for k, v in record.items() if k != "body"}
        total += len(json.dumps(doc, ensure_ascii=False)) + len(zlib.compress(record["body"], 6))
    return total / n / 1024


def zstd_levels(pages: list[dict[str, Any]]) -> None:
    """Size and speed of each zstd level on the raw bodies (the level is chosen from this table)."""
    from sacorpus.storage.layout import zstd

    bodies = [p["body"] for p in pages[:50]]  # 50 pages: level 19 runs at a fraction of a MB/s
    raw = sum(map(len, bodies))
    print("\nzstd level   ratio   MB/s compress   (raw bodies)")
    zl = time.perf_counter()
    zsize = sum(len(zlib.compress(b, 6)) for b in bodies)
    print(f"  zlib 6    {raw / zsize:6.2f}   {raw / 1e6 / (time.perf_counter() - zl):8.1f}")
    for level in (1, 3, 6, 9, 12, 15, 19):
        start = time.perf_counter()
        size = sum(len(zstd.compress(b, level=level)) for b in bodies)
        print(f"  {level:>4}      {raw / size:6.2f}   {raw / 1e6 / (time.perf_counter() - start):8.1f}")


def commands(out: Path) -> list[tuple[str, list[str], str | None]]:
    """(name, scrapy arguments, name of the baseline command in the same run)."""
    return [
        ("startup-scrapy", ["version"], None),  # Scrapy's command line: what every command paid before
        ("startup", ["stats", "--help"], "startup-scrapy"),  # the lean path's start-up (no query)
        ("search", ["search", "water", "--limit", "0"], "search-linear"),
        ("search-linear", ["search", "--regex", "(water)"], None),  # a group: no literal to narrow by
        ("search-regex", ["search", "--regex", r"water\s+\w+"], "search-linear"),
        ("search-case", ["search", "Water", "--case-sensitive"], "search-linear"),
        ("kwic", ["kwic", "water"], None),
        ("kwic-phrase", ["kwic", "the water"], None),
        ("stats", ["stats"], None),
        ("stats-month", ["stats", "--by", "month", "--publication", "mg"], None),
        ("wordlist", ["wordlist", "--top", "1000"], "wordlist-recount"),
        (
            "wordlist-pub",
            ["wordlist", "--top", "1000", "--publication", "mg", "--since", "2023"],
            "wordlist-recount",
        ),
        ("wordlist-recount", ["wordlist", "--top", "1000", "--recount"], None),
        ("collocations", ["collocations", "water"], None),
        ("export-jsonl", ["export", "-o", str(out / "export.jsonl.gz")], None),
        ("export-lines", ["export", "--format", "lines", "-o", str(out / "export.txt.gz")], None),
        ("wordlist-check", ["wordlist", "--check"], None),
        ("dedup-rebuild", ["dedup", "--rebuild"], None),
    ]


#: a small launcher between this (large) process and each command: a child's peak RSS starts from the
#: memory of the process that exec'd it, so the command is exec'd from this launcher, not from here.
#: It reports the peak RSS (ru_maxrss: file-backed mapped pages of the SQLite file included) and the
#: peak anonymous RSS (RssAnon of /proc/PID/status, sampled every 10 ms: the process's own memory).
_LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
anon = 0
while proc.poll() is None:
    try:
        with open(f"/proc/{proc.pid}/status") as fh:
            for line in fh:
                if line.startswith("RssAnon:"):
                    anon = max(anon, int(line.split()[1]))
    except OSError:
        pass
    time.sleep(0.01)
seconds = time.perf_counter() - start
usage = __import__("resource").getrusage(__import__("resource").RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
print(json.dumps([seconds, usage.ru_maxrss / 1024, proc.returncode, anon / 1024, cpu]))
"""


def run_command(
    args: list[str], settings: list[str], timeout: float
) -> tuple[float, float, int, float, float]:
    """(seconds, peak RSS in MB, exit code, peak anonymous RSS in MB, CPU seconds) of ``sacorpus <args>`` (``python -m sacorpus.console``: the
    corpus commands without Scrapy's start-up, the others through Scrapy's command line) in the
    repository; ``version`` through ``python -m scrapy``."""
    entry = ["scrapy"] if args == ["version"] else ["sacorpus.console"]
    tail = [] if args == ["version"] or "--help" in args else ["--no-progress", *settings]
    cmd = [sys.executable, "-c", _LAUNCHER, sys.executable, "-m", *entry, *args, *tail]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    try:
        proc = subprocess.run(
            cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, start_new_session=True
        )
    except subprocess.TimeoutExpired:
        return timeout, 0.0, -9, 0.0, 0.0
    seconds, rss, code, anon, cpu = json.loads(proc.stdout.strip().splitlines()[-1])
    if code != 0:
        print(f"  {' '.join(args)}: exit {code}: {proc.stderr[-300:]}", file=sys.stderr)
    return float(seconds), float(rss), int(code), float(anon), float(cpu)


#: seconds, peak RSS MB, peak anonymous RSS MB, CPU seconds (user + system: on a loaded machine the
#: wall time grows with the other processes, the CPU time hardly)
Result = tuple[float, float, float, float]


def time_commands(
    label: str, settings: list[str], out: Path, skip: set[str], timeout: float
) -> dict[str, Result]:
    results: dict[str, Result] = {}
    for name, args, _ in commands(out):
        if name in skip:
            continue
        seconds, rss, code, anon, cpu = run_command(args, settings, timeout)
        results[name] = (seconds, rss, anon, cpu)
        print(
            f"  [{label}] {name:<17} {seconds:8.2f} s  cpu {cpu:6.2f} s  {rss:6.0f} MB  anon {anon:6.0f} MB"
            f"{'  FAILED' if code else ''}",
            file=sys.stderr,
        )
    return results


def report(title: str, results: dict[str, Result], against: dict[str, Result] | None, out: Path) -> None:
    """One line a command: wall seconds (start-up included: what a user waits), peak RSS and peak
    anonymous RSS, the ratio to its baseline, and the verdict against the targets (on the wall time;
    the memory target on the anonymous RSS, file-backed mapped pages aside)."""
    print(f"\n{title}")
    print(
        f"  {'command':<17} {'seconds':>8} {'cpu s':>6} {'peak MB':>8} {'anon MB':>8}  {'baseline':<28} {'ratio':>7}"
        "  target"
    )
    startup = results.get("startup", (0.0, 0.0, 0.0, 0.0))[0]
    for name, _args, base in commands(out):
        if name not in results:
            continue
        seconds, rss, anon, cpu = results[name]
        ref_name, ref = (
            (base, results.get(base or "")) if base else (name + " @ smaller", (against or {}).get(name))
        )
        ratio = f"{seconds / ref[0]:7.3f}" if ref and ref[0] else "      -"
        target = TARGETS.get(name.split("-")[0] if name.split("-")[0] in ("search", "kwic") else name)
        verdict = (
            f"{seconds:.2f} s <= {target} s {'ok' if seconds <= target else 'MISSED'} "
            f"(start-up {startup:.2f} s of it)"
            if target
            else ""
        )
        rss_ok = "" if anon <= RSS_TARGET_MB else f" anon RSS > {RSS_TARGET_MB} MB"
        print(
            f"  {name:<17} {seconds:8.2f} {cpu:6.2f} {rss:8.0f} {anon:8.0f}  {ref_name if ref else '-':<28} {ratio}  "
            f"{verdict}{rss_ok}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sacorpus-scale")
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated store sizes")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 articles")
    parser.add_argument("--pages", type=int, default=200, help="real pages recombined")
    parser.add_argument(
        "--mongo-sizes",
        default="10000",
        help="comma-separated MongoDB store sizes (each also in --sizes for its SQLite figures); the "
        "smallest is built from its SQLite store's rows, the others copy it (scale_mongo.py)",
    )
    parser.add_argument("--skip-mongo", action="store_true")
    parser.add_argument(
        "--clone-from",
        type=int,
        default=0,
        metavar="M",
        help="build larger stores by copying the rows of the store of M articles (scale_clone.py)",
    )
    parser.add_argument("--skip", default="", help="comma-separated command names not to run")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per command")
    opts = parser.parse_args()
    sizes = [int(s) for s in opts.sizes.split(",") if s] + ([1_000_000] if opts.million else [])
    skip = {s for s in opts.skip.split(",") if s}
    opts.cache.mkdir(parents=True, exist_ok=True)
    pages = prepared_pages(opts.data, opts.cache, opts.pages)
    zstd_levels(pages)
    out = Path(tempfile.mkdtemp(prefix="scale-out-"))
    previous: dict[str, Result] | None = None
    sqlite_results: dict[int, dict[str, Result]] = {}
    old_kb = old_layout_kb(pages)
    for n in sizes:
        path = sqlite_store(opts.cache, pages, n, opts.clone_from)
        size_kb = sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / n / 1024
        print(
            f"\nSQLite, {n} articles: {size_kb:.1f} KB/article (older layout, same records: {old_kb:.1f} KB; "
            f"ratio {size_kb / old_kb:.3f}; target <= 40 KB {'ok' if size_kb <= 40 else 'MISSED'})"
        )
        work = Path(tempfile.mkdtemp(prefix="scale-run-", dir=opts.cache))
        copy = work / "store.sqlite"
        copy.write_bytes(path.read_bytes())  # dedup --rebuild relabels: run on a copy
        settings = [
            "-s",
            f"SACORPUS_SQLITE_PATH={copy}",
            "-s",
            f"SACORPUS_STORE_SPILL_PATH={work / 'spill.jsonl'}",
        ]
        results = time_commands(f"sqlite {n}", settings, out, skip, opts.timeout)
        report(f"SQLite, {n} articles", results, previous, out)
        sqlite_results[n] = results
        previous = results
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()
    if not opts.skip_mongo:
        from scale_mongo import run_mongo

        run_mongo(opts, pages, out, skip, sqlite_results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
