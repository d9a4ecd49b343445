"""`scrapy schedule --once --scrapyd http://user:password@127.0.0.1:P` against a real scrapyd with the
project's egg deployed: the due publication is scheduled with the command's settings, it is not
scheduled again while scrapyd lists it as pending or running, and the password never reaches the log."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time

import pytest
from crawlkit import REPO

from sacorpus.testing.scrapyd import ScrapydServer, build_egg

pytestmark = pytest.mark.slow

USER = "scheduler"


def test_once_schedules_the_due_publication_on_scrapyd_once(tmp_path):
    password = secrets.token_urlsafe(12)
    egg = build_egg(REPO, tmp_path)
    with ScrapydServer(tmp_path / "scrapyd", USER, password) as scrapyd:
        assert scrapyd.deploy(egg)["status"] == "ok"
        url = scrapyd.url.replace("http://", f"http://{USER}:{password}@")
        db = tmp_path / "corpus.sqlite"
        cmd = [
            sys.executable, "-m", "scrapy", "schedule", "--once", "--scrapyd", url, "--publication", "demo",
            "-s", f"SACORPUS_SQLITE_PATH={db}", "-s", f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}",
            "-s", "DOWNLOAD_DELAY=1", "-s", "AUTOTHROTTLE_ENABLED=False",
        ]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SCRAPYD_PASSWORD")}
        first = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
        assert first.returncode == 0, first.stderr[-3000:]
        assert "demo: started crawl" in first.stderr and "left running on the server: demo" in first.stderr
        jobs = scrapyd.jobs()
        listed = [j for j in jobs["pending"] + jobs["running"] if j["spider"] == "demo"]
        assert len(listed) == 1, jobs

        second = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr[-3000:]
        assert (
            "demo: due (never polled" in second.stderr
            and "already running on the server; skipped" in second.stderr
        )
        assert "started crawl" not in second.stderr
        jobs = scrapyd.jobs()
        assert (
            len([j for j in jobs["pending"] + jobs["running"] + jobs["finished"] if j["spider"] == "demo"])
            == 1
        )

        # the crawl on scrapyd got the command's settings: it writes the store the scheduler reads
        deadline = time.monotonic() + 120
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert db.exists(), scrapyd.jobs()
        for run in (first, second):
            assert password not in run.stdout + run.stderr
            assert f"{USER}:***@" in run.stderr or "scrapyd at http://127.0.0.1" in run.stderr


def test_wrong_credentials_are_one_line_and_a_failure(tmp_path):
    with ScrapydServer(tmp_path / "scrapyd", USER, secrets.token_urlsafe(12)) as scrapyd:
        url = scrapyd.url.replace("http://", f"http://{USER}:not-the-password@")
        proc = subprocess.run(
            [sys.executable, "-m", "scrapy", "schedule", "--once", "--scrapyd", url, "--publication", "demo",
             "-s", f"SACORPUS_SQLITE_PATH={tmp_path / 'c.sqlite'}"],
            cwd=REPO, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "HTTP 401" in proc.stderr and "not-the-password" not in proc.stderr
    assert "not started: the server's jobs are unknown" in proc.stderr and "started crawl" not in proc.stderr
    assert "Traceback" not in proc.stderr
