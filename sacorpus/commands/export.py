"""``scrapy export -o FILE [--format jsonl|lines] [--fields ...] [--html]``: write the corpus out.

JSONL: one article a line, every Article field except the raw body (and the HTML unless --html).
lines: the classic U/D/T/F/C/L/Q line format of news/blog corpora (see sacorpus.corpus.lineformat).
A FILE ending in .gz is gzip-compressed; ``-o -`` (the default) writes to stdout.
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
from sacorpus.corpus.exporting import ExportFieldError, export_fields, jsonl_line
from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.corpus.lineformat import format_record
from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "-o FILE [--format jsonl|lines] [--fields F1,F2] [--html] [filters]"

    def short_desc(self) -> str:
        return "Export stored articles as JSONL or the U/D/T/F/C/L/Q line format (.gz: gzip)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="FILE", default="-", help="output file (- for stdout)")
        parser.add_argument("--format", choices=("jsonl", "lines"), default="jsonl", help="output format")
        parser.add_argument(
            "--fields", action="append", metavar="F1,F2", help="JSONL only: the fields to write (url always)"
        )
        parser.add_argument("--html", action="store_true", help="also write the HTML (H line / html field)")
        add_filter_options(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        if opts.fields and opts.format == "lines":
            raise UsageError("--fields applies to --format jsonl; the line format has fixed fields")
        try:
            flt = ArticleFilter.from_options(opts)
            fields = export_fields(opts.format, opts.fields, with_html=opts.html)
        except (FilterError, ExportFieldError) as exc:
            raise UsageError(str(exc), print_help=False) from exc
        counts = ScanCounts()
        try:
            with (
                quiet_broken_pipe(),
                open_corpus(self.settings) as store,
                open_text_output(opts.output) as out,
            ):
                records = iter_store(
                    store, flt, fields, progress=not opts.no_progress, desc="export", counts=counts
                )
                for record in records:
                    if opts.format == "lines":
                        out.write(format_record(record, with_html=opts.html))
                    else:
                        out.write(jsonl_line(record, fields))
        except StorageError as exc:
            print(f"export: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        except OSError as exc:
            print(f"export: cannot write {opts.output}: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        report_scan(flt, counts, "articles exported")
