"""``sacorpus <corpus command>`` runs the command without Scrapy's start-up, with the same result.

Each case runs once through Scrapy's command line (``python -m scrapy``) and once through the
``sacorpus`` script's lean path, on the same store: stdout, stderr and the exit code must be equal,
usage errors and ``-s`` overrides included. A second test proves the lean path is lean: the modules
Scrapy's start-up costs (Scrapy, Twisted, OpenSSL) and those a query does not need (the language
models' numpy, lxml, trafilatura, pyarrow) are never imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import REPO, run_command

CASES = [
    ("stats", "--by", "language"),
    ("stats", "--publication", "nope"),  # unknown value: exit 2, the known ones listed
    ("search", "land", "--limit", "2"),
    ("search", "--regex", "("),  # a bad regex: a usage error
    ("kwic", "the", "--sort", "right", "--width", "20"),
    ("kwic",),  # no phrase: usage error with the help
    ("wordlist", "--top", "5", "--lower"),
    ("collocations", "the", "--window", "3", "--top", "5"),
    ("export", "--format", "lines", "--publication", "mg"),
    ("export", "--format", "vrt", "--fields", "url"),  # --fields with a fixed format: usage error
    ("stats", "-s", "BROKEN"),  # -s without NAME=VALUE
]


def run_lean(command: str, *args: str, store: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "sacorpus.console", command, *args]
    cmd += [
        "-s",
        f"SACORPUS_SQLITE_PATH={store}",
        "-s",
        f"SACORPUS_STORE_SPILL_PATH={store.parent / 'spill.jsonl'}",
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case", CASES, ids=[" ".join(c) for c in CASES])
def test_lean_path_answers_as_scrapy_does(case: tuple[str, ...], corpus_path: Path) -> None:
    command, *args = case
    scrapy = run_command(command, *args, "--no-progress", store=corpus_path)
    lean = run_lean(command, *args, "--no-progress", store=corpus_path)
    assert lean.returncode == scrapy.returncode, lean.stderr
    assert lean.stdout == scrapy.stdout
    if scrapy.returncode == 2:  # argparse's usage and error lines; Scrapy's help formatter differs
        assert scrapy.stderr.strip().splitlines()[-1].split("error: ")[-1] in lean.stderr
    else:
        assert lean.stderr == scrapy.stderr
    if case == CASES[0]:
        assert "en\t" in lean.stdout  # the case compares real output, not two empty runs


_PROBE = """
import json, sys
sys.argv = ["sacorpus", *sys.argv[1:]]
from sacorpus import console
try:
    console.main()
except SystemExit as exc:
    code = exc.code
heavy = ("scrapy", "twisted", "OpenSSL", "numpy", "lxml", "trafilatura", "pyarrow", "nltk", "aiohttp")
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(heavy))
print(json.dumps([code, loaded]), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [("stats",), ("search", "land"), ("kwic", "land"), ("wordlist",), ("collocations", "land"), ("export",)],
    ids=lambda a: a[0],
)
def test_lean_path_imports_no_scrapy_and_no_models(args: tuple[str, ...], corpus_path: Path) -> None:
    cmd = [sys.executable, "-c", _PROBE, *args, "--no-progress", "-s", f"SACORPUS_SQLITE_PATH={corpus_path}"]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    code, loaded = json.loads(proc.stderr.strip().splitlines()[-1])
    assert code == 0, proc.stderr
    assert proc.stdout.strip(), "the command wrote nothing"
    assert loaded == [], f"{args[0]} imported {loaded}"
