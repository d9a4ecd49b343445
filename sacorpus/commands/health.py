"""``scrapy health [--publication X] [--runs N] [--plot out.png]``: the crawl-health history.

Why a command: a corpus that grows unattended for years needs one place to see whether its crawls
still work (requests, responses, new articles, drops, problems, bot walls, silent feeds), with the
alarms the runs raised, without reading logs. It reads the health records the crawls write to the
store (SQLite, or MongoDB with MONGO_URI), chosen from the settings as every corpus command does.
"""

from __future__ import annotations

import argparse
import logging
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.corpus.cli import open_corpus
from sacorpus.health.table import format_table, judged
from sacorpus.storage.base import StorageError

logger = logging.getLogger(__name__)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[--publication SLUG] [--runs N] [--plot out.png]"

    def short_desc(self) -> str:
        return "Show the health of recent crawls (one line per run) and their alarms"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--publication", help="only this publication's runs")
        parser.add_argument("--runs", type=int, default=20, help="how many recent runs (default 20)")
        parser.add_argument("--plot", metavar="PNG", help="also draw new articles per run to this PNG file")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}", print_help=False)
        if opts.runs < 1:
            raise UsageError("--runs must be at least 1", print_help=False)
        assert self.settings is not None
        history = self.settings.getint("SACORPUS_HEALTH_HISTORY_RUNS")
        try:
            with open_corpus(self.settings) as store:
                records = store.run_records(opts.publication, opts.runs + history)
        except StorageError as exc:
            self.exitcode = 1
            print(f"health: {exc}")
            return
        if not records:
            print("no runs recorded" + (f" for {opts.publication}" if opts.publication else ""))
            return
        rows = judged(records, opts.runs, self.settings.getfloat("SACORPUS_HEALTH_SHORT_SHARE"), history)
        print(format_table(rows))
        if opts.plot:
            self._plot(rows, opts.plot)

    def _plot(self, rows: list[Any], path: str) -> None:
        from sacorpus.corpus.plot import plot_runs

        runs = [
            (str(r["publication"]), str(r["finished_at"]), int(r.get("articles_new") or 0), bool(found))
            for r, found in rows
        ]
        try:
            print(f"plot written to {plot_runs(runs, path)}")
        except OSError as exc:
            self.exitcode = 1
            print(f"health: cannot write the plot {path}: {exc}")
