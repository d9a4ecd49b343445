"""Corpus browser benchmark: search and KWIC pages of `scrapy serve` against the corpus functions alone.

A generated SQLite corpus of SIZE articles (copies of the browser test corpus under new URLs, dates and
publications: sacorpus.testing.corpus.generated_records) is served by the real command on a loopback
port; each page is fetched over HTTP (median of --repeat runs) and compared, in the same run, with the
same query answered by the corpus functions the page calls, without the server (the baseline): what
the page adds is its overhead. Queries: a frequent phrase (the first page fills early), a word no
article has (every article is read: the worst case), and their concordances.

    python benchmarks/serve.py [--size 100000] [--repeat 3] [--keep DIR]

With ``--store`` a corpus built elsewhere is served (``benchmarks/scale.py``'s real pages at 100,000:
``--store /tmp/sacorpus-scale/store-100000-200.sqlite --word water --phrase "the water"``).

Target: each page within 1 s at 100,000 articles on SQLite (reached once the corpus functions answer
from an index; the scan baseline shows how far the functions alone are from it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sacorpus.corpus.filters import ArticleFilter
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.corpus import generated_records
from sacorpus.testing.servers import free_port, stop_process, wait_until_listening
from sacorpus.web import queries

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 1.0
PAGE_SIZE = 50
MAX_LINES = 20_000


def build_store(path: Path, size: int) -> float:
    """Store ``size`` generated articles; returns the seconds it took."""
    start = time.perf_counter()
    with SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl")) as store:
        batch: list[dict[str, Any]] = []
        for record in generated_records(size):
            batch.append(record)
            if len(batch) == 1000:
                store.upsert_articles(batch)
                batch = []
        if batch:
            store.upsert_articles(batch)
    return time.perf_counter() - start


def median_seconds(
    fn: Callable[[], Any], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def fetch(url: str) -> None:
    with urllib.request.urlopen(url, timeout=600) as answer:
        answer.read()
        assert answer.status == 200, url


def cases(store: SQLiteStore, word: str, phrase: str, regex: str) -> list[tuple[str, str, Callable[[], Any]]]:
    """(label, page path, the same query through the corpus functions alone)."""
    flt = ArticleFilter
    q = urllib.parse.quote_plus
    return [
        (
            f"search {phrase!r} (page 1)",
            f"/search?q={q(phrase)}",
            lambda: queries.search(store, flt(), phrase, size=PAGE_SIZE),
        ),
        (
            f"search {phrase!r} (page 5)",
            f"/search?q={q(phrase)}&page=5",
            lambda: queries.search(store, flt(), phrase, page=5, size=PAGE_SIZE),
        ),
        (
            f"search {word!r} (word, page 1)",
            f"/search?q={q(word)}&mode=words",
            lambda: queries.search(store, flt(), word, mode="words", size=PAGE_SIZE),
        ),
        (
            f"search {regex!r} (regex)",
            f"/search?q={q(regex)}&mode=regex",
            lambda: queries.search(store, flt(), regex, mode="regex", size=PAGE_SIZE),
        ),
        (
            "search 'zebra' (no hit)",
            "/search?q=zebra",
            lambda: queries.search(store, flt(), "zebra", size=PAGE_SIZE),
        ),
        (
            f"kwic {phrase!r} (page 1)",
            f"/kwic?q={q(phrase)}",
            lambda: queries.concordance(store, flt(), phrase, max_lines=PAGE_SIZE + 1),
        ),
        (
            f"kwic {word!r} (page 5)",
            f"/kwic?q={q(word)}&page=5",
            lambda: queries.concordance(store, flt(), word, max_lines=5 * PAGE_SIZE + 1),
        ),
        (
            f"kwic {phrase!r} sorted (cap)",
            f"/kwic?q={q(phrase)}&sort=left",
            lambda: queries.concordance(store, flt(), phrase, sort="left", max_lines=MAX_LINES),
        ),
        (
            "kwic 'zebra' (no hit)",
            "/kwic?q=zebra",
            lambda: queries.concordance(store, flt(), "zebra", max_lines=MAX_LINES),
        ),
        ("stats page", "/stats", lambda: queries.corpus_stats(store, flt())),
        ("word list page", "/wordlist", lambda: queries.wordlist(store, flt(), lower=False)),
    ]


def serve(path: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "sacorpus.console", "serve", "--port", str(port)]
    cmd += [
        "-s",
        f"SACORPUS_SQLITE_PATH={path}",
        "-s",
        f"SACORPUS_STORE_SPILL_PATH={path.parent / 'spill.jsonl'}",
    ]
    cmd += ["-s", f"SACORPUS_SERVE_PAGE_SIZE={PAGE_SIZE}", "-s", f"SACORPUS_SERVE_MAX_LINES={MAX_LINES}"]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_until_listening(port, proc, "scrapy serve", timeout=120, log=log)
    return proc, f"http://127.0.0.1:{port}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=100_000, help="articles in the generated corpus")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (the median is shown)")
    ap.add_argument("--keep", metavar="DIR", help="build the corpus here and keep it (reused when present)")
    ap.add_argument(
        "--store",
        type=Path,
        help="serve this SQLite corpus instead (e.g. benchmarks/scale.py's store-100000-200.sqlite; read only)",
    )
    ap.add_argument("--word", default="land", help="a word of the corpus")
    ap.add_argument("--phrase", default="land reform", help="a phrase of the corpus")
    ap.add_argument("--regex", default=r"land\s+\w+", help="a regular expression")
    ap.add_argument("--only", default="", help="run only the cases whose label contains this")
    opts = ap.parse_args()
    if opts.store:
        opts.keep = str(opts.store.parent)
    workdir = Path(opts.keep or tempfile.mkdtemp(prefix="sacorpus-serve-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    path = opts.store or workdir / f"corpus-{opts.size}.sqlite"
    if not path.exists():
        print(f"storing {opts.size:,} articles in {path} ... ", end="", flush=True)
        print(f"{build_store(path, opts.size):.1f} s")
    proc, base = serve(path, workdir / "serve.log")
    # the functions' CPU seconds too: on a loaded machine the wall times grow, the CPU time hardly
    print(
        f"{'query':38} {'page (HTTP)':>12} {'functions':>10} {'overhead':>9} {'CPU':>8}  target <= {TARGET_S:.1f} s"
    )
    try:
        with SQLiteStore(str(path), spill_path=str(workdir / "spill.jsonl")) as store:
            for label, page, alone in cases(store, opts.word, opts.phrase, opts.regex):
                if opts.only not in label:
                    continue
                fetch(base + page)  # warm the page cache of both (the same file)
                served = median_seconds(lambda page=page: fetch(base + page), opts.repeat)
                baseline = median_seconds(alone, opts.repeat)
                cpu = median_seconds(alone, opts.repeat, time.process_time)
                verdict = "ok" if served <= TARGET_S else "over"
                print(
                    f"{label:38} {served:10.3f} s {baseline:8.3f} s {served - baseline:+8.3f} s {cpu:6.3f} s  {verdict}"
                )
    finally:
        stop_process(proc)
    if not opts.keep:
        for leftover in workdir.iterdir():
            leftover.unlink()
        workdir.rmdir()


if __name__ == "__main__":
    main()
