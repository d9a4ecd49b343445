"""Strict reading of a publication's TOML tables: every error names the file and the key.

Why a module of its own: validation (types, unknown keys with a typo hint, regular expressions, CSS
selectors and XPath compiled at load) is the same for every table of a publication file, and
:mod:`sacorpus.publications` stays the data model and its loader.
"""

from __future__ import annotations

import difflib
import re
from datetime import date
from typing import Any
from urllib.parse import urlsplit


class PublicationError(ValueError):
    """A publication file is malformed; the message names the file and the key."""


def is_xpath(selector: str) -> bool:
    return selector.startswith(("/", "(", "./"))


def selector_problem(selector: str, *, xpath_only: bool = False) -> str | None:
    """Why ``selector`` cannot be used (None when it compiles): CSS, or XPath when it looks like one."""
    from lxml import etree

    if not selector.strip():
        return "empty selector"
    if xpath_only or is_xpath(selector):
        try:
            etree.XPath(selector)
        except etree.XPathSyntaxError as exc:
            return f"bad XPath {selector!r}: {exc}"
        return None
    from cssselect import SelectorError
    from lxml.cssselect import CSSSelector

    try:
        CSSSelector(selector)
    except (SelectorError, etree.XPathSyntaxError) as exc:
        return f"bad CSS selector {selector!r}: {exc}"
    return None


class TomlReader:
    """Reads one TOML table strictly, naming file and key in every error."""

    def __init__(self, filename: str, table: dict[str, Any], prefix: str = "") -> None:
        self.filename = filename
        self.table = table
        self.prefix = prefix
        self.used: set[str] = set()

    def fail(self, key: str, problem: str) -> PublicationError:
        return PublicationError(f"{self.filename}: key '{self.prefix}{key}': {problem}")

    def get(
        self, key: str, kind: type | tuple[type, ...], *, required: bool = False, default: Any = None
    ) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                typo = difflib.get_close_matches(key, [k for k in self.table if isinstance(k, str)], n=1)
                hint = f" (is '{self.prefix}{typo[0]}' a typo?)" if typo else ""
                raise self.fail(key, f"missing (required){hint}")
            return default
        value = self.table[key]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {expected}, got {type(value).__name__} {value!r}")
        if isinstance(value, str) and required and not value.strip():
            raise self.fail(key, "must not be empty")
        return value

    def strings(self, key: str, *, required: bool = False, regex: bool = False) -> tuple[str, ...]:
        value = self.get(key, list, required=required, default=[])
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{key}[{i}]", f"expected a string, got {type(item).__name__} {item!r}")
            if regex:
                self.check_regex(f"{key}[{i}]", item)
        if required and not value:
            raise self.fail(key, "must list at least one value")
        return tuple(value)

    def selectors(self, key: str, *, xpath_only: bool = False) -> tuple[str, ...]:
        """A list of CSS selectors (or XPath, starting with ``/``, ``(`` or ``./``), each compiled now.

        A selector that does not compile would otherwise select nothing on every page, with a warning
        per page: it is a load error naming the file and the key instead.
        """
        values = self.strings(key)
        for i, value in enumerate(values):
            problem = selector_problem(value, xpath_only=xpath_only)
            if problem:
                raise self.fail(f"{key}[{i}]", problem)
        return values

    def urls(self, key: str) -> tuple[str, ...]:
        """A list of absolute http(s) URLs: a source without a scheme or host, or a ``file://`` one,
        is a load error (it would fetch nothing, or read the crawler's own disk)."""
        values = self.strings(key)
        for i, value in enumerate(values):
            self._check_url(f"{key}[{i}]", value)
        return values

    def url(self, key: str, *, required: bool = False) -> str | None:
        """One absolute http(s) URL (``home``, the Wayback ``homepage``), checked as :meth:`urls` are."""
        value = self.get(key, str, required=required)
        if value is not None:
            self._check_url(key, value)
        return value

    def _check_url(self, key: str, value: str) -> None:
        parts = urlsplit(value)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise self.fail(key, f"must be an absolute http(s) URL with a host, got {value!r}")

    def check_regex(self, key: str, pattern: str) -> None:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise self.fail(key, f"bad regular expression {pattern!r}: {exc}") from None

    def date(self, key: str) -> date | None:
        value = self.get(key, (str, date))
        if value is None or isinstance(value, date):
            return value
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise self.fail(key, f"not a date (YYYY-MM-DD): {value!r}") from None

    def sub(self, key: str) -> TomlReader | None:
        value = self.get(key, dict)
        return None if value is None else TomlReader(self.filename, value, f"{self.prefix}{key}.")

    def finish(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            raise self.fail(unknown[0], "unknown key (typo?)")
