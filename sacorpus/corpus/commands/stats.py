"""``scrapy stats [--by publication|language|month|dedup_label|page_type] [--plot FILE.png]``.

Articles, tokens and words per group (TSV on stdout) from the store's indexed group sums (no article
is read; the date filter at day precision is applied by the store), and optionally a PNG of articles per month per publication (matplotlib, Agg).
"""

from __future__ import annotations

import argparse
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.comments import COMMENTS, register_of
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.stats import GROUP_BY, GROUP_ROW, STATS_FIELDS, CorpusStats
from sacorpus.storage.base import ArticleStore


class Stats(CorpusCommand):
    fields = STATS_FIELDS

    stats: CorpusStats

    def syntax(self) -> str:
        return "[--by publication|language|month|dedup_label|page_type] [--plot FILE.png] [filters]"

    def short_desc(self) -> str:
        return "Articles, tokens and words per group; a PNG of articles per month per publication"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--by", choices=GROUP_BY, default="publication", help="group by this")
        parser.add_argument("--plot", metavar="FILE.png", help="write articles per month per publication")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.stats = CorpusStats(by=opts.by, unit=register_of(opts))

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        if register_of(opts) == COMMENTS:  # comments have no kept group sums: each is read
            for record in self.records(store, flt, opts, counts):
                self.stats.add(record)
        else:
            for *values, articles, tokens, words in store.group_counts(flt.store_filter()):
                self.stats.add_group(dict(zip(GROUP_ROW, values, strict=True)), articles, tokens, words)
        counts.scanned = counts.matched = self.stats.total.articles
        for line in self.stats.table():
            print(line)

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        stats = self.stats
        if stats.undated:
            print(
                f"{stats.undated} {stats.unit} have no published date (not in the monthly plot)",
                file=sys.stderr,
            )
        if opts.plot:
            from sacorpus.corpus.plot import plot_monthly

            try:
                path = plot_monthly(stats.monthly, opts.plot, title=f"Articles per month ({flt.describe()})")
            except (OSError, ValueError) as exc:
                self.fail(f"cannot write the plot {opts.plot}: {exc}")
                return
            print(f"plot written to {path}", file=sys.stderr)
