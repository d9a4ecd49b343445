"""Unknown project settings and bad values stop `scrapy crawl` with one line, before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from crawlkit import run_crawl
from scrapy.settings import Settings

from sacorpus.settings_check import setting_problems


def _settings(**overrides: object) -> Settings:
    settings = Settings()
    settings.setmodule("sacorpus.settings", priority="project")
    for name, value in overrides.items():
        settings.set(name, value, priority="cmdline")
    return settings


def test_project_defaults_have_no_problems() -> None:
    assert setting_problems(_settings()) == []


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"SACORPUS_STORE_BATCHSIZE": "10"},
            "unknown setting SACORPUS_STORE_BATCHSIZE (did you mean SACORPUS_STORE_BATCH_SIZE?)",
        ),
        ({"SACORPUS_NOT_A_THING": "1"}, "unknown setting SACORPUS_NOT_A_THING"),
        ({"SACORPUS_MAX_ARTICLES": "ten"}, "setting SACORPUS_MAX_ARTICLES='ten' is not a valid int"),
        ({"SACORPUS_REFETCH": "maybe"}, "setting SACORPUS_REFETCH='maybe' is not a valid bool"),
        (
            {"SACORPUS_DEDUP_DUPLICATE": "high"},
            "setting SACORPUS_DEDUP_DUPLICATE='high' is not a valid float",
        ),
        ({"SACORPUS_HOSTS": "{not json"}, "setting SACORPUS_HOSTS='{not json' is not a valid dict"),
    ],
)
def test_bad_settings_are_named(overrides: dict[str, str], expected: str) -> None:
    assert setting_problems(_settings(**overrides)) == [expected]


def test_good_overrides_pass() -> None:
    good = _settings(
        SACORPUS_MAX_ARTICLES="5", SACORPUS_REFETCH="true", SACORPUS_HOSTS='{"a.example": "1.2.3.4"}'
    )
    assert setting_problems(good) == []


def test_crawl_refuses_a_misspelt_setting_in_one_line(tmp_path: Path) -> None:
    run = run_crawl(
        "demo", tmp_path, "-s", "SACORPUS_STORE_BATCHSIZE=3", "-s", "SACORPUS_REFETCH=maybe", timeout=60
    )
    assert run.returncode == 2
    assert "did you mean SACORPUS_STORE_BATCH_SIZE?" in run.log and "SACORPUS_REFETCH='maybe'" in run.log
    assert "Traceback" not in run.log
    assert not run.items and not (tmp_path / "corpus.sqlite").exists()
