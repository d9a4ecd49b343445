"""``scrapy collocations WORD [--window 5] [--measure ll|mi|t] [--min-count 3] [--top N]``.

Collocates of a node word within ``window`` words either side, scored by log-likelihood (Dunning),
mutual information or t-score (see sacorpus.corpus.collocations for the counting model). TSV out:
rank, collocate, co-occurrences, corpus frequency, expected co-occurrences, ll, mi, t.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.corpus.cli import (
    ScanCounts,
    add_filter_options,
    iter_store,
    open_corpus,
    quiet_broken_pipe,
    report_scan,
)
from sacorpus.corpus.collocations import (
    COLLOCATE_HEADER,
    COLLOCATION_FIELDS,
    MEASURES,
    CollocationCounter,
    collocate_tsv,
    collocates,
)
from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "WORD [--window 5] [--measure ll|mi|t] [--min-count 3] [--top N] [--case-sensitive] [filters]"

    def short_desc(self) -> str:
        return "Collocates of a word (log-likelihood, MI, t-score) from the stored tokens"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--window", type=int, default=5, metavar="N", help="words either side of the node"
        )
        parser.add_argument("--measure", choices=MEASURES, default="ll", help="rank by this measure")
        parser.add_argument("--min-count", type=int, default=3, metavar="K", help="co-occurring K+ times")
        parser.add_argument("--top", type=int, default=50, metavar="N", help="show N collocates (0: all)")
        parser.add_argument("--case-sensitive", action="store_true", help="do not fold case")
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1 or not args[0].strip() or len(args[0].split()) != 1:
            raise UsageError("give one node WORD (a single token)")
        if opts.window < 1:
            raise UsageError("--window must be at least 1", print_help=False)
        try:
            flt = ArticleFilter.from_options(opts)
        except FilterError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        counter = CollocationCounter(node=args[0].strip(), window=opts.window, lower=not opts.case_sensitive)
        counts = ScanCounts()
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                for record in iter_store(
                    store,
                    flt,
                    COLLOCATION_FIELDS,
                    progress=not opts.no_progress,
                    desc="collocations",
                    counts=counts,
                ):
                    counter.add(record.get("tokens") or [])
                rows = collocates(
                    counter, measure=opts.measure, min_count=max(1, opts.min_count), top=opts.top or None
                )
                print(COLLOCATE_HEADER)
                for rank, row in enumerate(rows, start=1):
                    print(collocate_tsv(rank, row))
        except StorageError as exc:
            print(f"collocations: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles counted")
        print(
            f"node {counter.node!r}: {counter.node_freq} occurrences, span {counter.span_size} words, "
            f"corpus {counter.n} words; {len(rows)} collocates by {opts.measure}",
            file=sys.stderr,
        )
