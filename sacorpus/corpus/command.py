"""The base of the corpus commands, free of Scrapy: one implementation run by two command lines.

Why not a ScrapyCommand: importing anything from Scrapy starts Twisted, the HTTP stack and OpenSSL
(about 0.7 s on an idle machine), which a command answering from an index in 0.1 s does not need.
So each corpus command (stats, search, kwic, wordlist, collocations, export, serve) is a class of
:mod:`sacorpus.corpus.commands` built on :class:`Command` here; ``scrapy <command>`` reaches it
through the thin adapters in ``sacorpus/commands/`` (:mod:`sacorpus.corpus.scrapy_adapter`), and the
``sacorpus`` console script runs it directly (:mod:`sacorpus.console`) with the same settings,
options, output and exit codes.

The hooks keep names Scrapy's command class does not use (``add_command_line``, ``execute``), so
the adapter's ``add_options``/``run`` and these never shadow one another in a class built on both.
"""

from __future__ import annotations

import argparse
from typing import Any, ClassVar


class UsageError(Exception):
    """Bad arguments: the command line prints the message (and the help when asked) and exits 2.

    Scrapy's own UsageError is not used because importing it imports Scrapy; the Scrapy adapter
    turns this one into Scrapy's.
    """

    def __init__(self, *args: object, print_help: bool = True) -> None:
        self.print_help = print_help
        super().__init__(*args)


class Command:
    """A corpus command: options, a body, an exit code; ``settings`` is set before it runs."""

    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}
    exitcode: int = 0
    settings: Any = None

    def syntax(self) -> str:
        return ""

    def short_desc(self) -> str:
        return ""

    def long_desc(self) -> str:
        return self.short_desc()

    def add_command_line(self, parser: argparse.ArgumentParser) -> None:
        """The command's options (the global ones, ``-s`` and the log options, are added by the
        command line that runs it)."""

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        """Run the command; raise :class:`UsageError` for bad arguments, set ``exitcode`` on failure."""
        raise NotImplementedError
