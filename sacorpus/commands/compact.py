"""``scrapy compact [--batch N] [--no-vacuum]``: rewrite a store in the compact layout, in place.

Why a command: stores written before the compact layout keep the decoded HTML and the tokens in
their larger form (and have no search index or kept word counts); they keep reading as they are, and
this rewrites every article in the current layout (zstd body, HTML as a delta of the body, packed
tokens), then builds the indexes. Resumable: an interrupted run continues after the last batch it
wrote. No field changes: each article reads back equal. On SQLite, VACUUM returns the freed pages to
the file system at the end.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.storage.base import StorageError


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[--batch N] [--no-vacuum] [--no-progress]"

    def short_desc(self) -> str:
        return "Rewrite the stored articles in the compact layout and build the search index and word counts"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--batch", type=int, default=None, metavar="N", help="articles per transaction")
        parser.add_argument("--no-vacuum", action="store_true", help="SQLite: do not VACUUM at the end")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from tqdm import tqdm

        from sacorpus.corpus.cli import open_corpus
        from sacorpus.storage.maintenance import compact

        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")
        assert self.settings is not None
        batch = opts.batch or int(self.settings.getint("SACORPUS_COMPACT_BATCH"))
        if batch < 1:
            raise UsageError("--batch must be at least 1", print_help=False)
        try:
            with open_corpus(self.settings) as store:
                total = store.count()
                with tqdm(
                    total=total, desc="compact", unit=" art", disable=opts.no_progress, file=sys.stderr
                ) as bar:
                    n = compact(store, batch_size=batch, progress=bar.update)
                if not opts.no_vacuum:
                    store.reclaim_space()
        except StorageError as exc:
            print(f"compact: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        print(
            f"compact: {n} articles rewritten in the compact layout; search index and word counts ready",
            file=sys.stderr,
        )
