"""``scrapy export -o FILE [--format jsonl|lines] [--fields ...] [--html]``: write the corpus out.

JSONL: one article a line, every Article field except the raw body (and the HTML unless --html).
lines: the classic U/D/T/F/C/L/Q line format of news/blog corpora (see sacorpus.corpus.lineformat).
``--comments``: the readers' comments instead (JSONL, every comment field unless --fields).
A FILE ending in .gz is gzip-compressed; ``-o -`` (the default) writes to stdout.
"""

from __future__ import annotations

import argparse

from scrapy.exceptions import UsageError

from sacorpus.corpus.cli import CorpusCommand, ScanCounts, open_text_output
from sacorpus.corpus.comments import COMMENTS, comment_export_fields, register_of
from sacorpus.corpus.exporting import ExportFieldError, export_fields, jsonl_line
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.lineformat import format_record
from sacorpus.storage.base import ArticleStore


class Command(CorpusCommand):
    scan_what = "articles exported"
    option_errors = (ExportFieldError,)
    writes_output = True

    def syntax(self) -> str:
        return "-o FILE [--format jsonl|lines] [--fields F1,F2] [--html] [filters]"

    def short_desc(self) -> str:
        return "Export stored articles as JSONL or the U/D/T/F/C/L/Q line format (.gz: gzip)"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("-o", "--output", metavar="FILE", default="-", help="output file (- for stdout)")
        parser.add_argument("--format", choices=("jsonl", "lines"), default="jsonl", help="output format")
        parser.add_argument(
            "--fields", action="append", metavar="F1,F2", help="JSONL only: the fields to write (url always)"
        )
        parser.add_argument("--html", action="store_true", help="also write the HTML (H line / html field)")

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        super().check_args(args, opts)
        if register_of(opts) == COMMENTS and (opts.format != "jsonl" or opts.html):
            raise UsageError("--comments exports JSONL (comments have no page HTML or line format)")
        if opts.fields and opts.format == "lines":
            raise UsageError("--fields applies to --format jsonl; the line format has fixed fields")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        if register_of(opts) == COMMENTS:
            self.fields = comment_export_fields(opts.fields)
            return
        self.fields = export_fields(opts.format, opts.fields, with_html=opts.html)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        with open_text_output(opts.output) as out:
            for record in self.records(store, flt, opts, counts):
                if opts.format == "lines":
                    out.write(format_record(record, with_html=opts.html))
                else:
                    out.write(jsonl_line(record, self.fields or ()))
