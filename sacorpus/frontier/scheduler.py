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

logger = logging.getLogger(__name__)


class ResumableScheduler(Scheduler):
    def open(self, spider: Any) -> Any:
        self.job: jobstate.JobState | None = None
        if self.dqdir:
            jobdir = Path(self.dqdir).parent
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

    def close(self, reason: str) -> Any:
        result = super().close(reason)
        if self.dqdir and self.job is not None:
            jobstate.end(Path(self.dqdir).parent, self.job, reason)
        return result
