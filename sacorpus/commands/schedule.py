"""``scrapy schedule``: start crawls when a publication's feeds or sitemaps are due, at their own pace.

Each feed's adaptive poll interval is stored by the crawls (``poll:<url>`` in the store's run state);
this command reads it and starts ``scrapy crawl <slug>`` here, or a job on a scrapyd server
(``--scrapyd URL``), never two of one publication at once. ``--once`` runs what is due and exits (cron,
systemd timers); ``--print-cron`` prints the crontab lines that do so.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.conf import arglist_to_dict
from scrapy.utils.log import configure_logging

from sacorpus import redact
from sacorpus.publications import PublicationError, load_all
from sacorpus.scheduling.launchers import LaunchError, LocalLauncher, ScrapydLauncher, split_credentials
from sacorpus.scheduling.runner import Options, Scheduler
from sacorpus.settings_check import setting_problems
from sacorpus.sources.clock import Clock
from sacorpus.sources.schedule import state_key
from sacorpus.spiders.sources.polling import poll_limits
from sacorpus.storage.base import store_from_settings

logger = logging.getLogger("sacorpus.schedule")


def paced_sources(slugs: Sequence[str] | None, directory: str | None) -> dict[str, list[str]]:
    """slug -> the feed and sitemap URLs whose poll states pace it (every publication, or ``slugs``)."""
    try:
        publications = load_all(directory)
    except PublicationError as exc:
        raise UsageError(str(exc), print_help=False) from None
    unknown = sorted(set(slugs or ()) - set(publications))
    if unknown:
        raise UsageError(f"no such publication: {', '.join(unknown)}", print_help=False)
    chosen = [publications[s] for s in slugs] if slugs else list(publications.values())
    return {p.slug: [*p.sources.feeds, *p.sources.sitemaps, *p.sources.news_sitemaps] for p in chosen}


class StoreStates:
    """Poll states read from the configured store; one connection, opened again after a failure."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.store: Any = None

    def __call__(self, urls: Sequence[str]) -> Mapping[str, Any]:
        if self.store is None:
            store = store_from_settings(self.settings)
            store.open()
            self.store = store
        try:
            return {url: self.store.get_state(state_key(url)) for url in urls}
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        store, self.store = self.store, None
        if store is not None:
            try:
                store.close()
            except Exception as exc:  # closing a broken connection: nothing left to lose
                logger.warning("store not closed cleanly: %s", exc)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False

    def syntax(self) -> str:
        return (
            "[--once | --print-cron] [--publication a,b] [--scrapyd URL] [--max-concurrent N] [--timeout S]"
        )

    def short_desc(self) -> str:
        return "Start crawls when a publication's feeds are due, at each feed's own pace"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        add = parser.add_argument
        add(
            "--once", action="store_true", help="start what is due now, wait for it, and exit (cron, systemd)"
        )
        add("--print-cron", action="store_true", help="print crontab lines that run --once and exit")
        add("--publication", action="append", metavar="SLUG", help="only these (repeat or comma-separate)")
        add("--scrapyd", metavar="URL", help="schedule on this scrapyd (http://user:password@host:6800)")
        add("--scrapyd-user", metavar="USER", help="scrapyd user (else from the URL)")
        add(
            "--scrapyd-password",
            metavar="PASSWORD",
            help="scrapyd password (else SCRAPYD_PASSWORD or the URL)",
        )
        add("--project", metavar="NAME", help="scrapyd project (default SACORPUS_SCHEDULE_SCRAPYD_PROJECT)")
        add(
            "--max-concurrent",
            type=int,
            metavar="N",
            help="crawls at once (SACORPUS_SCHEDULE_MAX_CONCURRENT)",
        )
        add(
            "--timeout",
            type=float,
            metavar="SECONDS",
            help="stop a crawl running longer (SACORPUS_SCHEDULE_TIMEOUT)",
        )
        add("--log-dir", metavar="DIR", help="append each local crawl's log to DIR/<slug>.log")
        add(
            "--clock-speed",
            type=float,
            metavar="X",
            help="run the schedule's clock X times real time (trials)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        if args:
            raise UsageError(
                "no positional arguments; name publications with --publication", print_help=False
            )
        problems = setting_problems(self.settings)
        if problems:  # one line and exit 2, before anything starts
            raise UsageError("; ".join(problems), print_help=False)
        configure_logging(self.settings)
        redact.install()
        slugs = [s.strip() for v in opts.publication or () for s in v.split(",") if s.strip()] or None
        directory = self.settings.get("SACORPUS_PUBLICATIONS_DIR") or None
        sources = paced_sources(slugs, directory)
        if opts.print_cron:
            print(cron_lines(opts, slugs, self.settings.getint("SACORPUS_POLL_MIN_INTERVAL")))
            return
        clock = self.clock(opts)
        states = StoreStates(self.settings)
        scheduler = Scheduler(
            sources,
            states,
            self.launcher(opts, clock),
            clock,
            poll_limits(self.settings),
            self.options(opts),
        )
        signal.signal(signal.SIGTERM, scheduler.request_stop)
        signal.signal(signal.SIGINT, scheduler.request_stop)
        try:
            self.exitcode = scheduler.run()
        finally:
            states.close()

    def clock(self, opts: argparse.Namespace) -> Clock:
        settings = self.settings
        assert settings is not None
        speed = opts.clock_speed if opts.clock_speed else settings.get("SACORPUS_CLOCK_SPEED")
        try:
            return Clock.from_values(settings.get("SACORPUS_CLOCK_ORIGIN"), speed)
        except ValueError as exc:
            raise UsageError(f"clock: {exc}", print_help=False) from None

    def options(self, opts: argparse.Namespace) -> Options:
        settings = self.settings
        assert settings is not None
        limit = (
            opts.max_concurrent
            if opts.max_concurrent is not None
            else settings.getint("SACORPUS_SCHEDULE_MAX_CONCURRENT")
        )
        timeout = opts.timeout if opts.timeout is not None else settings.getfloat("SACORPUS_SCHEDULE_TIMEOUT")
        if limit < 1 or timeout <= 0:
            raise UsageError("--max-concurrent must be at least 1 and --timeout positive", print_help=False)
        return Options(
            max_concurrent=limit,
            timeout=timeout,
            kill_after=settings.getfloat("SACORPUS_SCHEDULE_KILL_AFTER"),
            backoff=settings.getfloat("SACORPUS_SCHEDULE_BACKOFF"),
            backoff_max=settings.getfloat("SACORPUS_SCHEDULE_BACKOFF_MAX"),
            once=opts.once,
            check_every=5.0 if opts.scrapyd else 0.25,
        )

    def launcher(self, opts: argparse.Namespace, clock: Clock) -> LocalLauncher | ScrapydLauncher:
        """Crawls get the settings given on this command line, and the schedule's clock."""
        forwarded = {**arglist_to_dict(opts.set or []), **clock.settings()}
        if not opts.scrapyd:
            return LocalLauncher(forwarded, opts.log_dir)
        password = opts.scrapyd_password or os.environ.get("SCRAPYD_PASSWORD")
        try:
            url, auth = split_credentials(opts.scrapyd, opts.scrapyd_user, password)
        except LaunchError as exc:
            raise UsageError(str(exc), print_help=False) from None
        project = opts.project or self.settings.get("SACORPUS_SCHEDULE_SCRAPYD_PROJECT")  # type: ignore[union-attr]
        return ScrapydLauncher(url, project, forwarded, auth)


def cron_lines(opts: argparse.Namespace, slugs: Sequence[str] | None, min_interval: int) -> str:
    """Crontab lines equivalent to the long-running scheduler: ``--once`` every shortest poll interval
    (the feeds' own pace decides what runs), one scheduler at a time (``flock -n``)."""
    minutes = max(1, min(59, min_interval // 60))
    args = ["--once"]
    if slugs:
        args += ["--publication", ",".join(slugs)]
    if opts.scrapyd:
        url, _ = split_credentials(opts.scrapyd, None, None)
        args += ["--scrapyd", url] + (["--project", opts.project] if opts.project else [])
        user = opts.scrapyd_user or url_user(opts.scrapyd)
        if user:
            args += ["--scrapyd-user", user]
    for name, value in arglist_to_dict(opts.set or []).items():
        args += ["-s", f"{name}={value}"]
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "scrapy", "schedule", *args])
    lock = "/tmp/sacorpus-schedule.lock"
    lines = [
        "# sacorpus: start what is due, at each feed's own pace (m h dom mon dow command)",
        *(
            ["# the scrapyd password: SCRAPYD_PASSWORD=... on a line of its own above"]
            if opts.scrapyd
            else []
        ),
        f"*/{minutes} * * * * cd {shlex.quote(os.getcwd())} && flock -n {lock} {redact.redact(command)}"
        " >> schedule.log 2>&1",
    ]
    return "\n".join(lines)


def url_user(url: str) -> str | None:
    user = urlsplit(url).username
    return unquote(user) if user else None
