"""``scrapy search PATTERN [--regex] [--limit N]``: articles whose title or text match.

Output, tab-separated: url, published date, title, number of matches, a snippet with the first match
in [brackets]. The store's search index narrows the read to the articles that can match; every hit is
verified on the text.
"""

from __future__ import annotations

import argparse
import re
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.command import UsageError
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.search import (
    SEARCH_FIELDS,
    PatternError,
    compile_pattern,
    index_substrings,
    search_record,
)
from sacorpus.storage.base import ArticleStore


class Search(CorpusCommand):
    fields = SEARCH_FIELDS
    scan_what = "articles passed the filter"
    option_errors = (PatternError,)

    pattern: re.Pattern[str]
    substrings: list[str]
    found = 0

    def syntax(self) -> str:
        return "PATTERN [--regex] [--case-sensitive] [--limit N] [--width N] [filters]"

    def short_desc(self) -> str:
        return "Find stored articles whose title or text match a string or regex"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--regex", action="store_true", help="PATTERN is a Python regular expression")
        parser.add_argument("--case-sensitive", action="store_true", help="match case exactly")
        parser.add_argument(
            "--limit", type=int, default=0, metavar="N", help="stop after N articles (0: all)"
        )
        parser.add_argument(
            "--width", type=int, default=60, metavar="N", help="snippet context chars each side"
        )

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one PATTERN (quote it if it has spaces)")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.pattern = compile_pattern(args[0], regex=opts.regex, case_sensitive=opts.case_sensitive)
        self.substrings = index_substrings(args[0], regex=opts.regex)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        print("url\tpublished_at\ttitle\tmatches\tsnippet")
        self.found = 0
        records = self.records(store, flt, opts, counts, self.substrings)
        for record in records:
            hit = search_record(record, self.pattern, width=max(10, opts.width))
            if hit is None:
                continue
            print(hit.tsv())
            self.found += 1
            if opts.limit and self.found >= opts.limit:
                break
        records.close()

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        print(f"{self.found} matching articles", file=sys.stderr)
