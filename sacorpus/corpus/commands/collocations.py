"""``scrapy collocations WORD [--window 5] [--measure ll|mi|t] [--min-count 3] [--top N]``.

Collocates of a node word within ``window`` words either side, scored by log-likelihood (Dunning),
mutual information or t-score (see sacorpus.corpus.collocations for the counting model). TSV out:
rank, collocate, co-occurrences, corpus frequency, expected co-occurrences, ll, mi, t.
"""

from __future__ import annotations

import argparse
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.collocations import (
    COLLOCATE_HEADER,
    COLLOCATION_FIELDS,
    MEASURES,
    CollocationCounter,
    collocate_tsv,
    collocates,
    count_from_store,
)
from sacorpus.corpus.command import UsageError
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.storage.base import ArticleStore


class Collocations(CorpusCommand):
    fields = COLLOCATION_FIELDS

    counter: CollocationCounter
    shown = 0

    def syntax(self) -> str:
        return "WORD [--window 5] [--measure ll|mi|t] [--min-count 3] [--top N] [--case-sensitive] [filters]"

    def short_desc(self) -> str:
        return "Collocates of a word (log-likelihood, MI, t-score) from the stored tokens"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--window", type=int, default=5, metavar="N", help="words either side of the node"
        )
        parser.add_argument("--measure", choices=MEASURES, default="ll", help="rank by this measure")
        parser.add_argument("--min-count", type=int, default=3, metavar="K", help="co-occurring K+ times")
        parser.add_argument("--top", type=int, default=50, metavar="N", help="show N collocates (0: all)")
        parser.add_argument("--case-sensitive", action="store_true", help="do not fold case")

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1 or not args[0].strip() or len(args[0].split()) != 1:
            raise UsageError("give one node WORD (a single token)")
        if opts.window < 1:
            raise UsageError("--window must be at least 1", print_help=False)

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.counter = CollocationCounter(
            node=args[0].strip(), window=opts.window, lower=not opts.case_sensitive
        )

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        count_from_store(
            self.counter,
            store.word_counts(flt.store_filter()),
            lambda tokens: self.records(store, flt, opts, counts, tokens=tokens),
        )
        rows = collocates(
            self.counter, measure=opts.measure, min_count=max(1, opts.min_count), top=opts.top or None
        )
        print(COLLOCATE_HEADER)
        for rank, row in enumerate(rows, start=1):
            print(collocate_tsv(rank, row))
        self.shown = len(rows)

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        counter = self.counter
        print(
            f"node {counter.node!r}: {counter.node_freq} occurrences, span {counter.span_size} words, "
            f"corpus {counter.n} words; {self.shown} collocates by {opts.measure}",
            file=sys.stderr,
        )
