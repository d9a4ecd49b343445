"""Shared helpers for the item pipeline stages: on/off switches, stats counters, rules, the store."""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from sacorpus.storage.shared import SharedStore


def require_enabled(crawler: Any, stage: str) -> None:
    """Raise NotConfigured when ``SACORPUS_<STAGE>_ENABLED`` is false (default: enabled)."""
    name = f"SACORPUS_{stage.upper()}_ENABLED"
    if not crawler.settings.getbool(name, True):
        raise NotConfigured(f"{name} is false")


def enabled_store(crawler: Any, stage: str, unusable: str) -> SharedStore:
    """The crawl's shared store for a stage that needs one (dedup, store), not yet opened.

    Raises NotConfigured when the stage is switched off (see :func:`require_enabled`) or the store
    settings are unusable (the message starts with ``unusable``).
    """
    require_enabled(crawler, stage)
    shared = SharedStore.of(crawler)
    if shared.store is None:
        raise NotConfigured(f"{unusable}: {shared.problem}")
    return shared


def note(item: Any, problem: str) -> None:
    """Record a problem on the item whether it is an Article or a plain dict."""
    if hasattr(item, "note"):
        item.note(problem)
        return
    problems = ItemAdapter(item).get("problems")
    if isinstance(problems, list) and problem not in problems:
        problems.append(problem)


class Counter:
    """Thin wrapper so a stage can count without caring whether stats exist."""

    def __init__(self, stats: Any, prefix: str) -> None:
        self.stats = stats
        self.prefix = prefix

    def inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None and count:
            self.stats.inc_value(f"{self.prefix}/{key}", count)
