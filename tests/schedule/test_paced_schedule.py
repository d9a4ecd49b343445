"""`scrapy schedule` over four fixture publications whose feeds gain items at different rates, for ten
minutes of a clock running 7.5 times real time (80 s): real `scrapy crawl` subprocesses, a real store.

The feeds start with the poll history half an hour of polling at their own rates left in the store (a
new feed's first polls all wait the default interval, which would hide its pace in ten minutes).
The target of the feature: no publication crawled twice at once, each source polled at the interval
its crawl proposed (the scheduler starts the next crawl within 10% of it), nothing lost (every item a
feed listed is stored; no item scrolled off a feed before a poll saw it), and the busy feed polled more
often than the quiet one.
"""

from __future__ import annotations

import itertools
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from crawlkit import REPO
from paced_sites import Pace, PacedSites

from sacorpus.sources.clock import Clock
from sacorpus.sources.schedule import state_key
from sacorpus.storage.base import store_from_settings

pytestmark = pytest.mark.slow

SPEED = 7.5
DURATION = 600.0  # clock seconds
LIMITS = [
    "SACORPUS_POLL_MIN_INTERVAL=60",
    "SACORPUS_POLL_DEFAULT_INTERVAL=200",
    "SACORPUS_POLL_MAX_INTERVAL=480",
    "SACORPUS_SCHEDULE_KILL_AFTER=15",
]
PACES = [Pace("busy", 15), Pace("brisk", 40), Pace("slow", 150), Pace("quiet", 0)]
STARTED = re.compile(r"\[sacorpus\.schedule\] INFO: (\w+): started crawl (\d+) at (\S+) \(")
ENDED = re.compile(r"\[sacorpus\.schedule\] (?:INFO|ERROR): (\w+): crawl (\d+) (finished|failed) at (\S+):")
PROPOSED = re.compile(r"feed http://\w+\.paced\.invalid/(\w+)/feed\.xml: .* next poll proposed in (\d+) s")


def crawl_settings(tmp_path: Path, sites: PacedSites, base_url: str) -> list[str]:
    assert sites.clock.origin is not None
    values = [
        f"SACORPUS_PUBLICATIONS_DIR={tmp_path / 'publications'}",
        f"SACORPUS_SOURCE_BASE={base_url}",
        f"SACORPUS_SQLITE_PATH={tmp_path / 'corpus.sqlite'}",
        f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}",
        "AUTOTHROTTLE_ENABLED=False",
        "DOWNLOAD_DELAY=0",
        "LOG_LEVEL=INFO",
        f"SACORPUS_CLOCK_ORIGIN={sites.clock.origin!r}",
        f"SACORPUS_CLOCK_SPEED={SPEED}",
        *LIMITS,
    ]
    return [arg for value in values for arg in ("-s", value)]


def clean_env() -> dict[str, str]:
    drop = ("MONGO_URI", "SACORPUS_REDIS_URL", "REDIS_URL", "SACORPUS_PUBLICATIONS_DIR")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("SACORPUS_CLOCK")}


def clock_seconds(stamp: str, origin: float) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() - origin


def run_schedule(tmp_path: Path, sites: PacedSites, settings: list[str]) -> str:
    """The scheduler for DURATION clock seconds, then SIGTERM; its log."""
    out = tmp_path / "schedule.log"
    cmd = [
        sys.executable,
        "-m",
        "scrapy",
        "schedule",
        "--log-dir",
        str(tmp_path / "crawls"),
        "--max-concurrent",
        "4",
        "--publication",
        ",".join(p.slug for p in PACES),
    ]
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [*cmd, *settings], cwd=REPO, env=clean_env(), stdout=sink, stderr=subprocess.STDOUT
        )
        try:
            while sites.elapsed() < DURATION and proc.poll() is None:
                time.sleep(0.5)
            assert proc.poll() is None, out.read_text()[-3000:]
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=120) == 0, out.read_text()[-3000:]  # a clean stop
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return out.read_text(encoding="utf-8", errors="replace")


def catch_up(log: str, settings: list[str]) -> None:
    """One more crawl of each publication whose crawl the SIGTERM stopped, as a restarted scheduler
    would start: the requests that crawl left in its JOBDIR are fetched now."""
    stopped = set(re.findall(r"\] INFO: (\w+): crawl \d+ stopped at", log))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", slug, *settings],
            cwd=REPO,
            env=clean_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for slug in sorted(stopped)
    ]
    for proc in procs:
        assert proc.wait(timeout=180) == 0


