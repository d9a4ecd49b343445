"""The installed `sacorpus` command works from any directory, and unknown filter values are errors.

Run as a user would: the console script in a subprocess, from a temporary directory with no
scrapy.cfg, where `scrapy stats` does not know the project's commands.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from servekit import sqlite_args

from sacorpus.testing.servers import free_port, stop_process, wait_until_listening

BIN = Path(sys.executable).parent
SACORPUS = BIN / "sacorpus"


def run(
    cwd: Path, *args: str, program: Path = SACORPUS, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH", "SCRAPY_SETTINGS_MODULE")
    }
    return subprocess.run(
        [str(program), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_crawl_and_corpus_commands_from_any_directory(tmp_path: Path) -> None:
    assert SACORPUS.exists(), "the sacorpus console script is not installed (pip install -e .)"
    store = ["-s", f"SACORPUS_SQLITE_PATH={tmp_path / 'corpus.sqlite'}"]
    elsewhere = run(tmp_path, "stats", program=BIN / "scrapy")
    assert "Unknown command: stats" in elsewhere.stdout + elsewhere.stderr  # why the command exists

    crawl = run(tmp_path, "crawl", "demo", *store, "-s", "LOG_LEVEL=WARNING")
    assert crawl.returncode == 0, crawl.stderr[-2000:]
    stats = run(tmp_path, "stats", "--by", "dedup_label", "--no-progress", *store)
    assert stats.returncode == 0, stats.stderr
    rows = dict(line.split("\t", 2)[:2] for line in stats.stdout.splitlines()[1:])
    assert int(rows["TOTAL"]) > 10 and int(rows["duplicate"]) >= 1
    kwic = run(tmp_path, "kwic", "the", "--limit", "3", "--no-progress", *store)
    assert kwic.returncode == 0 and len(kwic.stdout.splitlines()) == 3, kwic.stderr
    listed = run(tmp_path, "list")
    assert {"demo", "iol", "mg"} <= set(listed.stdout.split())
    assert not (tmp_path / "scrapy.cfg").exists()


def test_serve_from_any_directory(tmp_path: Path, browser_store: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(SACORPUS), "serve", "--port", str(port), *sqlite_args(browser_store)],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_until_listening(port, proc, "sacorpus serve", log=log)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=60) as answer:
            assert answer.status == 200 and b"7 of 7 articles" in answer.read()
    finally:
        stop_process(proc)
    assert f"corpus browser at http://127.0.0.1:{port}/" in log.read_text()


def test_serve_warns_off_loopback_and_fails_cleanly(tmp_path: Path, browser_store: Path) -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the bind fails locally, nothing is sent
    result = run(
        tmp_path,
        "serve",
        "--host",
        "192.0.2.1",
        "--port",
        str(free_port()),
        *sqlite_args(browser_store),
        timeout=60,
    )
    assert result.returncode == 1
    assert "WARNING: listening on 192.0.2.1, not loopback" in result.stderr
    assert "serve: cannot listen on 192.0.2.1" in result.stderr and "Traceback" not in result.stderr


COMMANDS = [
    ("search", "land"),
    ("kwic", "land"),
    ("wordlist",),
    ("collocations", "land"),
    ("stats",),
    ("export", "--format", "lines"),
    ("reextract",),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_unknown_filter_values_stop_every_corpus_command(
    command: tuple[str, ...], tmp_path: Path, browser_store: Path
) -> None:
    store = tmp_path / "corpus.sqlite"
    shutil.copy(browser_store, store)  # reextract writes when it runs: never to the shared corpus
    args = [*command, "--no-progress", *sqlite_args(store)]
    bad_pub = run(tmp_path, *args, "--publication", "iol,nope", timeout=60)
    assert bad_pub.returncode == 2 and bad_pub.stdout == ""
    assert "unknown publication nope; known: " in bad_pub.stderr and "news24" in bad_pub.stderr
    if command[0] not in ("search", "stats"):
        return  # the check is one piece of the shared command template: languages on two suffice
    bad_lang = run(tmp_path, *args, "--language", "afr", timeout=60)
    assert bad_lang.returncode == 2 and "unknown language afr; known: af, en" in bad_lang.stderr
    empty = run(tmp_path, *args, "--publication", "sabc", timeout=60)  # a file, nothing stored yet
    assert empty.returncode == 0 and "unknown" not in empty.stderr, empty.stderr
