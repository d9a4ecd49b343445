"""The project's settings as Scrapy would read them, without importing Scrapy.

Why: ``sacorpus stats`` runs a corpus command without Scrapy's start-up (see
:mod:`sacorpus.corpus.command`) but must read exactly the settings ``scrapy stats`` reads: the module
named by ``SCRAPY_SETTINGS_MODULE`` or by the ``[settings]`` section of the scrapy.cfg files Scrapy
reads (the project's own ``sacorpus.settings`` when there is none), over the command's defaults, under
the ``-s NAME=VALUE`` overrides. The priorities are Scrapy's: command < project < command line.
The getters follow Scrapy's ``BaseSettings`` (``getbool("0")`` is False, ``getlist("a,b")`` splits).
"""

from __future__ import annotations

import configparser
import importlib
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

DEFAULT_MODULE = "sacorpus.settings"


class ProjectSettings(dict[str, Any]):
    """Setting name -> value, with Scrapy's typed getters (missing names read as the default)."""

    def getbool(self, name: str, default: bool = False) -> bool:
        value = self.get(name, default)
        if value in (True, "True", "true", "1", 1):
            return True
        if value in (False, "False", "false", "0", 0, None, ""):
            return False
        raise ValueError(f"setting {name}={value!r} is not a boolean")

    def getint(self, name: str, default: int = 0) -> int:
        return int(self.get(name, default))

    def getfloat(self, name: str, default: float = 0.0) -> float:
        return float(self.get(name, default))

    def getlist(self, name: str, default: list[Any] | None = None) -> list[Any]:
        value = self.get(name, default or [])
        if not value:
            return []
        return value.split(",") if isinstance(value, str) else list(value)

    def copy(self) -> ProjectSettings:
        return ProjectSettings(self)

    def set(self, name: str, value: Any, priority: Any = None) -> None:
        self[name] = value


def _config_files() -> list[Path]:
    """The scrapy.cfg files Scrapy reads, lowest priority first (``scrapy.utils.conf.get_sources``)."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    files = [Path("/etc/scrapy.cfg"), Path(r"c:\scrapy\scrapy.cfg"), Path(xdg) / "scrapy.cfg"]
    files.append(Path(os.path.expanduser("~/.scrapy.cfg")))
    closest = closest_config()
    if closest is not None:
        files.append(closest)
    return files


def closest_config(start: Path | None = None) -> Path | None:
    """The scrapy.cfg in this directory or the nearest parent (the project's directory)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "scrapy.cfg").is_file():
            return folder / "scrapy.cfg"
    return None


def settings_module() -> str:
    """The settings module Scrapy would load here (``sacorpus.settings`` outside any project, as the
    ``sacorpus`` script tells Scrapy); like Scrapy, the project's directory is put on ``sys.path`` so
    a project module next to scrapy.cfg imports."""
    named = os.environ.get("SCRAPY_SETTINGS_MODULE")
    closest = closest_config()
    if closest is not None and str(closest.parent) not in sys.path:
        sys.path.append(str(closest.parent))
    if named:
        return named
    if closest is None:  # outside a project: the project's own settings (what ``sacorpus`` is for)
        return DEFAULT_MODULE
    config = configparser.ConfigParser()
    config.read([str(f) for f in _config_files()], encoding="utf-8")
    project = os.environ.get("SCRAPY_PROJECT", "default")
    if config.has_option("settings", project):
        return config.get("settings", project)
    return DEFAULT_MODULE


def parse_overrides(pairs: Iterable[str]) -> dict[str, str]:
    """``-s NAME=VALUE`` arguments as a dict; ValueError for one without ``=``."""
    found: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(pair)
        found[name] = value
    return found


def project_settings(command_defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> ProjectSettings:
    """The command's defaults, then the project's settings module, then the overrides."""
    settings = ProjectSettings(command_defaults)
    module = importlib.import_module(settings_module())
    settings.update({k: getattr(module, k) for k in dir(module) if k.isupper()})
    settings.update(overrides)
    return settings
