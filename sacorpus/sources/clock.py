"""A clock that can run faster than real time, shared by the scheduler and the crawls it starts.

Why: a schedule paced by feeds that gain entries every few minutes takes hours to observe. A test (or a
dry run of a new pace) speeds the clock up; the scheduler hands the crawls it starts the same origin and
speed (``SACORPUS_CLOCK_ORIGIN``, ``SACORPUS_CLOCK_SPEED``), so the poll times the crawls store and the
due times the scheduler reads are on one time line. Simulated time equals real time at ``origin`` and
runs ``speed`` times faster after it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime


@dataclass(frozen=True)
class Clock:
    origin: float | None = None  # real epoch seconds where simulated time equals real time
    speed: float = 1.0
    real: Callable[[], float] = field(default=time.time, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.speed > 0:
            raise ValueError(f"clock speed must be positive, not {self.speed}")

    @classmethod
    def from_values(cls, origin: object = None, speed: object = 1.0) -> Clock:
        """A clock from setting values (strings or numbers; empty origin: now, when sped up)."""
        rate = float(str(speed)) if speed not in (None, "") else 1.0
        start = float(str(origin)) if origin not in (None, "") else None
        if rate != 1.0 and start is None:
            start = time.time()
        return cls(start, rate)

    @property
    def simulated(self) -> bool:
        return self.speed != 1.0 and self.origin is not None

    def timestamp(self) -> float:
        """Seconds since the epoch on this clock's time line."""
        now = self.real()
        if self.origin is None:
            return now
        return self.origin + (now - self.origin) * self.speed

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp(), UTC)

    def real_seconds(self, seconds: float) -> float:
        """How long ``seconds`` of this clock's time last in real time (for sleeping)."""
        return seconds / self.speed

    def settings(self) -> dict[str, str]:
        """The settings that give a crawl this clock (none for the real clock)."""
        if not self.simulated:
            return {}
        return {"SACORPUS_CLOCK_ORIGIN": repr(self.origin), "SACORPUS_CLOCK_SPEED": repr(self.speed)}
