"""`scrapy dedup` opens its SQLite store with its own page cache and memory map
(``SACORPUS_DEDUP_SQLITE_CACHE_MB``), like the corpus commands, not the default one."""

from __future__ import annotations

from pathlib import Path

from scrapy.settings import Settings

from sacorpus import settings as defaults
from sacorpus.commands.dedup import dedup_store
from sacorpus.storage.base import with_sqlite_cache


def _pragmas(settings: Settings) -> tuple[int, int]:
    with dedup_store(settings) as store:
        conn = store._conn
        assert conn is not None
        return conn.execute("PRAGMA cache_size").fetchone()[0], conn.execute("PRAGMA mmap_size").fetchone()[0]


def _settings(db: Path, **extra: object) -> Settings:
    settings = Settings()
    settings.setmodule(defaults, priority="default")
    settings.set("SACORPUS_SQLITE_PATH", str(db), priority="cmdline")
    for name, value in extra.items():
        settings.set(name, value, priority="cmdline")
    return settings


def test_the_dedup_command_s_store_has_its_own_page_cache(tmp_path: Path) -> None:
    cache, mmap = _pragmas(_settings(tmp_path / "a.sqlite"))
    assert defaults.SACORPUS_DEDUP_SQLITE_CACHE_MB < defaults.SACORPUS_SQLITE_CACHE_MB
    assert cache == -defaults.SACORPUS_DEDUP_SQLITE_CACHE_MB * 1024  # negative: KiB
    assert mmap == 4 * defaults.SACORPUS_DEDUP_SQLITE_CACHE_MB * 1024 * 1024
    cache, mmap = _pragmas(_settings(tmp_path / "b.sqlite", SACORPUS_DEDUP_SQLITE_CACHE_MB=40))
    assert (cache, mmap) == (-40 * 1024, 160 * 1024 * 1024)


def test_the_caller_s_settings_are_left_as_they_were(tmp_path: Path) -> None:
    settings = _settings(tmp_path / "a.sqlite")
    changed = with_sqlite_cache(settings, "SACORPUS_DEDUP_SQLITE_CACHE_MB")
    assert changed.getint("SACORPUS_SQLITE_CACHE_MB") == defaults.SACORPUS_DEDUP_SQLITE_CACHE_MB
    assert settings.getint("SACORPUS_SQLITE_CACHE_MB") == defaults.SACORPUS_SQLITE_CACHE_MB
    assert with_sqlite_cache(settings, "NO_SUCH_SETTING") is settings
