"""Settings are checked before a crawl starts: an unknown SACORPUS_* name or a bad value is one line.

Why: ``-s SACORPUS_STORE_BATCHSIZE=10`` (a typo) used to be accepted silently and change nothing, and
``-s SACORPUS_STORE_BATCH_SIZE=ten`` ended in a traceback deep inside the store. Every project setting
is declared in :mod:`sacorpus.settings`, so a name it does not declare is a mistake, and a value is
checked against the type of the declared default.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from scrapy.settings import BaseSettings

from sacorpus import settings as defaults
from sacorpus.sources.clock import Clock
from sacorpus.sources.pollstate import Limits

PREFIXES = ("SACORPUS_", "MONGO_")


def declared() -> dict[str, Any]:
    return {name: getattr(defaults, name) for name in dir(defaults) if name.startswith(PREFIXES)}


def _value_problem(settings: BaseSettings, name: str, default: Any) -> str | None:
    getter: dict[type, Callable[[str], Any]] = {
        bool: settings.getbool,
        int: settings.getint,
        float: settings.getfloat,
        dict: settings.getdict,
    }
    if isinstance(default, list):
        return None  # getlist accepts any string (comma-separated)
    read = getter.get(type(default))
    if read is None:
        return None
    try:
        read(name)
    except (ValueError, TypeError):
        return f"setting {name}={settings.get(name)!r} is not a valid {type(default).__name__}"
    return None


def _close_match(name: str, known: dict[str, Any]) -> str | None:
    """A declared name that ``name`` looks like a typo of (compared without the shared prefix)."""
    prefix = next(p for p in PREFIXES if name.startswith(p))
    tails = {k[len(prefix) :]: k for k in known if k.startswith(prefix)}
    hit = difflib.get_close_matches(name[len(prefix) :], tails, n=1, cutoff=0.8)
    return tails[hit[0]] if hit else None


def setting_problems(settings: BaseSettings) -> list[str]:
    """One line per unknown project setting or bad value (empty when all is well)."""
    known = declared()
    problems = []
    for name in sorted(k for k in settings if k.startswith(PREFIXES)):
        if name not in known:
            hint = _close_match(name, known)
            problems.append(f"unknown setting {name}" + (f" (did you mean {hint}?)" if hint else ""))
            continue
        if settings.getpriority(name) != settings.getpriority("BOT_NAME") or settings[name] != known[name]:
            problem = _value_problem(settings, name, known[name])
            if problem:
                problems.append(problem)
    return problems or _schedule_problems(settings) + _worker_problems(settings)


def _schedule_problems(settings: BaseSettings) -> list[str]:
    """The poll interval clamps and the clock, checked together (each value alone may be fine)."""
    problems = []
    names = ("SACORPUS_POLL_MIN_INTERVAL", "SACORPUS_POLL_MAX_INTERVAL", "SACORPUS_POLL_DEFAULT_INTERVAL")
    try:
        Limits(*(settings.getint(name) for name in names))
    except ValueError as exc:
        problems.append(f"settings {', '.join(names)}: {exc}")
    try:
        Clock.from_values(settings.get("SACORPUS_CLOCK_ORIGIN"), settings.get("SACORPUS_CLOCK_SPEED"))
    except ValueError as exc:
        problems.append(f"settings SACORPUS_CLOCK_ORIGIN, SACORPUS_CLOCK_SPEED: {exc}")
    return problems


def _worker_problems(settings: BaseSettings) -> list[str]:
    """How page workers start: only ways that are safe in a process with threads (never fork)."""
    start = settings.get("SACORPUS_PAGE_WORKERS_START")
    if start not in ("spawn", "forkserver"):
        return [f"setting SACORPUS_PAGE_WORKERS_START={start!r} is not 'spawn' or 'forkserver'"]
    return []


__all__ = ["declared", "setting_problems"]
