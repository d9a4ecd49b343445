"""``scrapy reextract [--publication SLUG] [filters] [--no-dedup]``: re-run the page core over stored pages.

Why: rules improve (a fixed filter, a new dated rule set, a better title choice), and a corpus crawled
before must not keep yesterday's extraction. Every stored article matching the filters is passed again
through the same stages a crawl runs - the page core (decode, the publication's rules for the capture
date, pre-clean, extract, metadata), language identification and tokenization - from its stored raw
body (its stored HTML when no body was kept), and its record is updated in place; what was fetched
(URL, headers, fetch time, capture timestamp) is never changed. Then the near-duplicate labels are
rebuilt over the whole store, since changed texts change which articles match. Progress is shown.

The crawl drops lines a publication repeats across its pages and learns its title branding from the
same repetition (:class:`~sacorpus.text.boilerplate.LineHistory`), page by page in the order it fetched
them. Re-extraction keeps one history per publication too and reads the stored pages in the order they
were fetched (``fetched_at``, then URL), so a corpus re-extracted with unchanged rules equals what the
crawl stored, and with changed rules differs only by the change. A filter that leaves out some of a
publication's pages also leaves them out of its history (say ``--publication`` alone to re-learn all).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from typing import Any, ClassVar

from sacorpus.corpus.cli import CorpusCommand, ScanCounts
from sacorpus.corpus.filters import ArticleFilter
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter
from sacorpus.items import Article
from sacorpus.publications import PublicationRegistry
from sacorpus.sources.wayback import wayback_date
from sacorpus.storage.base import ArticleStore
from sacorpus.text.analysis import language_fields, token_fields
from sacorpus.text.boilerplate import LineHistory, PublicationHistories
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_rebuild import rebuild_index, rebuild_options
from sacorpus.text.page import process_page

#: rebuilt afterwards over the whole store
DEDUP = frozenset(("text_hash", "dedup_label", "dedup_evidence"))
ARTICLE_FIELDS = frozenset(f.name for f in dataclasses.fields(Article))


def reextracted_fields(
    record: dict[str, Any], publications: PublicationRegistry, history: LineHistory | None = None
) -> dict[str, Any]:
    """The derived fields of one stored record, computed again as a crawl would (fetch facts untouched);
    ``history`` is its publication's, learnt from the pages re-extracted before it."""
    body = record.get("body")
    url = record["url"]
    page = process_page(
        body,
        record.get("headers") or {},
        url,
        publications.get(record.get("publication")),
        wayback_date(record.get("wayback_timestamp")),
        html=None if body else record.get("html"),  # a record stored without its raw body: its HTML
        fallback={k: v for k, v in (record.get("fallback") or {}).items() if k != "anchors"},
        history=history,
    )
    fields = page.article_fields(record.get("final_url") or url)
    anchors = fields.pop("anchors", None)
    fields.pop("body", None)
    if record.get("canonical_url"):
        fields.pop("canonical_url", None)  # a mirror's target named by the spider stays
    fields["problems"] = list(page.problems)
    fields.update(language_fields(fields.get("text") or ""))
    tokens, problems = token_fields(
        fields.get("text") or "",
        fields["language"],
        fields.get("title_clean") or fields.get("title"),
        anchors,
        fields.get("html"),
        record.get("final_url") or url,
    )
    fields.update(tokens)
    fields["problems"] += problems
    if anchors is not None:
        fields["fallback"] = {**(record.get("fallback") or {}), "anchors": anchors}
    return fields


class Command(CorpusCommand, ScrapyAdapter):
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
        self.publications = PublicationRegistry.from_settings(self.settings)
        self.histories = PublicationHistories()

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        for record in self.records(store, flt, opts, counts):
            fresh = reextracted_fields(
                record, self.publications, self.histories.of(record.get("publication"))
            )
            for name, value in fresh.items():
                if record.get(name) != value:
                    self.changed[name] += 1
            store.update_fields(record["url"], fresh)
        if counts.matched and not opts.no_dedup:
            assert self.settings is not None
            labels = rebuild_index(
                store,
                DedupConfig.from_settings(self.settings),
                progress=not opts.no_progress,
                **rebuild_options(self.settings),
            )
            self.labels = labels

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        shown = ", ".join(f"{name} {n}" for name, n in self.changed.most_common() if name in ARTICLE_FIELDS)
        print(f"changed fields: {shown or 'none'}", file=sys.stderr)
        labels = getattr(self, "labels", None)
        if labels:
            print("dedup labels: " + ", ".join(f"{k} {v}" for k, v in labels.most_common()), file=sys.stderr)
