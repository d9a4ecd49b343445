"""``scrapy annotate [--force] [filters]``: give stored articles UPOS tags and lemmas (sacorpus.text.tagging).

Why a command: the annotate stage is off by default, so a corpus crawled without it (or tagged by an
older model) is tagged here from its stored tokens, with the same code the stage runs. Resumable:
an article whose ``pos_model`` names only the models shipped now is skipped, and each article is
written as soon as it is tagged, so an interrupted run picks up where it stopped. ``--force`` tags
everything again. Progress is shown; the end says how many were tagged, skipped and left untagged.
A record that cannot be tagged (a damaged stored record) gets one line on stderr, the others are
still tagged, and the command exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any, ClassVar

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter
from sacorpus.storage.base import ArticleStore
from sacorpus.text.tagging.annotate import READS, annotation_fields, current_model_names
from sacorpus.text.tagging.model import MODEL_LANGUAGES


class Command(CorpusCommand, ScrapyAdapter):
    fields = ("url", "pos_model", *READS)
    scan_what: ClassVar[str] = "articles read for tagging"

    def syntax(self) -> str:
        return "[--force] [filters]"

    def short_desc(self) -> str:
        return "Tag stored articles with parts of speech and lemmas (English, Afrikaans); resumable"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--force", action="store_true", help="tag again articles already tagged")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.outcome: Counter[str] = Counter()
        self.current = current_model_names(MODEL_LANGUAGES)
        self.models: dict[str, Any] = {}

    def up_to_date(self, record: dict[str, Any]) -> bool:
        used = record.get("pos_model")
        return used is not None and all(name in self.current for name in used.split(",") if name)

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        for record in self.records(store, flt, opts, counts):
            if not opts.force and self.up_to_date(record):
                self.outcome["already tagged"] += 1
                continue
            try:
                fields = annotation_fields(record, self.models)
            except Exception as exc:  # one bad record: one line, counted, the run goes on
                print(f"annotate: cannot tag {record['url']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                self.outcome["failed"] += 1
                continue
            store.update_fields(record["url"], fields)
            self.outcome["tagged" if fields["pos_model"] else "no model for its language"] += 1

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        shown = ", ".join(f"{what} {n}" for what, n in sorted(self.outcome.items()))
        print(f"annotate: {shown or 'nothing to do'}", file=sys.stderr)
        if self.outcome["failed"]:
            self.exitcode = 1
