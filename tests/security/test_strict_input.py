"""Strict input: unknown settings and run arguments, bad values, impossible publication values and files
in another encoding are one clear line (and exit 2 for `scrapy crawl`), never a traceback or silence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from crawlkit import REPO, run_crawl
from scrapy.settings import Settings

from sacorpus.publications import PublicationError, parse_publication, publication_text
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
        ({"SACORPUS_FEED_MAX_ITEMS": "ten"}, "setting SACORPUS_FEED_MAX_ITEMS='ten' is not a valid int"),
        ({"SACORPUS_REFETCH": "maybe"}, "setting SACORPUS_REFETCH='maybe' is not a valid bool"),
        (
            {"SACORPUS_DEDUP_DUPLICATE": "high"},
            "setting SACORPUS_DEDUP_DUPLICATE='high' is not a valid float",
        ),
        ({"SACORPUS_HOSTS": "{not json"}, "setting SACORPUS_HOSTS='{not json' is not a valid dict"),
        (
            {"SACORPUS_PAGE_WORKERS_START": "fork"},
            "setting SACORPUS_PAGE_WORKERS_START='fork' is not 'spawn' or 'forkserver'",
        ),
        ({"SACORPUS_PAGE_WORKERS": "two"}, "setting SACORPUS_PAGE_WORKERS='two' is not a valid int"),
    ],
)
def test_bad_settings_are_named(overrides: dict[str, str], expected: str) -> None:
    assert setting_problems(_settings(**overrides)) == [expected]


def test_good_overrides_pass() -> None:
    good = _settings(
        SACORPUS_FEED_MAX_ITEMS="5", SACORPUS_REFETCH="true", SACORPUS_HOSTS='{"a.example": "1.2.3.4"}'
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


DEMO = (REPO / "publications" / "demo.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ('languages = ["en", "zu", "af"]', 'languages = ["en", "zul"]'),
            "languages[1]': use the ISO 639-1 code 'zu' for 'zul'",
        ),
        (
            ('languages = ["en", "zu", "af"]', 'languages = ["english"]'),
            "'english' is not an ISO 639 language code",
        ),
        (
            ('feeds = ["http://demo.sacorpus.invalid/rss.xml"', 'feeds = ["file:///etc/passwd"'),
            "feeds[0]': must be an absolute http(s) URL",
        ),
        (
            (
                'sitemaps = ["http://demo.sacorpus.invalid/sitemap_index.xml"]',
                'sitemaps = ["demo.sacorpus.invalid/sitemap.xml"]',
            ),
            "sitemaps[0]': must be an absolute http(s) URL",
        ),
    ],
)
def test_publication_values_are_checked(change: tuple[str, str], expected: str) -> None:
    old, new = change
    assert old in DEMO
    with pytest.raises(PublicationError, match=re.escape(expected)):
        parse_publication("demo", DEMO.replace(old, new), "publications/demo.toml")


def test_languages_without_two_letter_code_and_opt_in_ua_retry_load() -> None:
    text = DEMO.replace('languages = ["en", "zu", "af"]', 'languages = ["nso"]\nbrowser_ua_retry = true')
    publication = parse_publication("demo", text)
    assert publication.languages == ("nso",) and publication.browser_ua_retry
    assert not parse_publication("demo", DEMO).browser_ua_retry, "off unless the file turns it on"


def test_a_publication_file_in_another_encoding_is_one_clear_error() -> None:
    raw = DEMO.replace("Demo Gazette", "Demo Gazette · Koerant vir Suid-Afrika: sê").encode("cp1252")
    with pytest.raises(PublicationError, match=r"publications/demo.toml: not UTF-8 text \(byte \d+\)"):
        publication_text(raw, "publications/demo.toml")


def test_unknown_run_arguments_are_one_line(tmp_path: Path) -> None:
    run = run_crawl("demo", tmp_path, "-a", "sinse=2026-01-01", "-a", "_job=abc", timeout=60)
    assert run.returncode == 2
    assert (
        "unknown run argument(s) sinse (did you mean since?)" in run.log
        and "_job" not in run.log.split("known:")[0]
    )
    assert "Traceback" not in run.log
