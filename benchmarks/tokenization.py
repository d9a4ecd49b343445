"""Benchmark sacorpus.text.tokenize on real news bodies, against NLTK's own span tokenizer.

(Named tokenization.py: a benchmarks/tokenize.py would shadow the standard library's tokenize for
every script run from this folder.)

    python benchmarks/tokenization.py [DATA]     # DATA defaults to ../shared/data (repo-relative)

Reads the ground-truth bodies of the Fundus pages (extraction/fundus_dev/ground_truth.jsonl), one
paragraph a line, and tokenizes each with the language of its publisher's country (en for English
pages, the regex tokenizer for the rest). Prints tokens per second on one core and "honest spans":
the share of tokens whose source span is exactly the token (quotes: the mark they replaced). The
baseline is NLTK's NLTKWordTokenizer.span_tokenize on the same paragraphs (no sentence splitting,
no URL handling), which raises on some inputs; its failures are counted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sacorpus.text.tokenize import tokenize  # noqa: E402

QUOTES = {"``": {'"', "“", "„", "``"}, "''": {'"', "”", "''"}, "`": {"'", "‘", "‚"}}
ENGLISH_COUNTRIES = {"au", "be", "ca", "ind", "ls", "mx", "my", "tw", "tz", "uk", "us", "za"}


def honest(token: str, source: str) -> bool:
    if token in QUOTES:
        return source in QUOTES[token]
    return source.replace("’", "'") == token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", nargs="?", type=Path, default=REPO.parent / "shared" / "data")
    args = parser.parse_args(argv)
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    pages = []
    with (args.data / "extraction" / "fundus_dev" / "ground_truth.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            page = json.loads(line)
            text = "\n".join(p.strip() for p in (page.get("body_text") or "").split("\n") if p.strip())
            lang = "en" if page["country"] in ENGLISH_COUNTRIES else page["country"]
            pages.append((text, lang))
    tokenize("Warm up. Mr. Smith's test.")

    tokens = good = 0
    started, cpu = time.perf_counter(), time.process_time()
    for text, lang in pages:
        result = tokenize(text, lang)
        tokens += len(result.tokens)
        good += sum(honest(t, text[a:b]) for t, (a, b) in zip(result.tokens, result.offsets, strict=True))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    chars = sum(len(t) for t, _ in pages)

    from nltk.tokenize.destructive import NLTKWordTokenizer

    baseline = NLTKWordTokenizer()
    base_tokens = failures = 0
    b_started = time.perf_counter()
    for text, _ in pages:
        for paragraph in text.split("\n"):
            try:
                base_tokens += len(list(baseline.span_tokenize(paragraph)))
            except (ValueError, LookupError):
                failures += 1
    b_wall = time.perf_counter() - b_started
    paragraphs = sum(t.count("\n") + 1 for t, _ in pages)
    print(f"{len(pages)} pages, {paragraphs} paragraphs, {chars:,} characters")
    print(
        f"sacorpus: {tokens:,} tokens, {tokens / wall:,.0f} tokens/s wall ({tokens / cpu:,.0f}/s CPU), "
        f"{len(pages) / wall:.1f} articles/s; honest spans {good / max(1, tokens):.4%}"
    )
    print(
        f"NLTK span_tokenize alone (baseline, no sentences/URLs): {base_tokens:,} tokens, "
        f"{base_tokens / b_wall:,.0f} tokens/s wall; paragraphs it failed on: {failures}/{paragraphs}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
