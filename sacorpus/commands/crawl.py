"""``scrapy crawl``, with an exit status cron, systemd and scrapyd can read.

Scrapy's own command exits 0 whenever the crawl started. This one also exits 1 when the run could not do
its job (see :func:`sacorpus.verdict.run_failures`: articles spilled or lost, the store unreachable or
misconfigured, every source failed) or was stopped by force before it finished, after printing one line
per reason.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError

from sacorpus.settings_check import setting_problems
from sacorpus.verdict import run_failures, stopped_unfinished


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give exactly one spider (publication) name")
        assert self.crawler_process
        assert self.settings is not None
        problems = setting_problems(self.settings)
        if problems:  # one line and exit 2, before anything starts
            raise UsageError("; ".join(problems), print_help=False)
        spidercls = self.crawler_process.spider_loader.load(args[0])
        check = getattr(spidercls, "parse_arguments", None)
        if check is not None:
            try:
                check(dict(opts.spargs))
            except ValueError as exc:  # one line and exit 2, before anything starts
                raise UsageError(f"{args[0]}: {exc}", print_help=False) from None
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        try:
            stats = crawler.stats.get_stats()
        except RuntimeError:  # the crawl never started (a bad argument was reported already)
            stats = {}
        unfinished = None if self.crawler_process.bootstrap_failed else stopped_unfinished(stats)
        for line in [*([unfinished] if unfinished else []), *run_failures(stats)]:
            print(f"sacorpus: {args[0]}: {line}", file=sys.stderr)
            self.exitcode = 1
