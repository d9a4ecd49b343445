"""``scrapy wordlist [--top N] [--lower] [--min-count K] [-o FILE]``: a word frequency list.

Word tokens only (a letter or digit), as TSV: rank, word, count, frequency per million words. The
answer comes from the store's kept counts (per publication, month, language and duplicate label, kept
up to date by every write) when the filter is by whole months; a filter by day, or a store whose counts
are not built, counts the stored tokens instead. ``--rebuild-counts`` rebuilds the kept counts from
the tokens and ``--check`` compares them with a full recount (exit 1 when they differ).
"""

from __future__ import annotations

import argparse
import sys

from sacorpus.corpus.cli import CorpusCommand, ScanCounts, open_text_output
from sacorpus.corpus.comments import COMMENTS, register_of
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.wordlist import WORDLIST_FIELDS, WORDLIST_HEADER, WordCounter, wordlist_rows
from sacorpus.storage.base import ArticleStore


class Wordlist(CorpusCommand):
    fields = WORDLIST_FIELDS
    writes_output = True

    counter: WordCounter
    written = 0
    source = "stored tokens"

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
        parser.add_argument(
            "--rebuild-counts",
            action="store_true",
            help="rebuild the kept word counts from the stored tokens",
        )
        parser.add_argument(
            "--check", action="store_true", help="compare the kept word counts with a full recount"
        )
        parser.add_argument(
            "--recount", action="store_true", help="count the stored tokens, not the kept counts"
        )

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.counter = WordCounter(lower=opts.lower)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        if opts.rebuild_counts or opts.check:
            checked = self.maintain(store, opts)
            if opts.check:  # the scan line says how many articles the recount read
                counts.scanned = counts.matched = checked
                return
        # kept counts are the articles'; the readers' comments are counted from their own tokens
        kept = (
            None if opts.recount or register_of(opts) == COMMENTS else store.word_counts(flt.store_filter())
        )
        if kept is not None:
            self.counter = WordCounter.from_kept(kept, lower=opts.lower)
            counts.scanned = counts.matched = kept.articles
            self.source = "kept counts"
        else:
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

    def maintain(self, store: ArticleStore, opts: argparse.Namespace) -> int:
        """--rebuild-counts and --check, with a progress bar over the stored articles; the number of
        articles the check recounted."""
        from tqdm import tqdm

        from sacorpus.storage.maintenance import COUNTS, check_counts, rebuild_indexes

        read = 0

        def progress(n: int) -> None:
            nonlocal read
            read += n
            bar.update(n)

        with tqdm(
            total=store.count(), desc="counts", unit=" art", disable=opts.no_progress, file=sys.stderr
        ) as bar:
            if opts.rebuild_counts:
                n = rebuild_indexes(store, (COUNTS,), progress=bar.update)
                print(f"word counts rebuilt from {n} articles", file=sys.stderr)
                bar.reset()
            problems = check_counts(store, progress=progress) if opts.check else []
        for line in problems:
            print(f"wordlist: counts differ: {line}", file=sys.stderr)
        if problems:
            self.exitcode = 1
        elif opts.check:
            print("wordlist: the kept word counts equal a full recount", file=sys.stderr)
        return read

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        if opts.check:
            return
        counter = self.counter
        print(
            f"{counter.total_words} word tokens ({counter.total_tokens} tokens), "
            f"{len(counter.counts)} distinct words, {self.written} rows written (from the {self.source})",
            file=sys.stderr,
        )
