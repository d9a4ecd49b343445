"""Secrets are masked in log lines, exception text included."""

from __future__ import annotations

import logging

import pytest

from sacorpus.redact import RedactingFilter, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Redis at redis://:hunter2@127.0.0.1:6379/0 is not reachable", "hunter2"),
        ("mongodb://corpus:p%40ss-w0rd@db.example:27017/?authSource=admin", "p%40ss-w0rd"),
        ("{'MONGO_URI': 'mongodb://u:topsecret@h/db'}", "topsecret"),
        ("proxy http://user:pw123@proxy.example:3128 failed", "pw123"),
        ("AUTH failed: password=letmein&user=x", "letmein"),
        ("--requirepass: s3cr3t", "s3cr3t"),
    ],
)
def test_secrets_are_masked(text: str, secret: str) -> None:
    masked = redact(text)
    assert secret not in masked
    assert "***" in masked


def test_text_without_secrets_is_unchanged() -> None:
    text = "GET https://www.iol.co.za/news/a-story-123 200 (referer: None) at 12:30"
    assert redact(text) == text


def test_filter_masks_arguments_and_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("sacorpus.test.redact")
    handler_filter = RedactingFilter()
    record_holder: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            record_holder.append(record)

    handler = Keep()
    handler.addFilter(handler_filter)
    logger.addHandler(handler)
    try:
        logger.warning("cannot connect to %s", "redis://:hunter2@10.0.0.1:6379")
        try:
            raise ConnectionError("auth for mongodb://u:hunter2@db:27017 refused")
        except ConnectionError:
            logger.exception("store unusable")
    finally:
        logger.removeHandler(handler)
    text = "\n".join(logging.Formatter().format(r) for r in record_holder)
    assert "hunter2" not in text
    assert "redis://:***@10.0.0.1:6379" in text and "mongodb://u:***@db:27017" in text
