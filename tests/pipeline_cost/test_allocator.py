"""A long crawl hands freed memory back to the system: glibc's threshold fixed, the heap trimmed.

Each probe runs in a fresh process (the threshold is process-wide and moves with what the process has
freed before): a 4 MB block is freed first, which moves glibc's threshold above the 200 KB blocks that
follow, as a model's load or a large page does in a crawl.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.allocator import AllocatorRelease, allocator_settings, glibc

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from sacorpus.allocator import fix_mmap_threshold, glibc, release
def anon():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon"):
            return int(line.split()[1]) // 1024
libc = glibc()
if sys.argv[1] == "fixed":
    fix_mmap_threshold(libc, 128)
big = b"y" * 4_000_000
del big
base = anon()
blocks = [b"x" * 200_000 for _ in range(300)]  # 60 MB
last = blocks[-1]  # kept: the heap's top is in use, so freeing the rest cannot shrink it
del blocks
freed = anon()
release(libc)
print(base, freed, anon())
"""

needs_glibc = pytest.mark.skipif(glibc() is None or not Path("/proc/self/status").exists(), reason="glibc")


def _probe(mode: str) -> tuple[int, int, int]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout
    base, freed, trimmed = (int(x) for x in out.split())
    return base, freed, trimmed


@needs_glibc
def test_freed_heap_stays_resident_until_trimmed() -> None:
    base, freed, trimmed = _probe("moving")
    assert freed - base > 40  # of 60 MB freed, glibc kept most resident
    assert trimmed - base < 10  # malloc_trim handed it back


@needs_glibc
def test_a_fixed_threshold_returns_large_blocks_when_freed() -> None:
    base, freed, _ = _probe("fixed")
    assert freed - base < 10


def _crawler(**settings: object) -> Any:
    return get_crawler(settings_dict={"EXTENSIONS": {}, **settings})


@needs_glibc
def test_the_extension_trims_every_n_items() -> None:
    crawler = _crawler(SACORPUS_MALLOC_TRIM_EVERY=3)
    ext = AllocatorRelease.from_crawler(crawler)
    for _ in range(7):
        crawler.signals.send_catch_log(signals.item_scraped, item={}, response=None, spider=None)
    assert ext.releaser.ticks == 7
    assert crawler.stats.get_value("sacorpus/memory/trims") == 2


def test_the_extension_is_off_when_both_settings_are() -> None:
    crawler = _crawler(SACORPUS_MALLOC_TRIM_EVERY=0, SACORPUS_MALLOC_MMAP_THRESHOLD_KB=0)
    with pytest.raises(NotConfigured, match="off"):
        AllocatorRelease.from_crawler(crawler)


@needs_glibc
def test_the_crawl_and_its_page_workers_are_tuned_alike() -> None:
    from scrapy.utils.project import get_project_settings

    from sacorpus.pipelines.page import _workers
    from sacorpus.text.page import PageOptions

    settings = get_project_settings()
    assert "sacorpus.allocator.AllocatorRelease" in settings.getdict("EXTENSIONS")
    assert allocator_settings(settings) == (128, 100)
    settings.set("SACORPUS_PAGE_WORKERS", 1)
    settings.set("SACORPUS_MALLOC_TRIM_EVERY", 7)
    workers = _workers(SimpleNamespace(settings=settings, stats=None), PageOptions())
    assert workers is not None
    assert workers.setup.allocator == (128, 7)
