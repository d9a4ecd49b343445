"""A malformed publication file stops ``scrapy crawl`` with one line naming the file and the key."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from crawlkit import REPO


def test_crawl_with_a_malformed_publication_file_fails_clearly(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(REPO / "sacorpus", project / "sacorpus", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        REPO / "publications", project / "publications", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "scrapy.cfg", project / "scrapy.cfg")
    toml = project / "publications" / "iol.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace("languages = [", "langauges = [", 1), encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(project)}
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "iol", "-s", "JOBDIR="],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert "publications/iol.toml" in last and "'languages'" in last and "langauges" in last
    assert "Traceback" not in proc.stderr
