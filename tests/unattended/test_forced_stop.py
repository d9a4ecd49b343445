"""A forced stop (a second SIGTERM or Ctrl-C, as an impatient user or systemd sends) loses nothing the
store stage holds and is not reported as success.

A real ``scrapy crawl demo`` over a site whose article pages are held after the first few: the graceful
stop waits for those downloads, so the second signal certainly arrives before any stage is closed, with
the scraped articles still in the store stage's buffer (batches of 1,000, no timed flush).
"""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import pytest
from test_one_run_at_a_time import SLOW, GatedSite, start, stored

from sacorpus.demo.bigsite import build_big_site

pytestmark = pytest.mark.slow
N = 60
FREE = 6
HELD_IN_BUFFER = ["-s", "SACORPUS_STORE_BATCH_SIZE=1000", "-s", "SACORPUS_STORE_FLUSH_SECONDS=600"]


def _spilled(spill_dir: Path) -> list[str]:
    return [
        json.loads(line)["url"]
        for file in spill_dir.glob("*.jsonl")
        for line in file.read_text().splitlines()
        if line.strip()
    ]


def _wait_for(log: Path, proc, text: str) -> None:
    deadline = time.monotonic() + 60
    while text not in log.read_text():
        assert proc.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, f"never logged {text!r}"
        time.sleep(0.1)


def _wait_scraped(log: Path, proc, at_least: int) -> None:
    """LogStats says how many items passed every stage (so are in the store stage's buffer)."""
    deadline = time.monotonic() + 180
    while True:
        counts = [int(n) for n in re.findall(r"scraped (\d+) items", log.read_text())]
        if counts and counts[-1] >= at_least:
            return
        assert proc.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, "the crawl scraped too little in time"
        time.sleep(0.2)


def test_a_forced_stop_spills_the_buffer_and_exits_non_zero(tmp_path):
    big = build_big_site(N)
    site = GatedSite(big, free=FREE)
    spill = ["-s", f"SACORPUS_STORE_SPILL_DIR={tmp_path / 'spill'}"]
    log = tmp_path / "crawl.log"
    with site.serve() as server:
        first = start(
            tmp_path, server.base_url, *SLOW, *spill, *HELD_IN_BUFFER, "-s", "LOGSTATS_INTERVAL=0.5"
        )
        try:
            _wait_scraped(log, first, FREE)
            first.send_signal(signal.SIGTERM)
            # twice: Scrapy's forced stop; only once the first was taken (two at once are one signal)
            _wait_for(log, first, "shutting down gracefully")
            first.send_signal(signal.SIGTERM)
            code = first.wait(timeout=120)
        finally:
            if first.poll() is None:
                first.kill()
                first.wait()
        text = log.read_text()
        assert code == 1, text[-3000:]
        assert "stopped by force before the crawl finished" in text, text[-3000:]
        assert "stopped by force before they were written: spilled" in text, text[-3000:]
        assert "Traceback" not in text
        spilled = _spilled(tmp_path / "spill")
        # every scraped article is in the store or the spill file: the buffer did not die with the process
        assert len(spilled) >= FREE and len(stored(tmp_path)) + len(spilled) >= FREE, text[-3000:]
        assert f"{len(spilled)} articles could not be stored and were spilled" in text

        site.opened.set()
        resumed = start(
            tmp_path, server.base_url, *spill, "-s", "SACORPUS_DEDUP_ENABLED=False", log="resumed.log"
        )
        assert resumed.wait(timeout=240) == 0, (tmp_path / "resumed.log").read_text()[-3000:]
    urls = stored(tmp_path)
    assert len(urls) == len(set(urls)) == len(big.articles), "an article was lost or stored twice"
    assert set(spilled) <= set(urls)
    assert not _spilled(tmp_path / "spill"), "the spill file was re-imported and emptied"
