"""The ``sacorpus`` console script: every scrapy command of the project, from any directory.

Why: ``scrapy stats`` only finds the project's commands and settings inside the project directory
(next to scrapy.cfg); elsewhere it answers "Unknown command". The installed ``sacorpus`` command
points Scrapy at the project's settings when no scrapy.cfg is found, then runs Scrapy's own command
line, so ``sacorpus crawl iol``, ``sacorpus kwic word`` or ``sacorpus serve`` work anywhere. Relative
paths (the SQLite file ``data/corpus.sqlite``, ``jobs/``) are relative to the current directory, as
with scrapy; set SACORPUS_SQLITE_PATH or MONGO_URI to use one corpus from everywhere.
"""

from __future__ import annotations

import os
import sys

SETTINGS_MODULE = "sacorpus.settings"


def main(argv: list[str] | None = None) -> None:
    from scrapy.utils.conf import closest_scrapy_cfg

    if not os.environ.get("SCRAPY_SETTINGS_MODULE") and not closest_scrapy_cfg():
        os.environ["SCRAPY_SETTINGS_MODULE"] = SETTINGS_MODULE
    from scrapy.cmdline import execute

    execute(["sacorpus", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    main()
