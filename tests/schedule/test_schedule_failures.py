"""`scrapy schedule` survives crawls that fail or hang, retries after a backoff, stops cleanly on
SIGTERM, and `--once` exits non-zero when a crawl it ran failed. Real crawls of fixture publications on
a loopback server: one healthy, one whose feed answers 500, one whose feed never answers."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from email.message import Message
from pathlib import Path

import pytest
from crawlkit import REPO

from sacorpus.demo.server import SiteServer

pytestmark = pytest.mark.slow

FEED = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>ok</title>'
    "<item><title>One</title><link>http://ok.fail.invalid/ok/story-1</link></item></channel></rss>"
)
STORY = (
    "<html><head><title>One</title></head><body><article><h1>One</h1>"
    + ("<p>The council said the water budget would be spent on clinics and schools this year.</p>" * 8)
    + "</article></body></html>"
)


class Sites:
    def __init__(self, root: Path) -> None:
        self.release = threading.Event()
        self.server = SiteServer({})
        self.server.add_route("/ok/", self.ok)
        self.server.add_route("/broken/", lambda path, headers: (500, {}, b"down"))
        self.server.add_route("/stuck/", self.stuck)
        (root / "publications").mkdir()
        for slug in ("ok", "broken", "stuck"):
            host = f"{slug}.fail.invalid"
            (root / "publications" / f"{slug}.toml").write_text(
                f'name = "{slug}"\nhome = "http://{host}/"\ndomains = ["{host}"]\nlanguages = ["en"]\n'
                f'[sources]\nfeeds = ["http://{host}/{slug}/feed.xml"]\n',
                encoding="utf-8",
            )

    def ok(self, path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        if path == "/ok/feed.xml":
            return 200, {"Content-Type": "application/rss+xml"}, FEED.encode()
        if path == "/ok/story-1":
            return 200, {"Content-Type": "text/html; charset=utf-8"}, STORY.encode()
        return None

    def stuck(self, path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        self.release.wait(120)  # a feed that never answers (until the test ends)
        return 503, {}, b""

    def __enter__(self) -> Sites:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.stop()


def schedule_cmd(root: Path, sites: Sites, *args: str) -> list[str]:
    settings = [
        f"SACORPUS_PUBLICATIONS_DIR={root / 'publications'}",
        f"SACORPUS_SOURCE_BASE={sites.server.base_url}",
        f"SACORPUS_SQLITE_PATH={root / 'corpus.sqlite'}",
        f"SACORPUS_JOBDIR_ROOT={root / 'jobs'}",
        "AUTOTHROTTLE_ENABLED=False",
        "DOWNLOAD_DELAY=0",
        "RETRY_ENABLED=False",
        "SACORPUS_SCHEDULE_KILL_AFTER=5",
        "SACORPUS_SCHEDULE_BACKOFF=3",
    ]
    cmd = [sys.executable, "-m", "scrapy", "schedule", "--log-dir", str(root / "crawls"), *args]
    return cmd + [arg for value in settings for arg in ("-s", value)]


def env() -> dict[str, str]:
    drop = ("MONGO_URI", "SACORPUS_REDIS_URL", "REDIS_URL", "SACORPUS_PUBLICATIONS_DIR")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("SACORPUS_CLOCK")}


def test_once_runs_what_is_due_and_reports_failed_and_hung_crawls(tmp_path):
    with Sites(tmp_path) as sites:
        run = ("--once", "--timeout", "25", "--max-concurrent", "3")
        cmd = schedule_cmd(tmp_path, sites, *run, "--publication", "ok,broken,stuck")
        proc = subprocess.run(cmd, cwd=REPO, env=env(), capture_output=True, text=True, timeout=240)
        log = proc.stdout + proc.stderr
        assert proc.returncode == 1, log[-3000:]
        assert re.search(r"ok: crawl \d+ finished at \S+: exit status 0", log), log[-3000:]
        assert re.search(r"broken: crawl \d+ failed at \S+: exit status 1", log), log[-3000:]
        assert re.search(r"stuck: crawl \d+ still running after 25 s: asked to stop", log), log[-3000:]
        assert re.search(r"stuck: crawl \d+ failed", log), log[-3000:]
        assert "Traceback" not in log

        # the healthy publication polled its feed: a second --once finds nothing due for it
        again = subprocess.run(
            schedule_cmd(tmp_path, sites, *run, "--publication", "ok"),
            cwd=REPO,
            env=env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0, again.stderr[-3000:]
        assert "nothing due now; next at" in again.stderr and "started crawl" not in again.stderr


def test_a_failed_publication_is_retried_after_a_backoff_and_sigterm_stops_cleanly(tmp_path):
    with Sites(tmp_path) as sites:
        cmd = schedule_cmd(tmp_path, sites, "--publication", "broken,stuck", "--timeout", "600")
        out = tmp_path / "schedule.log"
        with out.open("wb") as sink:
            proc = subprocess.Popen(cmd, cwd=REPO, env=env(), stdout=sink, stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + 180
                while (
                    "broken: 2 failed crawls in a row" not in out.read_text() and time.monotonic() < deadline
                ):
                    assert proc.poll() is None, out.read_text()[-3000:]
                    time.sleep(0.5)
                proc.send_signal(signal.SIGTERM)
                code = proc.wait(timeout=60)  # the hung crawl is asked to stop, then killed after 5 s
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    log = out.read_text()
    assert "broken: 2 failed crawls in a row" in log, log[-3000:]
    starts = re.findall(r"broken: started crawl", log)
    assert len(starts) >= 2
    # the retry waited for the backoff: "retried in 3 s at the earliest" came before the second start
    first_fail = log.index("broken: 1 failed crawls in a row; retried in 3 s")
    assert log.index("broken: started crawl", first_fail) > first_fail
    assert "stop requested (signal 15): no new crawls" in log
    assert re.search(r"stuck: crawl \d+ (stopped|did not stop in time: killed)", log), log[-3000:]
    assert code == 0, log[-3000:]
    # nothing was left running
    pids = re.findall(r"stuck: started crawl (\d+)", log)
    for pid in pids:
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
        )


def test_print_cron_gives_a_once_line_at_the_shortest_interval_without_the_password(tmp_path):
    proc = subprocess.run(
        [
            sys.executable, "-m", "scrapy", "schedule", "--print-cron", "--publication", "demo,mg",
            "--scrapyd", "http://robot:s3cret-word@127.0.0.1:6800", "-s", "SACORPUS_POLL_MIN_INTERVAL=600",
        ],
        cwd=REPO, env=env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stdout.splitlines() if not x.startswith("#")]
    assert line.startswith("*/10 * * * * ") and "flock -n" in line
    assert "schedule --once --publication demo,mg --scrapyd http://127.0.0.1:6800" in line
    assert "--scrapyd-user robot" in line and "SACORPUS_POLL_MIN_INTERVAL=600" in line
    assert "s3cret-word" not in proc.stdout + proc.stderr


def test_unknown_publication_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "schedule", "--once", "--publication", "nosuch"],
        cwd=REPO, env=env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and "no such publication: nosuch" in proc.stderr
    assert "Traceback" not in proc.stderr
    for setting, message in (
        ("SACORPUS_POLL_MIN_INTERVAL=99999", "poll intervals must satisfy 0 < minimum (99999)"),
        ("SACORPUS_CLOCK_SPEED=0", "clock speed must be positive"),
    ):
        for command in ("schedule", "crawl"):
            bad = subprocess.run(
                [sys.executable, "-m", "scrapy", command, *(["demo"] if command == "crawl" else []), "-s", setting],
                cwd=REPO, env=env(), capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
