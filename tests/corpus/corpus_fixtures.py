"""Helpers of the corpus tests: a synthetic corpus and a runner for ``python -m scrapy <command>``.

The articles are written here (modelled on South African news items, no real text); tokens come from
the tokenize stage (sacorpus.text.tokenize), as a crawl would store them; the texts are plain
enough that the expected counts in the tests can still be worked out by hand.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sacorpus.items import Article

REPO = Path(__file__).resolve().parents[2]
_TOKEN = re.compile(r"\w+(?=n't\b)|n't\b|\w+|[^\w\s]")


def regex_tokenize(text: str) -> tuple[list[str], list[list[int]]]:
    """Tokens and [start, end] offsets; ``don't`` -> ``do n't`` as in the Penn Treebank."""
    matches = list(_TOKEN.finditer(text))
    return [m.group(0) for m in matches], [[m.start(), m.end()] for m in matches]


def tokenize(text: str, lang: str = "en") -> tuple[list[str], list[list[int]]]:
    """The tokenize stage's tokens and offsets (sacorpus.text.tokenize), else the regex above."""
    try:
        from sacorpus.text.tokenize import tokenize as stage_tokenize
    except ImportError:  # pragma: no cover - only while the stage was not written yet
        return regex_tokenize(text)
    result = stage_tokenize(text, lang)
    return list(result.tokens), [list(span) for span in result.offsets]


def make_article(
    url: str,
    publication: str,
    text: str,
    *,
    title: str | None = None,
    published_at: str | None = None,
    language: str = "en",
    dedup_label: str | None = "unique",
    links: list[dict[str, Any]] | None = None,
    quotes: list[dict[str, Any]] | None = None,
    fetched_at: str = "2024-04-01T00:00:00Z",
    html: str | None = None,
) -> dict[str, Any]:
    tokens, offsets = tokenize(text, language)
    title_tokens = tokenize(title, language)[0] if title else []
    article = Article(
        url=url,
        publication=publication,
        fetched_at=fetched_at,
        body=b"<html>raw bytes</html>",
        html=html or f"<html><body><p>{text}</p></body></html>",
        text=text,
        title=title,
        title_clean=title,
        title_tokens=title_tokens,
        published_at=published_at,
        language=language,
        tokens=tokens,
        token_offsets=offsets,
        token_count=len(tokens),
        word_count=sum(1 for t in tokens if any(c.isalnum() for c in t)),
        links=links or [],
        quotes=quotes or [],
        dedup_label=dedup_label,
    )
    return dataclasses.asdict(article)


def span(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, len(needle)


TEXT1 = "The land reform debate continued in Parliament.\nLand reform is urgent, said the minister."
TEXT2 = "Land reform is urgent, said the minister again."
TEXT3 = "Water shortages hit Johannesburg.\nResidents don't have water\tat all."
TEXT4 = "Die water is skoon."
TEXT5 = "Reform of the land laws."


def corpus_records() -> list[dict[str, Any]]:
    s, n = span(TEXT1, "Parliament")
    qs, qn = span(TEXT1, "Land reform is urgent")
    return [
        make_article(
            "https://iol.example/land-reform-1",
            "iol",
            TEXT1,
            title="Land reform: debate continues | IOL",
            published_at="2024-01-15T08:30:00Z",
            links=[
                {"url": "https://parliament.example/debate", "start": s, "length": n, "text": "Parliament"}
            ],
            quotes=[{"start": qs, "length": qn, "text": "Land reform is urgent", "style": "plain"}],
            fetched_at="2024-04-01T00:00:01Z",
        ),
        make_article(
            "https://iol.example/land-reform-2",
            "iol",
            TEXT2,
            title="Minister: land reform urgent",
            published_at="2024-02-03T10:00:00Z",
            dedup_label="duplicate",
            fetched_at="2024-04-01T00:00:02Z",
        ),
        make_article(
            "https://mg.example/water",
            "mg",
            TEXT3,
            title="Water\tshortages \\ Johannesburg",
            published_at="2024-02-20T23:59:59Z",
            fetched_at="2024-04-01T00:00:03Z",
        ),
        make_article(
            "https://news24.example/water-af",
            "news24",
            TEXT4,
            title="Water",
            published_at="2024-03-01T00:00:00Z",
            language="af",
            fetched_at="2024-04-01T00:00:04Z",
        ),
        make_article(
            "https://mg.example/undated",
            "mg",
            TEXT5,
            title="Reform",
            published_at=None,
            fetched_at="2024-04-01T00:00:05Z",
        ),
    ]


@dataclass
class CommandRun:
    returncode: int
    stdout: str
    stderr: str


def run_command(command: str, *args: str, store: Path | None, timeout: float = 60) -> CommandRun:
    """``python -m scrapy <command> ...`` in the repo, reading the SQLite file ``store``.

    MONGO_URI is removed from the environment so the SQLite store is used unless the args select
    MongoDB with ``-s``; the spill file is kept beside the store, never the repo's data/.
    """
    cmd = [sys.executable, "-m", "scrapy", command, *args]
    if store is not None:
        cmd += ["-s", f"SACORPUS_SQLITE_PATH={store}"]
        cmd += ["-s", f"SACORPUS_STORE_SPILL_PATH={store.parent / 'spill.jsonl'}"]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    return CommandRun(proc.returncode, proc.stdout, proc.stderr)
