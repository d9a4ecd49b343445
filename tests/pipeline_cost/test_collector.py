"""A crawl's cyclic garbage collector runs at the crawl's thresholds, in its process and its page workers,
and the process gets its own thresholds back when the engine stops."""

from __future__ import annotations

import gc
import json
import logging
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.collector import CollectorThresholds, collector_thresholds

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _own_thresholds() -> Any:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def _crawler(**settings: object) -> Any:
    return get_crawler(settings_dict={"EXTENSIONS": {}, **settings})


def test_the_thresholds_hold_from_the_crawlers_making_to_the_engines_stop() -> None:
    gc.set_threshold(700, 10, 10)
    crawler = _crawler(SACORPUS_GC_THRESHOLDS=[15000, 12, 14])
    ext = CollectorThresholds.from_crawler(crawler)
    assert gc.get_threshold() == (15000, 12, 14)
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_threshold() == (700, 10, 10)
    assert ext.before == (700, 10, 10)


def test_the_project_default_is_on() -> None:
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    assert "sacorpus.collector.CollectorThresholds" in settings.getdict("EXTENSIONS")
    thresholds = collector_thresholds(settings)
    assert len(thresholds) == 3 and thresholds[0] > 700


def test_an_empty_setting_keeps_pythons_own() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(NotConfigured, match="empty"):
        CollectorThresholds.from_crawler(_crawler(SACORPUS_GC_THRESHOLDS=[]))
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("bad", [["many"], [0, 10, 10], [1, 2, 3, 4]])
def test_a_bad_setting_is_one_warning_and_python_s_own(bad: list[object], caplog: Any) -> None:
    gc.set_threshold(700, 10, 10)
    with caplog.at_level(logging.WARNING, logger="sacorpus.collector"), pytest.raises(NotConfigured):
        CollectorThresholds.from_crawler(_crawler(SACORPUS_GC_THRESHOLDS=bad))
    assert [r.message for r in caplog.records if "SACORPUS_GC_THRESHOLDS" in r.message]
    assert gc.get_threshold() == (700, 10, 10)


def test_page_workers_are_started_with_the_crawls_thresholds() -> None:
    from scrapy.utils.project import get_project_settings

    from sacorpus.pipelines.page import _workers
    from sacorpus.text.page import PageOptions

    settings = get_project_settings()
    settings.set("SACORPUS_PAGE_WORKERS", 1)
    settings.set("SACORPUS_GC_THRESHOLDS", [9000, 11, 13])
    workers = _workers(SimpleNamespace(settings=settings, stats=None), PageOptions())
    assert workers is not None
    assert workers.setup.collector == (9000, 11, 13)
    code = """
import dataclasses, gc, json, os, sys
from sacorpus.page_worker import WorkerSetup, start_worker
from sacorpus.text.page import PageOptions
setup = WorkerSetup(PageOptions(), (False, False, False), 10, collector=(9000, 11, 13))
before = gc.get_threshold()
start_worker(setup, os.getppid())
print(json.dumps({"before": before, "after": gc.get_threshold()}))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found == {"before": [700, 10, 10], "after": [9000, 11, 13]}
