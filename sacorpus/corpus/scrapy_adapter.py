"""Scrapy's face of a corpus command: ``class Command(Stats, ScrapyAdapter)`` in ``sacorpus/commands/``.

Why an adapter and not a copy: the command's one implementation (:mod:`sacorpus.corpus.commands`)
does not import Scrapy, so the ``sacorpus`` console script can run it without Scrapy's start-up; this
class gives it the ScrapyCommand interface (the global options, ``run``, Scrapy's UsageError) so
``scrapy stats`` finds and runs the same code.
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.corpus.command import Command
from sacorpus.corpus.command import UsageError as CommandUsageError


class ScrapyAdapter(ScrapyCommand):
    """Listed after the command class in the bases, so the command's syntax, descriptions and
    default settings win and this class's ``add_options``/``run`` call its hooks."""

    requires_project = True
    requires_crawler_process = False

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        assert isinstance(self, Command)
        self.add_command_line(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert isinstance(self, Command)
        try:
            self.execute(args, opts)
        except CommandUsageError as exc:
            raise UsageError(str(exc), print_help=exc.print_help) from exc
