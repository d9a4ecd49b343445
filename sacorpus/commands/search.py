"""``scrapy search PATTERN [--regex] [--limit N]``: articles whose title or text match.

Output, tab-separated: url, published date, title, number of matches, a snippet with the first match
in [brackets]. A scan over the filtered stream (no text index exists on either backend).
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
from sacorpus.corpus.search import SEARCH_FIELDS, PatternError, compile_pattern, search_record
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "PATTERN [--regex] [--case-sensitive] [--limit N] [--width N] [filters]"

    def short_desc(self) -> str:
        return "Find stored articles whose title or text match a string or regex"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--regex", action="store_true", help="PATTERN is a Python regular expression")
        parser.add_argument("--case-sensitive", action="store_true", help="match case exactly")
        parser.add_argument(
            "--limit", type=int, default=0, metavar="N", help="stop after N articles (0: all)"
        )
        parser.add_argument(
            "--width", type=int, default=60, metavar="N", help="snippet context chars each side"
        )
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one PATTERN (quote it if it has spaces)")
        try:
            flt = ArticleFilter.from_options(opts)
            pattern = compile_pattern(args[0], regex=opts.regex, case_sensitive=opts.case_sensitive)
        except (FilterError, PatternError) as exc:
            raise UsageError(str(exc), print_help=False) from exc
        counts = ScanCounts()
        found = 0
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                print("url\tpublished_at\ttitle\tmatches\tsnippet")
                records = iter_store(
                    store, flt, SEARCH_FIELDS, progress=not opts.no_progress, desc="search", counts=counts
                )
                for record in records:
                    hit = search_record(record, pattern, width=max(10, opts.width))
                    if hit is None:
                        continue
                    print(hit.tsv())
                    found += 1
                    if opts.limit and found >= opts.limit:
                        break
                records.close()
        except StorageError as exc:
            print(f"search: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles passed the filter")
        print(f"{found} matching articles", file=sys.stderr)
