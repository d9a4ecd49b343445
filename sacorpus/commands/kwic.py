"""``scrapy kwic WORD_OR_PHRASE [--width 40] [--limit N] [--case-sensitive] [--sort left|right|none]``.

A keyword-in-context concordance over the stored tokens: one line per occurrence, the keyword in
``[ ]`` in a fixed column, the article URL at the end. ``*`` in the phrase matches any one token.

Without --sort the lines stream as they are found. Sorting needs the lines in memory, so it sorts the
first --limit lines (at most --max-sort, default 100000) and says so when that cap cut the list.
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
from sacorpus.corpus.kwic import (
    KWIC_FIELDS,
    SORT_KEYS,
    KwicHit,
    format_hit,
    kwic_hits,
    query_tokens,
    sort_hits,
)
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "WORD_OR_PHRASE [--width 40] [--limit N] [--case-sensitive] [--sort left|right|none] [filters]"

    def short_desc(self) -> str:
        return "Keyword-in-context concordance of a word or phrase over the stored tokens"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--width", type=int, default=40, metavar="N", help="context characters each side")
        parser.add_argument("--limit", type=int, default=0, metavar="N", help="at most N lines (0: all)")
        parser.add_argument("--case-sensitive", action="store_true", help="match case exactly")
        parser.add_argument(
            "--sort", choices=SORT_KEYS, default="none", help="order by left or right context"
        )
        parser.add_argument(
            "--max-sort", type=int, default=100_000, metavar="N", help="lines kept in memory for --sort"
        )
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give a WORD or PHRASE")
        if opts.width < 1:
            raise UsageError("--width must be at least 1", print_help=False)
        try:
            flt = ArticleFilter.from_options(opts)
        except FilterError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        # split the query with the tokenizer rules of the one language asked for (else English)
        query = query_tokens(" ".join(args), lang=flt.languages[0] if len(flt.languages) == 1 else "en")
        if not query or all(q == "*" for q in query):
            raise UsageError("the phrase needs at least one word that is not *", print_help=False)
        cap = opts.limit if opts.limit > 0 else None
        if opts.sort != "none":
            cap = min(cap, opts.max_sort) if cap else max(1, opts.max_sort)
        counts = ScanCounts()
        kept: list[KwicHit] = []
        lines = 0
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                records = iter_store(
                    store, flt, KWIC_FIELDS, progress=not opts.no_progress, desc="kwic", counts=counts
                )
                for record in records:
                    for hit in kwic_hits(record, query, width=opts.width, case_sensitive=opts.case_sensitive):
                        lines += 1
                        if opts.sort == "none":
                            print(format_hit(hit, opts.width))
                        else:
                            kept.append(hit)
                        if cap and lines >= cap:
                            break
                    if cap and lines >= cap:
                        break
                records.close()
                for hit in sort_hits(kept, opts.sort):
                    print(format_hit(hit, opts.width))
        except StorageError as exc:
            print(f"kwic: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles passed the filter")
        note = ""
        if opts.sort != "none" and not opts.limit and lines >= opts.max_sort:
            note = f" (stopped at --max-sort {opts.max_sort}; sorted those)"
        print(f"{lines} concordance lines for {' '.join(query)!r}{note}", file=sys.stderr)
