"""Peak memory (RSS) of ``scrapy export`` in every format over a generated SQLite store.

    python benchmarks/export_memory.py [--articles 100000] [--formats jsonl,lines,vrt,conllu,parquet]

The store holds synthetic articles (about 300 words in 6 paragraphs, tokens with offsets, sentences,
HTML, links, quotes; every second article tagged). Each export runs as its own process; its peak RSS
comes from ``wait4``; it includes the SQLite file pages the store maps (``PRAGMA mmap_size``, up
to 4 x SACORPUS_SQLITE_CACHE_MB), so the anonymous part (what the process allocated, sampled from
/proc every 50 ms) is printed beside it. Baseline in the same run: ``--format jsonl`` (the export that existed before
the linguistic formats) and the RSS of a process that only opens the store (``scrapy stats``).
Target: every format at most 300 MB at 100,000 articles.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sacorpus.storage.sqlite import SQLiteStore

REPO = Path(__file__).resolve().parent.parent
TARGET_MB = 300
WORDS = [
    "the",
    "minister",
    "said",
    "water",
    "land",
    "reform",
    "council",
    "residents",
    "police",
    "court",
    "school",
    "budget",
    "province",
    "municipality",
    "election",
    "party",
    "president",
    "health",
    "clinic",
    "road",
    "taxi",
    "rain",
    "drought",
    "farmers",
    "price",
]
TAGS = ("DET", "NOUN", "VERB", "NOUN", "NOUN", "NOUN", "ADJ", "PUNCT")


def article(n: int, rng: random.Random) -> dict[str, Any]:
    paragraphs = []
    for _ in range(6):
        sentences = []
        for _ in range(3):
            words = [rng.choice(WORDS) for _ in range(rng.randint(12, 20))]
            sentences.append(" ".join(words).capitalize() + " .")
        paragraphs.append(" ".join(sentences))
    text = "\n".join(paragraphs)
    tokens, offsets, sentence_spans, pos = [], [], [], 0
    for token in text.replace("\n", " ").split(" "):
        start = text.index(token, pos)
        tokens.append(token)
        offsets.append([start, start + len(token)])
        pos = start + len(token)
    start = 0
    for k, (token, (_s, end)) in enumerate(zip(tokens, offsets, strict=True)):
        if token == ".":
            sentence_spans.append([offsets[start][0], end])
            start = k + 1
    record: dict[str, Any] = {
        "url": f"https://bench.example/{n}",
        "publication": f"pub{n % 7}",
        "fetched_at": f"2024-{1 + n % 12:02d}-01T00:00:00Z",
        "published_at": f"2024-{1 + n % 12:02d}-{1 + n % 28:02d}T10:00:00Z",
        "title": f"Article {n}",
        "title_tokens": ["Article", str(n)],
        "language": "en",
        "language_prob": 0.99,
        "text": text,
        "html": "<html><body>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</body></html>",
        "tokens": tokens,
        "token_offsets": offsets,
        "sentences": sentence_spans,
        "token_count": len(tokens),
        "word_count": len(tokens),
        "links": [{"url": "https://x.example/", "start": 0, "length": 10, "text": text[:10]}],
        "quotes": [],
        "dedup_label": "unique",
    }
    if n % 2 == 0:
        record["upos"] = " ".join(TAGS[i % len(TAGS)] for i in range(len(tokens)))
        record["lemmas"] = " ".join("=" for _ in tokens)
        record["pos_model"] = "en:bench"
    return record


def build_store(path: Path, count: int) -> None:
    rng = random.Random(1)
    with SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl")) as store:
        for first in range(0, count, 1000):
            store.upsert_articles([article(n, rng) for n in range(first, min(first + 1000, count))])


def anon_rss_mb(pid: int) -> float:
    """Anonymous resident memory of a process (what it allocated, not file pages it maps)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def peak_rss_mb(args: list[str], store: Path, cache_mb: int | None = None) -> tuple[float, float, float]:
    """(peak RSS, peak anonymous RSS sampled every 50 ms, seconds) of one command."""
    cmd = [sys.executable, "-m", "scrapy", *args, "--no-progress", "-s", f"SACORPUS_SQLITE_PATH={store}"]
    if cache_mb is not None:
        cmd += ["-s", f"SACORPUS_SQLITE_CACHE_MB={cache_mb}"]
    cmd += ["-s", f"SACORPUS_STORE_SPILL_PATH={store.parent / 'spill.jsonl'}"]
    env = {k: v for k, v in os.environ.items() if k != "MONGO_URI"}
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    anon = 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        anon = max(anon, anon_rss_mb(proc.pid))
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"{' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return usage.ru_maxrss / 1024, anon, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--articles", type=int, default=100_000)
    parser.add_argument("--formats", default="jsonl,lines,blocks,vrt,conllu,parquet")
    parser.add_argument(
        "--sqlite-cache-mb",
        type=int,
        help="SACORPUS_SQLITE_CACHE_MB for the commands (bounds the mapped pages)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sacorpus-export-bench-") as tmp:
        store = Path(tmp) / "corpus.sqlite"
        started = time.monotonic()
        build_store(store, args.articles)
        size = store.stat().st_size / 1e6
        print(f"store: {args.articles} articles, {size:.0f} MB, built in {time.monotonic() - started:.0f} s")
        base, base_anon, seconds = peak_rss_mb(["stats"], store, args.sqlite_cache_mb)
        print(
            f"baseline: scrapy stats (reads the whole store): peak RSS {base:.0f} MB, "
            f"anonymous {base_anon:.0f} MB ({seconds:.0f} s)"
        )
        failed = False
        for fmt in args.formats.split(","):
            suffix = {"parquet": ".parquet"}.get(fmt, ".gz")
            out = Path(tmp) / f"out-{fmt}{suffix}"
            rss, anon, seconds = peak_rss_mb(
                ["export", "--format", fmt, "-o", str(out)], store, args.sqlite_cache_mb
            )
            ok = rss <= TARGET_MB
            failed |= not ok
            print(
                f"export --format {fmt:8s}: peak RSS {rss:6.0f} MB (target <= {TARGET_MB}), "
                f"anonymous {anon:4.0f} MB, "
                f"{seconds:5.0f} s, {out.stat().st_size / 1e6:7.1f} MB written {'OK' if ok else 'OVER'}"
            )
            out.unlink()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
