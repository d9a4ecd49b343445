"""``scrapy reextract [--publication SLUG] [filters] [--no-dedup]``: re-run the page core over stored pages.

Why: rules improve (a fixed filter, a new dated rule set, a better title choice), and a corpus crawled
before must not keep yesterday's extraction. Every stored article matching the filters is passed again
through the same stages a crawl runs - the page core (decode, the publication's rules for the capture
date, pre-clean, extract, metadata), language identification and tokenization - from its stored raw
body (its stored HTML when no body was kept), and its record is updated in place; what was fetched
(URL, headers, fetch time, capture timestamp) is never changed. Then the near-duplicate labels are
rebuilt over the whole store, since changed texts change which articles match. Progress is shown.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from typing import Any, ClassVar

from sacorpus.commands.dedup import rebuild_index
from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.items import Article
from sacorpus.pipelines.language import LanguagePipeline
from sacorpus.pipelines.page import PagePipeline
from sacorpus.pipelines.tokenize import TokenizePipeline
from sacorpus.storage.base import ArticleStore
from sacorpus.text.dedup import DedupConfig

#: what was fetched: kept as stored
FETCHED = frozenset(
    (
        "url",
        "publication",
        "source",
        "source_url",
        "final_url",
        "wayback_timestamp",
        "fetched_at",
        "status",
        "headers",
        "body",
    )
)
#: rebuilt afterwards over the whole store
DEDUP = frozenset(("text_hash", "dedup_label", "dedup_evidence"))
ARTICLE_FIELDS = frozenset(f.name for f in dataclasses.fields(Article))


def article_from_record(record: dict[str, Any]) -> Article:
    """A stored record as an item ready for the page stage (derived fields cleared, fetch kept)."""
    item = Article(url=record["url"], publication=record.get("publication") or "")
    for name in FETCHED & record.keys():
        setattr(item, name, record[name])
    item.fallback = {k: v for k, v in (record.get("fallback") or {}).items() if k != "anchors"}
    item.canonical_url = None
    if not item.body:
        item.html = record.get("html")  # a record stored without its raw body: its decoded HTML
    return item


class Command(CorpusCommand):
    fields = None  # every field, the raw body included
    scan_what: ClassVar[str] = "articles re-extracted"

    def syntax(self) -> str:
        return "[--publication SLUG] [filters] [--no-dedup]"

    def short_desc(self) -> str:
        return "Re-run cleaning, extraction, language and tokens over stored pages (after a rule change)"

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--no-dedup", action="store_true", help="do not rebuild the near-duplicate labels"
        )

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        self.changed: Counter[str] = Counter()
        self.stages = (PagePipeline(), LanguagePipeline(), TokenizePipeline())

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        for record in self.records(store, flt, opts, counts):
            item = article_from_record(record)
            for stage in self.stages:
                item = stage.process_item(item)
            fresh = {k: v for k, v in dataclasses.asdict(item).items() if k not in FETCHED | DEDUP}
            for name, value in fresh.items():
                if record.get(name) != value:
                    self.changed[name] += 1
            store.update_fields(item.url, fresh)
        if counts.matched and not opts.no_dedup:
            assert self.settings is not None
            labels = rebuild_index(
                store, DedupConfig.from_settings(self.settings), progress=not opts.no_progress
            )
            self.labels = labels

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        shown = ", ".join(f"{name} {n}" for name, n in self.changed.most_common() if name in ARTICLE_FIELDS)
        print(f"changed fields: {shown or 'none'}", file=sys.stderr)
        labels = getattr(self, "labels", None)
        if labels:
            print("dedup labels: " + ", ".join(f"{k} {v}" for k, v in labels.most_common()), file=sys.stderr)