def test_schedule_follows_each_feeds_pace(tmp_path):
    clock = Clock(time.time(), SPEED)
    sites = PacedSites(clock, PACES)
    sites.write_publications(tmp_path / "publications")
    # the feeds have been polled every minute for half an hour at their own rates before the origin
    with store_from_settings({"SACORPUS_SQLITE_PATH": str(tmp_path / "corpus.sqlite")}) as store:
        for pace in PACES:
            store.set_state(state_key(sites.feed_url(pace.slug)), sites.prior_state(pace))
    server = sites.start()
    try:
        settings = crawl_settings(tmp_path, sites, server.base_url)
        log = run_schedule(tmp_path, sites, settings)
        scheduled_polls = list(sites.polls)
        catch_up(log, settings)
    finally:
        sites.stop()
    assert clock.origin is not None
    starts: dict[str, list[float]] = {p.slug: [] for p in PACES}
    ends: dict[str, list[float]] = {p.slug: [] for p in PACES}
    events: dict[str, list[str]] = {p.slug: [] for p in PACES}
    for line in log.splitlines():
        if m := STARTED.search(line):
            starts[m[1]].append(clock_seconds(m[3], clock.origin))
            events[m[1]].append("start")
        elif m := ENDED.search(line):
            ends[m[1]].append(clock_seconds(m[4], clock.origin))
            events[m[1]].append("end")
            if ends[m[1]][-1] < DURATION:  # crawls the stop interrupted may end either way
                assert m[3] == "finished", line

    # never two crawls of one publication at once: the scheduler's own account, and the crawls' logs
    for slug, sequence in events.items():
        assert sequence[::2] == ["start"] * len(sequence[::2]) and "start" not in sequence[1::2], (
            slug,
            sequence,
        )
        crawl_log = (tmp_path / "crawls" / f"{slug}.log").read_text(encoding="utf-8")
        opened = [m[0] for m in re.finditer(r"Spider (opened|closed)", crawl_log)]
        assert all(a != b for a, b in itertools.pairwise(opened)), (slug, opened)

    polls = {p.slug: [x for x in scheduled_polls if x.slug == p.slug] for p in PACES}
    proposed = {p.slug: [] for p in PACES}  # type: dict[str, list[int]]
    for p in PACES:
        text = (tmp_path / "crawls" / f"{p.slug}.log").read_text(encoding="utf-8")
        proposed[p.slug] = [int(m[2]) for m in PROPOSED.finditer(text)]
    report = []
    for p in PACES:
        slug, done = p.slug, polls[p.slug]
        # the last crawl may have been stopped before it polled
        assert len(done) >= 1 and len(done) <= len(starts[slug]) <= len(done) + 1, (slug, starts[slug], done)
        for i in range(len(done) - 1):
            interval = proposed[slug][i]
            due = done[i].at + interval
            # when the publication's previous crawl was still running at its due time, it is started
            # when that crawl ends (never two at once); otherwise at its due time
            ready = max(due, ends[slug][i])
            late = starts[slug][i + 1] - ready
            report.append((slug, round(done[i].at), interval, round(ends[slug][i] - due), round(late, 1)))
            assert starts[slug][i + 1] >= due - 1 and late <= 0.1 * interval, (slug, i, report)
    print("\n".join(map(str, report)))

    # the busy feed is polled more often than the quiet one, and proposes shorter intervals
    counts = {s: len(v) for s, v in polls.items()}
    assert counts["busy"] >= 3 and counts["busy"] > counts["quiet"], counts
    assert len(report) >= 4  # pairs of polls whose interval was checked
    assert min(proposed["busy"]) < min(proposed["quiet"])

    # nothing lost: no item scrolled off a feed unseen, and every item a feed listed is stored
    with sqlite3.connect(tmp_path / "corpus.sqlite") as db:
        stored = {url for (url,) in db.execute("select url from articles")}
    for p in PACES:
        seen = {n for x in sites.polls if x.slug == p.slug for n in x.items}
        last = polls[p.slug][-1].at
        assert set(sites.published(p, last)) <= seen, p.slug
        missing = {sites.article_url(p.slug, n) for n in seen} - stored
        assert not missing, (p.slug, sorted(missing))
