"""``scrapy stats [--by publication|language|month|dedup_label|page_type] [--plot FILE.png]``.

Articles, tokens and words per group (TSV on stdout) from the stored ``token_count``/``word_count``,
and optionally a PNG of articles per month per publication (matplotlib, Agg).
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
from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.corpus.stats import GROUP_BY, STATS_FIELDS, CorpusStats
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[--by publication|language|month|dedup_label|page_type] [--plot FILE.png] [filters]"

    def short_desc(self) -> str:
        return "Articles, tokens and words per group; a PNG of articles per month per publication"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--by", choices=GROUP_BY, default="publication", help="group by this")
        parser.add_argument("--plot", metavar="FILE.png", help="write articles per month per publication")
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        try:
            flt = ArticleFilter.from_options(opts)
        except FilterError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        stats = CorpusStats(by=opts.by)
        counts = ScanCounts()
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                for record in iter_store(
                    store, flt, STATS_FIELDS, progress=not opts.no_progress, desc="stats", counts=counts
                ):
                    stats.add(record)
                for line in stats.table():
                    print(line)
        except StorageError as exc:
            print(f"stats: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles counted")
        if stats.undated:
            print(
                f"{stats.undated} articles have no published date (not in the monthly plot)", file=sys.stderr
            )
        if opts.plot:
            from sacorpus.corpus.plot import plot_monthly

            try:
                path = plot_monthly(stats.monthly, opts.plot, title=f"Articles per month ({flt.describe()})")
            except (OSError, ValueError) as exc:
                print(f"stats: cannot write the plot {opts.plot}: {exc}", file=sys.stderr)
                self.exitcode = 1
                return
            print(f"plot written to {path}", file=sys.stderr)
