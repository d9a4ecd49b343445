"""``scrapy kwic WORD_OR_PHRASE [--width 40] [--limit N] [--case-sensitive] [--sort left|right|none]``.

A keyword-in-context concordance over the stored tokens: one line per occurrence, the keyword in
``[ ]`` in a fixed column, the article URL at the end. ``*`` in the phrase matches any one token.

Without --sort the lines stream as they are found. Sorting needs the lines in memory, so it sorts the
first --limit lines (at most --max-sort, default 100000) and says so when that cap cut the list.
"""

from __future__ import annotations

import argparse
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.command import UsageError
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.kwic import (
    KWIC_FIELDS,
    SORT_KEYS,
    KwicHit,
    format_hit,
    index_substrings,
    kwic_hits,
    query_tokens,
    sort_hits,
)
from sacorpus.storage.base import ArticleStore


class Kwic(CorpusCommand):
    fields = KWIC_FIELDS
    scan_what = "articles passed the filter"

    query: list[str]
    cap: int | None = None
    lines = 0

    def syntax(self) -> str:
        return "WORD_OR_PHRASE [--width 40] [--limit N] [--case-sensitive] [--sort left|right|none] [filters]"

    def short_desc(self) -> str:
        return "Keyword-in-context concordance of a word or phrase over the stored tokens"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--width", type=int, default=40, metavar="N", help="context characters each side")
        parser.add_argument("--limit", type=int, default=0, metavar="N", help="at most N lines (0: all)")
        parser.add_argument("--case-sensitive", action="store_true", help="match case exactly")
        parser.add_argument(
            "--sort", choices=SORT_KEYS, default="none", help="order by left or right context"
        )
        parser.add_argument(
            "--max-sort", type=int, default=100_000, metavar="N", help="lines kept in memory for --sort"
        )

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give a WORD or PHRASE")
        if opts.width < 1:
            raise UsageError("--width must be at least 1", print_help=False)

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        # split the query with the tokenizer rules of the one language asked for (else English)
        self.query = query_tokens(" ".join(args), lang=flt.languages[0] if len(flt.languages) == 1 else "en")
        if not self.query or all(q == "*" for q in self.query):
            raise UsageError("the phrase needs at least one word that is not *", print_help=False)
        self.cap = opts.limit if opts.limit > 0 else None
        if opts.sort != "none":
            self.cap = min(self.cap, opts.max_sort) if self.cap else max(1, opts.max_sort)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        cap = self.cap
        kept: list[KwicHit] = []
        self.lines = 0
        records = self.records(store, flt, opts, counts, tokens=index_substrings(self.query))
        for record in records:
            for hit in kwic_hits(record, self.query, width=opts.width, case_sensitive=opts.case_sensitive):
                self.lines += 1
                if opts.sort == "none":
                    print(format_hit(hit, opts.width))
                else:
                    kept.append(hit)
                if cap and self.lines >= cap:
                    break
            if cap and self.lines >= cap:
                break
        records.close()
        for hit in sort_hits(kept, opts.sort):
            print(format_hit(hit, opts.width))

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        note = ""
        if opts.sort != "none" and not opts.limit and self.lines >= opts.max_sort:
            note = f" (stopped at --max-sort {opts.max_sort}; sorted those)"
        print(f"{self.lines} concordance lines for {' '.join(self.query)!r}{note}", file=sys.stderr)
