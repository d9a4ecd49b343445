"""``scrapy serve [--host 127.0.0.1] [--port 8017]``: the corpus browser over the configured store.

Read-only pages (search, KWIC, article view, word list, collocations, stats) for people who read a
corpus in a web browser. There is no login: on the default loopback address only this machine can
reach it; any other address puts the whole corpus in reach of everyone on that network, which the
command says in a warning (put a proxy with authentication in front for shared use).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from sacorpus.corpus.cli import open_corpus
from sacorpus.corpus.command import Command, UsageError
from sacorpus.storage.base import StorageError

logger = logging.getLogger(__name__)


class Serve(Command):
    def syntax(self) -> str:
        return "[--host 127.0.0.1] [--port 8017]"

    def short_desc(self) -> str:
        return "Browse the stored corpus in a web browser (search, KWIC, articles, word lists, stats)"

    def add_command_line(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--host", help="address to listen on (default SACORPUS_SERVE_HOST, 127.0.0.1)")
        parser.add_argument("--port", type=int, help="port (default SACORPUS_SERVE_PORT, 8017; 0: any free)")

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        from sacorpus.web.app import is_loopback, make_app, serve

        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}", print_help=False)
        assert self.settings is not None
        host = opts.host or self.settings.get("SACORPUS_SERVE_HOST")
        port = opts.port if opts.port is not None else self.settings.getint("SACORPUS_SERVE_PORT")
        if not 0 <= port <= 65535:
            raise UsageError(f"--port must be 0-65535, not {port}", print_help=False)
        if not is_loopback(host):
            print(
                f"serve: WARNING: listening on {host}, not loopback: everyone who can reach it can read "
                "the whole corpus (there is no login); put an authenticating proxy in front",
                file=sys.stderr,
            )
        try:
            with open_corpus(self.settings) as store:
                asyncio.run(serve(make_app(store, self.settings), host, port))
        except StorageError as exc:
            print(f"serve: {exc}", file=sys.stderr)
            self.exitcode = 1
        except OSError as exc:  # the port is taken, the address is not this machine's
            print(f"serve: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
            self.exitcode = 1
