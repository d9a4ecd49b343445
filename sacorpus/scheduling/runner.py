"""The scheduler loop: start what is due, watch what runs, log one line per decision.

Times on the schedule's clock (due times, backoff) may run faster than real time (a sped-up
:class:`~sacorpus.sources.clock.Clock`); the timeouts of hung crawls and the wait on shutdown are real
seconds, because a hung process hangs in real time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sacorpus.scheduling.launchers import Job, LaunchError
from sacorpus.sources import pollstate
from sacorpus.sources.clock import Clock
from sacorpus.sources.schedule import PublicationDue, backoff_seconds, due_now, next_due, plan

logger = logging.getLogger("sacorpus.schedule")

StateReader = Callable[[Sequence[str]], Mapping[str, Any]]  # source URLs -> poll states


class Launcher(Protocol):
    remote: bool

    def describe(self) -> str: ...
    def start(self, slug: str, now: float) -> Job: ...
    def finished(self, job: Job) -> tuple[bool, str] | None: ...
    def running_elsewhere(self, slugs: Sequence[str]) -> set[str]: ...
    def stop(self, job: Job, force: bool) -> None: ...


@dataclass(frozen=True)
class Options:
    max_concurrent: int = 2
    timeout: float = 6 * 3600  # real seconds
    kill_after: float = 60.0  # real seconds from "stop" to SIGKILL, and the bounded wait on shutdown
    backoff: float = 600.0  # clock seconds, doubling per failure in a row
    backoff_max: float = 6 * 3600.0
    once: bool = False
    check_every: float = 1.0  # real seconds between looks at running crawls
    idle_max: float = 60.0  # real seconds: the store is read again at least this often


def _at(when: datetime | None) -> str:
    return "now" if when is None else when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Scheduler:
    def __init__(
        self,
        sources: Mapping[str, Sequence[str]],
        read_states: StateReader,
        launcher: Launcher,
        clock: Clock,
        limits: pollstate.Limits,
        options: Options,
    ) -> None:
        self.sources = dict(sources)
        self.read_states = read_states
        self.launcher, self.clock, self.limits, self.options = launcher, clock, limits, options
        self.running: dict[str, Job] = {}
        self.failures: dict[str, int] = {}
        self.not_before: dict[str, float] = {}  # slug -> clock timestamp
        self.said: dict[str, str] = {}  # slug -> the last waiting decision logged (said once)
        self.finished_now: list[str] = []
        self.failed_runs = 0
        self.errors = 0
        self.stopping = threading.Event()
        self.once_left: list[str] | None = None
        self.blocked_elsewhere = False  # a due publication runs on the server: look again soon
        self.unknown: set[str] = set()  # due publications whose jobs on the server could not be listed
        self._plans: list[PublicationDue] | None = None
        self._read_at = 0.0  # real time of the last read
        self._wake = 0.0  # clock time of the next due or backoff end

    # --- the loop ----------------------------------------------------------------------------------

    def run(self) -> int:
        """Schedule until stopped (or, with ``once``, until what was due has run); the exit status:
        with ``once``, 1 when a crawl it ran failed or the store could not be read (cron mails it)."""
        paced = [s for s, urls in self.sources.items() if urls]
        for slug in sorted(set(self.sources) - set(paced)):
            logger.warning("%s: not scheduled: no feed or sitemap to pace it", slug)
        logger.info(
            "scheduling %d publications through %s, at most %d at once%s",
            len(paced),
            self.launcher.describe(),
            self.options.max_concurrent,
            f" (clock {self.clock.speed:g}x real time)" if self.clock.simulated else "",
        )
        try:
            while not self.stopping.is_set():
                wait = self.tick()
                if wait is None:
                    break
                self.stopping.wait(wait)
        finally:  # whatever ends the loop, no crawl is left behind unwatched
            self.shutdown()
        if not self.options.once:  # a long-running scheduler stopped cleanly; failures were logged
            return 0
        return 1 if self.failed_runs or self.errors else 0

    def request_stop(self, signum: int = 0, frame: object = None) -> None:
        if not self.stopping.is_set():
            logger.info("stop requested (signal %d): no new crawls", signum)
        self.stopping.set()

    def tick(self) -> float | None:
        """One round of decisions; real seconds to wait before the next (None: done)."""
        self.reap()
        self.check_timeouts()
        now = self.clock.now()
        plans = self.plans(now)
        if plans is not None:
            self.report_finished(plans)
            self.start_due(plans, now)
        if self.options.once:
            if self.once_left is None:
                self.once_left = []
            if not self.once_left and (not self.running or self.launcher.remote):
                return None
            return self.options.check_every
        return self.wait_for(plans, now)

    def plans(self, now: datetime) -> list[PublicationDue] | None:
        """The due times, read from the store again only when they can have changed: a crawl finished,
        a due or backoff time came, a job on the server may have finished, or ``idle_max`` passed."""
        fresh = (
            self._plans is None
            or self.finished_now
            or self.blocked_elsewhere
            or now.timestamp() >= self._wake
            or time.monotonic() - self._read_at >= self.options.idle_max
        )
        if not fresh:
            return self._plans
        urls = [u for urls in self.sources.values() for u in urls]
        try:
            states = self.read_states(urls)
        except Exception as exc:  # the store is down: one line, tried again on the next round
            logger.error("poll states not readable: %s", exc)
            self.errors += 1
            self._plans = None
            return None
        self._plans, self._read_at = plan(self.sources, states, self.limits), time.monotonic()
        return self._plans

    def wait_for(self, plans: list[PublicationDue] | None, now: datetime) -> float:
        """Until the next due time or backoff end, or the next look at running or blocked crawls."""
        options, stamp = self.options, now.timestamp()
        wait = options.check_every if self.running or self.blocked_elsewhere else options.idle_max
        future = [t for t in self.not_before.values() if t > stamp]
        for p in plans or ():
            if p.paced and p.slug not in self.running and p.due_at is not None and p.due_at > now:
                future.append(p.due_at.timestamp())
        self._wake = min(future) if future else float("inf")
        if future:
            wait = min(wait, self.clock.real_seconds(min(future) - stamp))
        return max(wait, 0.05)

    # --- decisions -----------------------------------------------------------------------------------

    def start_due(self, plans: list[PublicationDue], now: datetime) -> None:
        due = due_now(plans, now)
        if self.options.once:
            if self.once_left is None:
                self.once_left = [p.slug for p in due]
                if not due:
                    logger.info("nothing due now; next at %s", _at(next_due(plans, now)))
            due = [p for p in due if p.slug in self.once_left]
        candidates = [p for p in due if p.slug not in self.running]
        self.unknown = set()
        elsewhere = self.ask_elsewhere([p.slug for p in candidates])
        self.blocked_elsewhere = bool(elsewhere)
        for p in due:
            self.decide(p, now, elsewhere)

    def ask_elsewhere(self, slugs: list[str]) -> set[str]:
        if not slugs:
            return set()
        try:
            return self.launcher.running_elsewhere(slugs)
        except LaunchError as exc:  # cannot tell: start nothing this round rather than run twice
            logger.error("cannot list running crawls, so none is started: %s", exc)
            self.errors += 1
            self.unknown = set(slugs)
            return set(slugs)

    def decide(self, p: PublicationDue, now: datetime, elsewhere: set[str]) -> None:
        slug = p.slug
        if slug in self.running:
            started = self.running[slug].extra.get("clock_start", 0.0)
            if p.due_at is not None and p.due_at.timestamp() > started:  # due again while it runs
                self.say(
                    slug, "running", f"{slug}: due ({p.reason()}) but its crawl is still running; skipped"
                )
        elif slug in self.unknown:
            self.say(
                slug, "unknown", f"{slug}: due ({p.reason()}); not started: the server's jobs are unknown"
            )
        elif slug in elsewhere:
            self.say(
                slug, "elsewhere", f"{slug}: due ({p.reason()}) but already running on the server; skipped"
            )
        elif self.not_before.get(slug, 0.0) > now.timestamp():
            until = datetime.fromtimestamp(self.not_before[slug], now.tzinfo)
            self.say(slug, "backoff", f"{slug}: due ({p.reason()}), waiting until {_at(until)} (backoff)")
        elif len(self.running) >= self.options.max_concurrent:
            self.say(slug, "full", f"{slug}: due, waiting: {len(self.running)} crawls running (the maximum)")
        else:
            self.start(slug, p.reason(), now)

    def say(self, slug: str, decision: str, line: str) -> None:
        """Log a waiting decision once, not on every round it still holds. With ``once``, only a
        publication waiting for a free slot is still to run; the others are done with for this run."""
        if self.once_left is not None and decision != "full" and slug in self.once_left:
            self.once_left.remove(slug)
        if self.said.get(slug) != decision:
            self.said[slug] = decision
            logger.info(line)

    def start(self, slug: str, reason: str, now: datetime) -> None:
        self.said.pop(slug, None)
        if self.once_left is not None and slug in self.once_left:
            self.once_left.remove(slug)
        try:
            job = self.launcher.start(slug, time.monotonic())
        except LaunchError as exc:
            logger.error("%s: not started: %s", slug, exc)
            self.failed(slug, now)
            return
        job.extra["clock_start"] = now.timestamp()
        self.running[slug] = job
        logger.info("%s: started crawl %s at %s (%s)", slug, job.ident, _at(now), reason)

    def failed(self, slug: str, now: datetime) -> None:
        self.failed_runs += 1
        count = self.failures[slug] = self.failures.get(slug, 0) + 1
        wait = backoff_seconds(count, self.options.backoff, self.options.backoff_max)
        self.not_before[slug] = now.timestamp() + wait
        if not self.options.once:
            logger.info("%s: %d failed crawls in a row; retried in %.0f s at the earliest", slug, count, wait)

    # --- watching running crawls -------------------------------------------------------------------

    def reap(self) -> None:
        for slug, job in list(self.running.items()):
            try:
                outcome = self.launcher.finished(job)
            except LaunchError as exc:
                logger.error("%s: cannot tell whether crawl %s finished: %s", slug, job.ident, exc)
                self.errors += 1
                continue
            if outcome is None:
                continue
            ok, how = outcome
            del self.running[slug]
            now = self.clock.now()
            took = time.monotonic() - job.started
            if self.stopping.is_set() and job.stop_asked is not None:  # asked to stop by us: no failure
                logger.info(
                    "%s: crawl %s stopped at %s: %s after %.1f s", slug, job.ident, _at(now), how, took
                )
                continue
            logger.log(
                logging.INFO if ok else logging.ERROR,
                "%s: crawl %s %s at %s: %s after %.1f s",
                slug,
                job.ident,
                "finished" if ok else "failed",
                _at(now),
                how,
                took,
            )
            if ok:
                self.failures.pop(slug, None)
                # a crawl that polled nothing (every source down) waits the shortest interval, not 0 s
                self.not_before[slug] = job.extra.get("clock_start", now.timestamp()) + self.limits.minimum
                self.finished_now.append(slug)
            else:
                self.failed(slug, now)

    def report_finished(self, plans: list[PublicationDue]) -> None:
        by_slug = {p.slug: p for p in plans}
        for slug in self.finished_now:
            if slug in by_slug:
                p = by_slug[slug]
                when = p.due_at
                stamp = max(when.timestamp() if when else 0.0, self.not_before.get(slug, 0.0))
                logger.info(
                    "%s: next due at %s", slug, _at(datetime.fromtimestamp(stamp, self.clock.now().tzinfo))
                )
        self.finished_now = []

    def check_timeouts(self) -> None:
        options, real_now = self.options, time.monotonic()
        for slug, job in self.running.items():
            try:
                if job.stop_asked is None and real_now - job.started > options.timeout:
                    logger.error(
                        "%s: crawl %s still running after %.0f s: asked to stop",
                        slug,
                        job.ident,
                        options.timeout,
                    )
                    job.stop_asked = real_now
                    self.launcher.stop(job, force=False)
                elif (
                    job.stop_asked is not None
                    and real_now - job.stop_asked > options.kill_after
                    and not job.extra.get("killed")
                ):
                    logger.error(
                        "%s: crawl %s did not stop in %.0f s: killed", slug, job.ident, options.kill_after
                    )
                    job.extra["killed"] = True
                    self.launcher.stop(job, force=True)
            except (LaunchError, OSError) as exc:
                logger.error("%s: cannot stop crawl %s: %s", slug, job.ident, exc)

    def shutdown(self) -> None:
        """On a stop: running local crawls are asked to stop and awaited (bounded), then killed.
        scrapyd jobs are the server's: left running, and seen again by the next scheduler."""
        if not self.running or self.launcher.remote:
            if self.running:
                logger.info("left running on the server: %s", ", ".join(sorted(self.running)))
            return
        logger.info(
            "waiting up to %.0f s for %d running crawls to stop", self.options.kill_after, len(self.running)
        )
        for job in self.running.values():
            if job.stop_asked is None:
                job.stop_asked = time.monotonic()
                self.launcher.stop(job, force=False)
        deadline = time.monotonic() + self.options.kill_after
        while self.running and time.monotonic() < deadline:
            time.sleep(min(0.2, self.options.check_every))
            self.reap()
        for slug, job in self.running.items():
            logger.error("%s: crawl %s did not stop in time: killed", slug, job.ident)
            self.launcher.stop(job, force=True)
        end = time.monotonic() + 10
        while self.running and time.monotonic() < end:
            time.sleep(0.1)
            self.reap()
