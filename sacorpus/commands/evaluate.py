"""``scrapy evaluate DATASET_DIR [--limit N] [--json] [--misses]``: extraction quality against bare trafilatura.

Reads a Fundus-style (``ground_truth.jsonl``) or trafilatura-style (``evaldata.json``) dataset folder,
runs the crawl's own decode + pre-clean + extract + metadata path and bare trafilatura on the same
pages in the same run, and prints body precision/recall/F1, title/authors/date exact-match rates and
milliseconds per page for both (see :mod:`sacorpus.evaluation`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.evaluation import evaluate, format_table


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "DATASET_DIR [--limit N] [--json] [--misses]"

    def short_desc(self) -> str:
        return "Score sacorpus extraction and metadata against bare trafilatura on a labelled dataset"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
        parser.add_argument("--json", action="store_true", help="print the scores as JSON")
        parser.add_argument("--misses", action="store_true", help="also list sacorpus metadata misses")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give exactly one DATASET_DIR")
        root = Path(args[0])
        if not root.is_dir():
            raise UsageError(f"{root}: not a directory", print_help=False)

        def progress(n: int) -> None:
            if n % 25 == 0:
                print(f"\r{n} pages", end="", file=sys.stderr, flush=True)

        try:
            fmt, scores = evaluate(root, limit=opts.limit, progress=progress)
        except ValueError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        print(file=sys.stderr)
        if opts.json:
            print(json.dumps({"dataset": str(root), "format": fmt, "scores": [s.as_dict() for s in scores]}, indent=2))
        else:
            print(format_table(fmt, scores))
        if opts.misses:
            for field, misses in scores[0].misses.items():
                print(f"\n== {field} misses: {len(misses)}")
                for page_id, truth, got in misses:
                    print(f"  {page_id}\n    truth: {truth!r}\n    got:   {got!r}")
