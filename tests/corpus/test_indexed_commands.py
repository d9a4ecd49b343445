"""The corpus commands answer from the store's index and kept counts exactly as a full scan would."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from corpus_fixtures import run_command

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "storage"))
from test_compact import old_records, write_old_sqlite


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--lower",),
        ("--publication", "mg"),
        ("--language", "en", "--since", "2024-02", "--until", "2024-03"),
        ("--exclude-duplicates",),
    ],
)
def test_wordlist_from_kept_counts_equals_a_recount(run, args: tuple[str, ...]) -> None:
    kept = run("wordlist", *args)
    recount = run("wordlist", "--recount", *args)
    assert kept.returncode == 0 and recount.returncode == 0, kept.stderr + recount.stderr
    assert "from the kept counts" in kept.stderr and "from the stored tokens" in recount.stderr
    assert kept.stdout == recount.stdout and kept.stdout.count("\n") > 1


def test_wordlist_check_says_the_counts_equal_a_recount(run) -> None:
    res = run("wordlist", "--check")
    assert res.returncode == 0, res.stderr
    assert "equal a full recount" in res.stderr
    read = re.search(r"^(\d+) articles counted of (\d+) read", res.stderr, re.M)
    assert read and read[1] == read[2] and int(read[1]) > 0, res.stderr  # the recount's articles


@pytest.mark.parametrize("pattern", ["water", "Water", "ate", "land reform"])
def test_search_narrowed_by_the_index_equals_a_scan(run, pattern: str) -> None:
    indexed = run("search", pattern)
    scanned = run("search", "--regex", f"({pattern})")  # a group has no literal part: every article is read
    assert indexed.returncode == 0 and indexed.stdout == scanned.stdout


def test_compact_command_migrates_an_old_store_and_the_commands_use_its_indexes(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    write_old_sqlite(path, old_records())
    before = run_command("wordlist", "--no-progress", store=path)
    assert before.returncode == 0 and "from the stored tokens" in before.stderr  # reads as it is
    res = run_command("compact", "--no-progress", store=path)
    assert res.returncode == 0, res.stderr
    assert "7 articles rewritten" in res.stderr
    after = run_command("wordlist", "--no-progress", store=path)
    assert after.returncode == 0 and "from the kept counts" in after.stderr
    assert after.stdout == before.stdout
    assert run_command("wordlist", "--check", "--no-progress", store=path).returncode == 0
