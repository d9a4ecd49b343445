"""Labelled extraction datasets: the two third-party formats ``scrapy evaluate`` understands.

Nothing is copied; the folder layout is detected:

* Fundus-style: ``ground_truth.jsonl`` with one object per page: ``html_path`` (gzip HTML relative to the
  folder), ``url``, ``title``, ``authors`` (list or null), ``publishing_date`` (ISO with offset),
  ``body_text``.
* trafilatura-style: ``evaldata.json`` mapping URL -> {"file", "with": [...], "without": [...], ...};
  pages under ``eval/`` or ``cache/`` (optionally ``.gz``).

A field the truth leaves empty is ``None`` and not scored (a page with no stated authors says nothing
about author extraction).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Page:
    id: str
    url: str | None
    body: bytes  # as stored (often still gzip: the page core undoes it like a crawl would)
    title: str | None = None
    authors: list[str] | None = None
    date: str | None = None  # YYYY-MM-DD as the page states it
    body_text: str | None = None
    with_snippets: list[str] = field(default_factory=list)
    without_snippets: list[str] = field(default_factory=list)


def detect_format(root: Path) -> str:
    if (root / "ground_truth.jsonl").is_file():
        return "fundus"
    if (root / "evaldata.json").is_file():
        return "trafilatura"
    raise ValueError(f"{root}: neither ground_truth.jsonl (Fundus) nor evaldata.json (trafilatura) found")


def day(value: object) -> str | None:
    """The YYYY-MM-DD at the start of an ISO date string, else None."""
    if not isinstance(value, str):
        return None
    m = re.match(r"\s*(\d{4}-\d{2}-\d{2})", value)
    return m.group(1) if m else None


def load_pages(root: Path, limit: int | None = None) -> tuple[str, list[Page]]:
    fmt = detect_format(root)
    pages = load_fundus(root) if fmt == "fundus" else load_trafilatura(root)
    return fmt, [p for n, p in enumerate(pages) if limit is None or n < limit]


def load_fundus(root: Path) -> Iterator[Page]:
    with (root / "ground_truth.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            yield Page(
                id=rec.get("id") or rec["html_path"],
                url=rec.get("url"),
                body=(root / rec["html_path"]).read_bytes(),
                title=rec.get("title"),
                authors=rec.get("authors") or None,
                date=day(rec.get("publishing_date")),
                body_text=rec.get("body_text") or "",
            )


def _page_path(root: Path, name: str) -> Path | None:
    for sub in ("eval", "cache", "."):
        for candidate in (name + ".gz", name):
            if (root / sub / candidate).is_file():
                return root / sub / candidate
    return None


def _authors(raw: object) -> list[str] | None:
    if isinstance(raw, str) and raw.strip():
        return [a.strip() for a in re.split(r";|\|", raw) if a.strip()]
    if isinstance(raw, list):
        return [str(a).strip() for a in raw if str(a).strip()] or None
    return None


def load_trafilatura(root: Path) -> Iterator[Page]:
    data = json.loads((root / "evaldata.json").read_text(encoding="utf-8"))
    for url, rec in data.items():
        path = _page_path(root, rec["file"])
        if path is None:
            continue
        title = rec.get("title")
        yield Page(
            id=rec["file"],
            url=url,
            body=path.read_bytes(),
            title=title if isinstance(title, str) else None,
            authors=_authors(rec.get("author")),
            date=day(rec.get("date")),
            with_snippets=list(rec.get("with") or []),
            without_snippets=list(rec.get("without") or []),
        )


__all__ = ["Page", "day", "detect_format", "load_fundus", "load_pages", "load_trafilatura"]
