"""``scrapy dedup [--rebuild]``: near-duplicate labels over an existing store.

Why a rebuild: after the method or its settings change (thresholds, boilerplate limit, weights),
or after importing articles crawled without the dedup stage, the index is cleared and every stored
article is labelled again in ``fetched_at`` order - the order ingest saw them - so the labels are the
ones ingest would have given. Without ``--rebuild`` the command prints the label counts.
"""

from __future__ import annotations

import argparse
import logging
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.storage.base import StorageError, store_from_settings
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_labels import label_counts
from sacorpus.text.dedup_rebuild import rebuild_index, rebuild_options, unfinished_rebuild

logger = logging.getLogger(__name__)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "INFO"}

    def syntax(self) -> str:
        return "[--rebuild] [--no-progress]"

    def short_desc(self) -> str:
        return "Show near-duplicate label counts, or rebuild the dedup index and re-label every article"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="clear the sentence-hash index and re-label all stored articles",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        assert self.settings is not None
        config = DedupConfig.from_settings(self.settings)
        try:
            store = store_from_settings(self.settings)
            with store:
                if opts.rebuild:
                    options = rebuild_options(self.settings)
                    counts = rebuild_index(store, config, progress=not opts.no_progress, **options)
                    print(f"re-labelled {sum(counts.values())} articles in {store!r}")
                else:
                    counts = label_counts(store)
                    print(f"{sum(counts.values())} articles in {store!r}")
                    started = unfinished_rebuild(store)
                    if started is not None:
                        print(
                            f"the index is incomplete: a rebuild started {started} did not finish "
                            "(the next crawl rebuilds it first, or run scrapy dedup --rebuild)"
                        )
        except StorageError as exc:
            self.exitcode = 1
            logger.error("dedup: %s", exc)
            return
        except KeyboardInterrupt:
            self.exitcode = 130
            if not opts.rebuild:
                logger.error("dedup: interrupted (Ctrl-C)")
                return
            logger.error(
                "dedup --rebuild interrupted: the labels written so far are kept and the index is "
                "incomplete; the next crawl rebuilds it first, or run scrapy dedup --rebuild again"
            )
            return
        for label, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {label:<10} {n}")
