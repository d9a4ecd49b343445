"""Memory and speed of the rebuild's in-memory dedup index, against a dict entry per sentence hash.

The articles are real article bodies (the Fundus ground truth under ``<data>/extraction/fundus_dev``),
fingerprinted as a rebuild does, in three corpora of the same size:

  distinct   every body once, then copies with one word changed in each sentence: every sentence
             hash belongs to one article, as in most of a real corpus (worst case for memory)
  syndicated every body once, then copies of them whole: every sentence hash is shared
  mixed      half of each

For each corpus and each index (``MemoryDedupIndex``, and the dict-per-hash index it replaced, kept
here as the baseline), the Python memory the index holds after every add (``tracemalloc``: numpy's
arrays are traced too), its own estimate (``approx_bytes``, which the rebuild's memory budget reads),
and the time to add every article and to ask the candidates of each; the answers of both must be equal.

    python benchmarks/dedup_memory.py [DATA] [--articles 6000]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
import tracemalloc
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sacorpus.text.dedup import DedupConfig, fingerprint  # noqa: E402
from sacorpus.text.dedup_memory import MemoryDedupIndex  # noqa: E402


class DictPerHash:
    """The index before (postings a dict entry and a list per hash), for the memory it held."""

    def __init__(self, max_ids: int) -> None:
        self.max_ids = max_ids
        self._postings: dict[int, list[Any]] = {}
        self._docs: dict[str, tuple[dict[str, Any], Any]] = {}
        self._keys: tuple[dict[str, list[str]], ...] = ({}, {}, {})

    def dedup_add(self, fingerprint: dict[str, Any]) -> None:
        import numpy as np

        url, entries = fingerprint["url"], fingerprint.get("sentences") or []
        rows = np.array(entries, dtype=np.int64).reshape(-1, 3) if entries else np.empty((0, 3), np.int64)
        self._docs[url] = ({k: v for k, v in fingerprint.items() if k != "sentences"}, rows)
        for keyed, field in zip(self._keys, ("text_hash", "canonical_key", "slug_key"), strict=True):
            if fingerprint.get(field) is not None:
                keyed.setdefault(fingerprint[field], []).append(url)
        for h in dict.fromkeys(int(e[0]) for e in entries):
            entry = self._postings.get(h)
            if entry is None:
                self._postings[h] = [1, url]
            else:
                entry[0] += 1
                if len(entry) <= self.max_ids:
                    entry.append(url)

    def dedup_candidates(self, hashes: Iterable[int]) -> dict[int, tuple[int, Sequence[str]]]:
        out: dict[int, tuple[int, Sequence[str]]] = {}
        for h in hashes:
            entry = self._postings.get(int(h))
            if entry is not None:
                out[int(h)] = (entry[0], entry[1:])
        return out

    def approx_bytes(self) -> int:
        return (
            120 * len(self._postings)
            + 24 * sum(len(r) for _d, r in self._docs.values())
            + 600 * len(self._docs)
        )


def bodies(data: Path) -> list[str]:
    out = []
    for line in (data / "extraction" / "fundus_dev" / "ground_truth.jsonl").open(encoding="utf-8"):
        text = json.loads(line).get("body_text")
        if isinstance(text, str) and len(text) > 500:
            out.append(text)
    return out


def corpus(texts: list[str], n: int, kind: str, rng: random.Random) -> list[dict[str, Any]]:
    """``n`` fingerprint records: the bodies, then copies (whole, or with a word changed per sentence)."""
    records = []
    for i in range(n):
        text = texts[i % len(texts)]
        if i >= len(texts):
            changed = kind == "distinct" or (kind == "mixed" and rng.random() < 0.5)
            text = text.replace(". ", f" {i}. ") if changed else text
        url = f"https://bench.sacorpus.invalid/{kind}/{i}"
        records.append(fingerprint(url, text, config=DedupConfig(), order=f"2026-01-01\t\t{url}").to_record())
    return records


def measure(make: Any, records: list[dict[str, Any]]) -> tuple[Any, int, float, float]:
    """(index, traced bytes it holds, seconds to add all, seconds to ask every article's candidates)."""
    gc.collect()
    tracemalloc.start()
    index = make()
    start = time.perf_counter()
    for record in records:
        index.dedup_add(record)
    added = time.perf_counter() - start
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    start = time.perf_counter()
    for record in records:
        index.dedup_candidates(e[0] for e in record["sentences"])
    return index, held, added, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="?", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--articles", type=int, default=6000)
    args = ap.parse_args(argv)
    texts = bodies(Path(args.data))
    print(f"{len(texts)} real bodies; {args.articles} articles a corpus")
    print(f"{'corpus':<11} {'index':<22} {'bytes/article':>13} {'estimate':>9} {'add ms':>7} {'ask ms':>7}")
    for kind in ("distinct", "syndicated", "mixed"):
        records = corpus(texts, args.articles, kind, random.Random(1))
        rows = sum(len(r["sentences"]) for r in records) / len(records)
        answers = []
        for name, make in (
            ("dict per hash (before)", lambda: DictPerHash(64)),
            ("arrays (now)", lambda: MemoryDedupIndex(64)),
        ):
            index, held, added, asked = measure(make, records)
            n = len(records)
            print(
                f"{kind:<11} {name:<22} {held / n:13.0f} {index.approx_bytes() / n:9.0f} "
                f"{added / n * 1000:7.3f} {asked / n * 1000:7.3f}"
            )
            probe = records[:: max(1, n // 200)]
            answers.append([index.dedup_candidates(e[0] for e in r["sentences"]) for r in probe])
        print(f"{'':<11} ({rows:.1f} sentences an article; answers equal: {answers[0] == answers[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
