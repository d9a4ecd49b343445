"""Publication files outside the package (SACORPUS_PUBLICATIONS_DIR): each gets a spider, and a bad
one is one line naming the file and the key, for `scrapy list` and `scrapy schedule` alike."""

from __future__ import annotations

import os
import subprocess
import sys

from crawlkit import REPO

GOOD = 'name = "Extra"\nhome = "http://extra.invalid/"\ndomains = ["extra.invalid"]\nlanguages = ["en"]\n'
FEEDS = '[sources]\nfeeds = ["http://extra.invalid/feed"]\n'


def scrapy(*args: str, directory: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SACORPUS_PUBLICATIONS_DIR"}
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"SACORPUS_PUBLICATIONS_DIR={directory}"]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_extra_publications_get_spiders_and_bad_files_are_one_line(tmp_path):
    (tmp_path / "extra_one.toml").write_text(GOOD + FEEDS)
    listed = scrapy("list", directory=str(tmp_path))
    assert listed.returncode == 0 and "extra_one" in listed.stdout.split() and "iol" in listed.stdout.split()
    cron = scrapy("schedule", "--print-cron", "--publication", "extra_one", directory=str(tmp_path))
    assert cron.returncode == 0 and "--publication extra_one" in cron.stdout, cron.stderr[-2000:]

    (tmp_path / "broken.toml").write_text(GOOD + 'colour = "blue"\n' + FEEDS)
    bad = scrapy("schedule", "--once", directory=str(tmp_path))
    assert bad.returncode == 2, bad.stderr[-2000:]
    assert "broken.toml" in bad.stderr and "colour" in bad.stderr and "Traceback" not in bad.stderr
    crawl = scrapy("crawl", "broken", directory=str(tmp_path))
    assert crawl.returncode != 0 and "broken.toml" in crawl.stderr and "Traceback" not in crawl.stderr
