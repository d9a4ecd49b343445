"""Secrets never reach a log line: credentials in URIs and password parameters are masked.

Why: crawls log the URIs of Redis, MongoDB and proxies (in "Overridden settings", in connection errors,
in tracebacks of driver exceptions), and scrapyd serves those logs over HTTP. :func:`redact` masks the
password of ``scheme://user:password@host`` and ``password=...``-style parameters;
:class:`RedactingFilter` applies it to every record a log handler writes, exception text included;
:class:`RedactSecretsAddon` installs the filter on the root handlers before the crawl logs anything of
its own (add-ons are loaded before Scrapy logs the overridden settings).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from sacorpus import settings as defaults

MASK = "***"
# scheme://user:password@  (also ://:password@, as Redis URIs with a password only have)
_URI_PASSWORD = re.compile(r"(?P<head>\b[a-z][a-z0-9+.\-]*://[^\s/@:]*:)(?P<secret>[^\s@/]+)(?=@)", re.I)
# password=..., passwd: ..., secret=..., token=..., api_key=... in query strings, settings and messages
_PARAM_SECRET = re.compile(
    r"(?P<head>\b(?:(?:require)?pass(?:word|wd)?|pwd|secret|token|api[_-]?key|auth)\b[\"']?\s*[=:]\s*[\"']?)"
    r"(?P<secret>[^\s&\"',;}]+)",
    re.I,
)


def redact(text: str) -> str:
    """``text`` with every URI password and password-like parameter masked."""
    if not text or ("@" not in text and "=" not in text and ":" not in text):
        return text
    text = _URI_PASSWORD.sub(lambda m: m.group("head") + MASK, text)
    return _PARAM_SECRET.sub(lambda m: m.group("head") + MASK, text)


class RedactingFilter(logging.Filter):
    """A handler filter that rewrites each record with its secrets masked (message and traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: leave it to the handler
            return True
        masked = redact(message)
        if masked != message or record.args:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install(logger: logging.Logger | None = None) -> None:
    """Put one :class:`RedactingFilter` on every handler of ``logger`` (the root logger by default)."""
    logger = logger or logging.getLogger()
    for handler in logger.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())


class RedactSecretsAddon:
    """Scrapy add-on (in ``ADDONS``): masks secrets in every log line of the crawl."""

    def update_settings(self, settings: Any) -> None:
        if settings.getbool("SACORPUS_REDACT_LOGS", defaults.SACORPUS_REDACT_LOGS):
            install()


__all__ = ["MASK", "RedactSecretsAddon", "RedactingFilter", "install", "redact"]
