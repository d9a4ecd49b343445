"""``scrapy wordlist [--top N] [--lower] [--min-count K] [-o FILE]``: a word frequency list.

Counts the stored tokens (no re-tokenization), word tokens only (a letter or digit), and writes TSV:
rank, word, count, frequency per million words. Memory grows with the vocabulary, not the corpus.
"""

from __future__ import annotations

import argparse
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts, open_text_output
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.wordlist import WORDLIST_FIELDS, WORDLIST_HEADER, WordCounter, wordlist_rows
from sacorpus.storage.base import ArticleStore


class Command(CorpusCommand):
    fields = WORDLIST_FIELDS
    writes_output = True

    counter: WordCounter
    written = 0

    def syntax(self) -> str:
        return "[--top N] [--lower] [--min-count K] [-o FILE] [filters]"

    def short_desc(self) -> str:
        return "Word frequency list (TSV, with frequency per million) from the stored tokens"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--top", type=int, default=0, metavar="N", help="only the N most frequent (0: all)"
        )
        parser.add_argument("--lower", action="store_true", help="fold case before counting")
        parser.add_argument("--min-count", type=int, default=1, metavar="K", help="only words seen K+ times")
        parser.add_argument("-o", "--output", metavar="FILE", default="-", help="TSV file (.gz ok; - stdout)")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.counter = WordCounter(lower=opts.lower)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        for record in self.records(store, flt, opts, counts):
            self.counter.add(record.get("tokens") or [])
        rows = wordlist_rows(
            self.counter.counts,
            self.counter.total_words,
            top=opts.top or None,
            min_count=max(1, opts.min_count),
        )
        with open_text_output(opts.output) as out:
            out.write(WORDLIST_HEADER + "\n")
            for row in rows:
                out.write(row.tsv() + "\n")
        self.written = len(rows)

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        counter = self.counter
        print(
            f"{counter.total_words} word tokens ({counter.total_tokens} tokens), "
            f"{len(counter.counts)} distinct words, {self.written} rows written",
            file=sys.stderr,
        )
