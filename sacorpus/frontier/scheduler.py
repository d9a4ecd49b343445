"""A Scrapy scheduler whose JOBDIR survives SIGKILL (see :mod:`sacorpus.frontier.jobstate`).

Only ``open``/``close`` differ from Scrapy's: before the disk queue is loaded, a job whose last run
was killed has its stale queue directory removed and its seen filter cleared (the spider lists its
sources again and the store skips what was saved). The run's :class:`JobState` is put on the
spider as ``spider.sacorpus_job`` so sources can tell "resumed", "recovering" and "fresh" apart.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

from scrapy.core.scheduler import Scheduler

from sacorpus.frontier import jobstate
from sacorpus.runlock import REFUSED_REASON, holder_name
from sacorpus.storage.filelock import FileLock
from sacorpus.verdict import REFUSED

logger = logging.getLogger(__name__)

#: the file in a JOBDIR that the run using it holds locked (see :mod:`sacorpus.runlock`)
LOCK_FILE = "run.lock"


class ResumableScheduler(Scheduler):
    jobdir_lock: FileLock | None = None
    previous_job: dict | None = None

    def open(self, spider: Any) -> Any:
        self.job: jobstate.JobState | None = None
        spider.sacorpus_job = None
        if self.dqdir and not self._lock_jobdir(spider):
            self.dqdir = None  # never touch the queue of the run that holds this JOBDIR
            return super().open(spider)
        if self.dqdir:
            jobdir = Path(self.dqdir).parent
            self.previous_job = jobstate.read(jobdir)
            self.job = jobstate.begin(jobdir)
            if self.job.recovered:
                shutil.rmtree(self.dqdir, ignore_errors=True)
                Path(self.dqdir).mkdir(parents=True, exist_ok=True)
                if self.stats is not None:
                    self.stats.set_value("sacorpus/frontier/recovered_from_kill", 1)
            new_run = not self.job.resumed
            if hasattr(self.df, "begin_run"):
                self.df.begin_run(self.job.run, fresh=new_run)
        spider.sacorpus_job = self.job
        return super().open(spider)

    def _lock_jobdir(self, spider: Any) -> bool:
        """Take ``JOBDIR/run.lock`` before reading anything there; False (and the run's refusal reason
        in the stats) when another live run holds it. A killed run's lock ends with its process."""
        settings = getattr(getattr(self, "crawler", None), "settings", None)
        if settings is not None and not settings.getbool("SACORPUS_RUN_LOCK_ENABLED", True):
            return True
        jobdir = Path(str(self.dqdir)).parent
        lock = FileLock(jobdir / LOCK_FILE)
        try:
            other = lock.acquire(holder_name(spider.name))
        except OSError as exc:
            other = f"the lock file cannot be used ({exc})"
        if other is None:
            self.jobdir_lock = lock
            return True
        if self.stats is not None:
            self.stats.set_value(REFUSED, f"another run of {spider.name} is using JOBDIR {jobdir}: {other}")
        return False

    def close(self, reason: str) -> Any:
        result = super().close(reason)
        if self.dqdir and self.job is not None and reason == REFUSED_REASON:
            jobstate.restore(Path(self.dqdir).parent, self.previous_job)  # the store refused: no run
        elif self.dqdir and self.job is not None:
            jobstate.end(Path(self.dqdir).parent, self.job, reason)
        if self.jobdir_lock is not None:
            self.jobdir_lock.release()
        return result
