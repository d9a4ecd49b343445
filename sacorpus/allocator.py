"""A long crawl gives the memory it has freed back to the system (glibc's malloc; elsewhere nothing).

Why: a crawl parses pages of a few hundred kilobytes each, one after another, for hours. glibc's
``malloc`` raises its mmap threshold to the size of the largest block freed so far (up to 32 MB on
64-bit), so once the language model's load or a large page has freed a big block, later page buffers
come from the heap instead of from mappings of their own; freed heap memory that is not at the top of
the heap stays resident. Measured over 1,000 real pages (``benchmarks/crawl_cost.py``): about 45 MB of
a crawl's resident memory was free heap that ``malloc_trim`` handed back.

:class:`AllocatorRelease` fixes the mmap threshold when the crawler is made
(``SACORPUS_MALLOC_MMAP_THRESHOLD_KB``; large buffers then always come from mappings returned when
freed) and calls ``malloc_trim(0)`` every ``SACORPUS_MALLOC_TRIM_EVERY`` items, counting
``sacorpus/memory/trims``; page workers (``SACORPUS_PAGE_WORKERS``) do the same every that many pages.
Both settings at 0 turn it off; where the C library is not glibc there is nothing to tune.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from sacorpus import settings as defaults

logger = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number (malloc.h)


def glibc() -> Any | None:
    """The process's C library when it is glibc (it has ``malloc_trim`` and ``mallopt``), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    if not (hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt")):
        return None
    return libc


def fix_mmap_threshold(libc: Any, kilobytes: int) -> bool:
    """Blocks of at least ``kilobytes`` come from mappings of their own, returned when freed (glibc
    stops moving the threshold once it is set)."""
    return bool(libc.mallopt(M_MMAP_THRESHOLD, ctypes.c_int(kilobytes * 1024)))


def release(libc: Any) -> bool:
    """Hand free heap memory back to the system; True when some was."""
    return bool(libc.malloc_trim(ctypes.c_size_t(0)))


class PeriodicRelease:
    """Calls :func:`release` every ``every`` ticks (items scraped, or a page worker's tasks)."""

    def __init__(self, libc: Any, every: int) -> None:
        self.libc = libc
        self.every = every
        self.ticks = 0

    def tick(self) -> bool:
        """Count one; True when this one released."""
        self.ticks += 1
        if self.every <= 0 or self.ticks % self.every:
            return False
        release(self.libc)
        return True


def tune(threshold_kb: int, trim_every: int) -> PeriodicRelease | None:
    """Fix the threshold now (before the models load: their temporaries would move it) and return what
    trims every ``trim_every`` ticks; None when both are off or the C library is not glibc."""
    libc = glibc() if threshold_kb > 0 or trim_every > 0 else None
    if libc is None:
        return None
    if threshold_kb > 0 and not fix_mmap_threshold(libc, threshold_kb):
        logger.warning("mallopt refused an mmap threshold of %d KB", threshold_kb)
    return PeriodicRelease(libc, trim_every)


def allocator_settings(settings: Any) -> tuple[int, int]:
    """(mmap threshold KB, trim every N items) of the crawl; page workers are started with the same."""
    return (
        settings.getint("SACORPUS_MALLOC_MMAP_THRESHOLD_KB", defaults.SACORPUS_MALLOC_MMAP_THRESHOLD_KB),
        settings.getint("SACORPUS_MALLOC_TRIM_EVERY", defaults.SACORPUS_MALLOC_TRIM_EVERY),
    )


class AllocatorRelease:
    """The extension: fixes the threshold when the crawler is made and trims every N items scraped."""

    def __init__(self, releaser: PeriodicRelease, stats: Any = None) -> None:
        self.releaser = releaser
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> AllocatorRelease:
        threshold, every = allocator_settings(crawler.settings)
        if every <= 0 and threshold <= 0:
            raise NotConfigured("SACORPUS_MALLOC_TRIM_EVERY and SACORPUS_MALLOC_MMAP_THRESHOLD_KB are off")
        releaser = tune(threshold, every)
        if releaser is None:
            raise NotConfigured("the C library is not glibc: nothing to tune")
        ext = cls(releaser, crawler.stats)
        if every > 0:
            crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        return ext

    def item_scraped(self) -> None:
        if self.releaser.tick() and self.stats is not None:
            self.stats.inc_value("sacorpus/memory/trims")


__all__ = [
    "AllocatorRelease",
    "PeriodicRelease",
    "allocator_settings",
    "fix_mmap_threshold",
    "glibc",
    "release",
    "tune",
]
