"""``scrapy wordlist [--top N] [--lower] [--min-count K] [-o FILE]``: a word frequency list.

Counts the stored tokens (no re-tokenization), word tokens only (a letter or digit), and writes TSV:
rank, word, count, frequency per million words. Memory grows with the vocabulary, not the corpus.
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
    open_text_output,
    quiet_broken_pipe,
    report_scan,
)
from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.corpus.wordlist import WORDLIST_FIELDS, WORDLIST_HEADER, WordCounter, wordlist_rows
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[--top N] [--lower] [--min-count K] [-o FILE] [filters]"

    def short_desc(self) -> str:
        return "Word frequency list (TSV, with frequency per million) from the stored tokens"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--top", type=int, default=0, metavar="N", help="only the N most frequent (0: all)"
        )
        parser.add_argument("--lower", action="store_true", help="fold case before counting")
        parser.add_argument("--min-count", type=int, default=1, metavar="K", help="only words seen K+ times")
        parser.add_argument("-o", "--output", metavar="FILE", default="-", help="TSV file (.gz ok; - stdout)")
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        try:
            flt = ArticleFilter.from_options(opts)
        except FilterError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        counter = WordCounter(lower=opts.lower)
        counts = ScanCounts()
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                for record in iter_store(
                    store, flt, WORDLIST_FIELDS, progress=not opts.no_progress, desc="wordlist", counts=counts
                ):
                    counter.add(record.get("tokens") or [])
                rows = wordlist_rows(
                    counter.counts,
                    counter.total_words,
                    top=opts.top or None,
                    min_count=max(1, opts.min_count),
                )
                with open_text_output(opts.output) as out:
                    out.write(WORDLIST_HEADER + "\n")
                    for row in rows:
                        out.write(row.tsv() + "\n")
        except StorageError as exc:
            print(f"wordlist: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        except OSError as exc:
            print(f"wordlist: cannot write {opts.output}: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles counted")
        print(
            f"{counter.total_words} word tokens ({counter.total_tokens} tokens), "
            f"{len(counter.counts)} distinct words, {len(rows)} rows written",
            file=sys.stderr,
        )
