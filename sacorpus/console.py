"""The ``sacorpus`` console script: every scrapy command of the project, from any directory.

Why: ``scrapy stats`` only finds the project's commands and settings inside the project directory
(next to scrapy.cfg); elsewhere it answers "Unknown command". The installed ``sacorpus`` command
points Scrapy at the project's settings when no scrapy.cfg is found, then runs Scrapy's own command
line, so ``sacorpus crawl iol``, ``sacorpus kwic word`` or ``sacorpus serve`` work anywhere. Relative
paths (the SQLite file ``data/corpus.sqlite``, ``jobs/``) are relative to the current directory, as
with scrapy; set SACORPUS_SQLITE_PATH or MONGO_URI to use one corpus from everywhere.

Why a lean path: Scrapy's command line imports Twisted, the HTTP stack and every command module
before it runs one (about 0.7 s idle), more than an indexed corpus query takes. The corpus commands
(:data:`sacorpus.corpus.commands.COMMANDS`) are therefore run here without importing Scrapy, with the
same settings module, ``-s`` overrides, global options, output and exit codes; every other command
(crawl, dedup, ...) and ``--pdb`` go to Scrapy's command line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

SETTINGS_MODULE = "sacorpus.settings"


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    from sacorpus.corpus.commands import COMMANDS

    if args and args[0] in COMMANDS and "--pdb" not in args:
        sys.exit(run_corpus_command(args[0], args[1:]))
    from sacorpus.corpus.project_settings import closest_config

    if not os.environ.get("SCRAPY_SETTINGS_MODULE") and closest_config() is None:
        os.environ["SCRAPY_SETTINGS_MODULE"] = SETTINGS_MODULE
    from scrapy.cmdline import execute

    execute(["sacorpus", *args])


def global_options(parser: argparse.ArgumentParser, log_level: Any) -> None:
    """The options Scrapy gives every command (``ScrapyCommand.add_options``), same names and meaning."""
    group = parser.add_argument_group(title="Global Options")
    group.add_argument("--logfile", metavar="FILE", help="log file. if omitted stderr will be used")
    group.add_argument("-L", "--loglevel", metavar="LEVEL", help=f"log level (default: {log_level})")
    group.add_argument("--nolog", action="store_true", help="disable logging completely")
    group.add_argument("--profile", metavar="FILE", help="write python cProfile stats to FILE")
    group.add_argument("--pidfile", metavar="FILE", help="write process ID to FILE")
    group.add_argument(
        "-s",
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set/override setting (may be repeated)",
    )
    group.add_argument("--pdb", action="store_true", help="enable pdb on failure (uses ipdb if installed)")


def _log_settings(opts: argparse.Namespace) -> dict[str, Any]:
    """What the log options set, as Scrapy's ``process_options`` does."""
    found: dict[str, Any] = {}
    if opts.logfile:
        found.update(LOG_ENABLED=True, LOG_FILE=opts.logfile)
    if opts.loglevel:
        found.update(LOG_ENABLED=True, LOG_LEVEL=opts.loglevel)
    if opts.nolog:
        found["LOG_ENABLED"] = False
    return found


def run_corpus_command(name: str, argv: list[str]) -> int:
    """Run one corpus command as ``scrapy <name> <argv>`` would; returns the exit code."""
    from sacorpus.corpus.command import Command, UsageError
    from sacorpus.corpus.commands import COMMANDS
    from sacorpus.corpus.project_settings import parse_overrides, project_settings

    module, _, attr = COMMANDS[name].partition(":")
    cmd: Command = getattr(importlib.import_module(module), attr)()
    parser = argparse.ArgumentParser(
        prog=f"sacorpus {name}",
        usage=f"sacorpus {name} {cmd.syntax()}",
        conflict_handler="resolve",
        description=cmd.long_desc(),
    )
    settings = project_settings(cmd.default_settings, {})
    global_options(parser, settings.get("LOG_LEVEL"))
    cmd.add_command_line(parser)
    opts, args = parser.parse_known_args(argv)
    try:
        overrides = parse_overrides(opts.set)
    except ValueError:
        parser.error("Invalid -s value, use -s NAME=VALUE")
    settings.update(overrides)
    settings.update(_log_settings(opts))
    if opts.pidfile:
        with open(opts.pidfile, "w", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}{os.linesep}")
    cmd.settings = settings
    try:
        if opts.profile:
            _profiled(cmd, args, opts)
        else:
            cmd.execute(args, opts)
    except UsageError as exc:
        if str(exc):
            parser.error(str(exc))
        if exc.print_help:
            parser.print_help()
        return 2
    return cmd.exitcode


def _profiled(cmd: Any, args: list[str], opts: argparse.Namespace) -> None:
    import cProfile

    sys.stderr.write(f"sacorpus: writing cProfile stats to {opts.profile!r}\n")
    profile = cProfile.Profile()
    profile.runcall(cmd.execute, args, opts)
    profile.dump_stats(opts.profile)


if __name__ == "__main__":
    main()
