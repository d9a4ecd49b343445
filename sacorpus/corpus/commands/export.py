"""``scrapy export -o FILE [--format F] [--fields ...] [--html] [--tag] [filters]``: write the corpus out.

Formats:
- ``jsonl``: one article a line, every Article field except the raw body (and the HTML unless --html).
- ``lines``: the seed corpus's format, one tab-separated line an article (sacorpus.corpus.seedlines).
- ``blocks``: the U/D/T/F/C/L/Q format with one field a line (sacorpus.corpus.lineformat).
- ``vrt``: vertical text for CWB / CQPweb / Sketch Engine (sacorpus.corpus.vrt).
- ``conllu``: CoNLL-U (sacorpus.corpus.conllu).
- ``parquet``: one row an article, in row groups (sacorpus.corpus.parquet); needs a file name.
``--comments``: the readers' comments instead (JSONL, every comment field unless --fields).
A FILE ending in .gz is gzip-compressed (text formats); ``-o -`` (the default) writes to stdout.
``--tag`` gives articles stored without tags the shipped models' tags (``scrapy annotate`` stores them).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from sacorpus.corpus.cli import CorpusCommand, ScanCounts, open_text_output
from sacorpus.corpus.command import UsageError
from sacorpus.corpus.comments import COMMENTS, comment_export_fields, register_of
from sacorpus.corpus.conllu import conllu_document
from sacorpus.corpus.exporting import FIXED_FIELDS, ExportFieldError, export_fields, jsonl_line
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.lineformat import format_record
from sacorpus.corpus.parquet import ParquetExport
from sacorpus.corpus.seedlines import seed_line
from sacorpus.corpus.vrt import vrt_text
from sacorpus.storage.base import ArticleStore

FORMATS = ("jsonl", "lines", "blocks", "vrt", "conllu", "parquet")
TAGGED = frozenset(("vrt", "conllu", "parquet"))


class Export(CorpusCommand):
    scan_what = "articles exported"
    option_errors = (ExportFieldError,)
    writes_output = True

    def syntax(self) -> str:
        return f"-o FILE [--format {'|'.join(FORMATS)}] [--fields F1,F2] [--html] [--tag] [filters]"

    def short_desc(self) -> str:
        return "Export stored articles: JSONL, the seed's line format, VRT, CoNLL-U, Parquet (.gz: gzip)"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("-o", "--output", metavar="FILE", default="-", help="output file (- for stdout)")
        parser.add_argument("--format", choices=FORMATS, default="jsonl", help="output format")
        parser.add_argument(
            "--fields", action="append", metavar="F1,F2", help="JSONL only: the fields to write (url always)"
        )
        parser.add_argument("--html", action="store_true", help="jsonl, blocks: also write the HTML")
        parser.add_argument(
            "--tag", action="store_true", help="vrt, conllu, parquet: tag articles stored without tags"
        )

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        super().check_args(args, opts)
        if register_of(opts) == COMMENTS and (opts.format != "jsonl" or opts.html):
            raise UsageError("--comments exports JSONL (comments have no page HTML or line format)")
        if opts.fields and opts.format in FIXED_FIELDS:
            raise UsageError(f"--fields applies to --format jsonl; {opts.format} has fixed fields")
        if opts.tag and opts.format not in TAGGED:
            raise UsageError(f"--tag applies to --format {', '.join(sorted(TAGGED))}")
        if opts.format == "parquet" and (opts.output in (None, "-") or opts.output.endswith(".gz")):
            raise UsageError("--format parquet needs -o FILE.parquet (it is compressed inside, not gzip)")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        if register_of(opts) == COMMENTS:
            self.fields = comment_export_fields(opts.fields)
            return
        self.fields = export_fields(opts.format, opts.fields, with_html=opts.html)

    def writer(self, opts: argparse.Namespace) -> Callable[[dict[str, Any]], str]:
        """The function that turns a record into the format's text."""
        models: dict[str, Any] = {}
        writers: dict[str, Callable[[dict[str, Any]], str]] = {
            "jsonl": lambda r: jsonl_line(r, self.fields or ()),
            "lines": seed_line,
            "blocks": lambda r: format_record(r, with_html=opts.html),
            "vrt": lambda r: vrt_text(r, tag=opts.tag, models=models),
            "conllu": lambda r: conllu_document(r, tag=opts.tag, models=models),
        }
        return writers[opts.format]

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        if opts.format == "parquet":
            models: dict[str, Any] = {}
            with ParquetExport(opts.output) as parquet:
                for record in self.records(store, flt, opts, counts):
                    parquet.write(record, tag=opts.tag, models=models)
            return
        write = self.writer(opts)
        with open_text_output(opts.output) as out:
            for record in self.records(store, flt, opts, counts):
                out.write(write(record))
