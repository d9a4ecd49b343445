"""Run bookkeeping for a JOBDIR: which run this is, and whether the last one ended cleanly.

Scrapy writes the disk queue's index (``requests.queue/active.json``) only on a clean close. After
SIGKILL (or a power cut) the queue files on disk no longer match any index, and Scrapy's seen-file
still lists requests that were queued but never answered, so resuming would silently lose them.

So each JOBDIR carries ``sacorpus-job.json``: ``{"run": <id>, "status": "running" | "paused" |
"finished", "recovered": <id of a crashed run or null>}``. A run that finds ``"running"`` knows its
predecessor was killed: it discards the queue and the seen set and starts a new run id; the
spider then lists its sources again (feeds, sitemaps and Wayback windows of the killed run) and
the store's already-stored check skips what was saved. A ``"paused"`` job (Ctrl-C, CLOSESPIDER_*)
resumes with the same run id, queue and seen set; a ``"finished"`` one starts a fresh run.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

logger = logging.getLogger(__name__)
FILENAME = "sacorpus-job.json"


@dataclass
class JobState:
    run: str
    status: str = "running"
    recovered: str | None = None  # the run id of a killed run this one recovers from
    resumed: bool = False  # same run continued after a clean pause

    @staticmethod
    def new_run_id() -> str:
        return uuid.uuid4().hex[:12]


def read(jobdir: str | Path) -> dict | None:
    path = Path(jobdir, FILENAME)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write(jobdir: str | Path, state: JobState) -> None:
    """Atomic replace, so a kill during the write leaves the old file or the new one."""
    path = Path(jobdir, FILENAME)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(state)), encoding="utf-8")
    os.replace(tmp, path)


def begin(jobdir: str | Path) -> JobState:
    """Decide this run's identity from the previous run's status, and mark the job running."""
    previous = read(jobdir)
    if previous is None:
        state = JobState(run=JobState.new_run_id())
    elif previous.get("status") == "paused":
        state = JobState(run=str(previous.get("run")), resumed=True)
    elif previous.get("status") == "running":
        state = JobState(run=JobState.new_run_id(), recovered=str(previous.get("run")))
        logger.warning(
            "the previous run %s in %s did not close cleanly (killed?): recovering",
            previous.get("run"),
            jobdir,
        )
    else:
        state = JobState(run=JobState.new_run_id())
    write(jobdir, state)
    return state


def restore(jobdir: str | Path, previous: dict | None) -> None:
    """Put back the job file a run found (a run refused after it opened the JOBDIR did no run)."""
    path = Path(jobdir, FILENAME)
    if previous is None:
        path.unlink(missing_ok=True)
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(previous), encoding="utf-8")
    os.replace(tmp, path)


def end(jobdir: str | Path, state: JobState, reason: str) -> None:
    state.status = "finished" if reason == "finished" else "paused"
    write(jobdir, state)
