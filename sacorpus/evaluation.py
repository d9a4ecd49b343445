"""Extraction evaluation: sacorpus against bare trafilatura on the same pages, in the same run.

Two third-party dataset formats are understood (the folder layout is detected, nothing is copied):

* Fundus-style: ``ground_truth.jsonl`` with one object per page: ``html_path`` (gzip HTML relative to
  the folder), ``url``, ``title``, ``authors`` (list or null), ``publishing_date`` (ISO with offset),
  ``body_text``. Scored by body precision/recall/F1 over bags of whitespace tokens, and exact-match
  rates for title, authors (as a set, whitespace and case normalised) and date (the day as the page
  states it, i.e. in the page's own offset).
* trafilatura-style: ``evaldata.json`` mapping URL -> {"file", "with": [...], "without": [...], ...};
  pages under ``eval/`` or ``cache/`` (optionally ``.gz``). Body scored as trafilatura's own
  evaluation does: a "with" snippet found is a true positive, a "without" snippet found a false
  positive; plus title/author/date exact match where the dataset gives them.

The sacorpus side runs the crawl path itself (:func:`sacorpus.text.extract.process_page`: gzip,
decode, pre-clean, extract, metadata), so what is measured is what a crawl stores.
"""

from __future__ import annotations

import gzip
import json
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sacorpus.text.extract import process_page


@dataclass
class Page:
    id: str
    url: str | None
    body: bytes
    title: str | None = None
    authors: list[str] | None = None
    date: str | None = None  # YYYY-MM-DD as the page states it
    body_text: str | None = None
    with_snippets: list[str] = field(default_factory=list)
    without_snippets: list[str] = field(default_factory=list)


@dataclass
class Prediction:
    text: str
    title: str | None
    authors: list[str]
    date: str | None
    seconds: float


@dataclass
class Score:
    name: str
    pages: int = 0
    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0
    title: list[bool] = field(default_factory=list)
    authors: list[bool] = field(default_factory=list)
    date: list[bool] = field(default_factory=list)
    seconds: float = 0.0
    misses: dict[str, list[tuple[str, Any, Any]]] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @staticmethod
    def rate(values: list[bool]) -> float | None:
        return sum(values) / len(values) if values else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "pages": self.pages,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "title": _round(self.rate(self.title)),
            "authors": _round(self.rate(self.authors)),
            "date": _round(self.rate(self.date)),
            "ms_per_page": round(1000 * self.seconds / max(self.pages, 1), 1),
        }


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)


# --- datasets ---------------------------------------------------------------------------------------


def _read_maybe_gz(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def detect_format(root: Path) -> str:
    if (root / "ground_truth.jsonl").is_file():
        return "fundus"
    if (root / "evaldata.json").is_file():
        return "trafilatura"
    raise ValueError(f"{root}: neither ground_truth.jsonl (Fundus) nor evaldata.json (trafilatura) found")


def _day(value: str | None) -> str | None:
    if not value:
        return None
    m = re.match(r"\s*(\d{4}-\d{2}-\d{2})", str(value))
    return m.group(1) if m else None


def load_fundus(root: Path, limit: int | None = None) -> Iterator[Page]:
    with (root / "ground_truth.jsonl").open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                return
            if not line.strip():
                continue
            rec = json.loads(line)
            yield Page(
                id=rec.get("id") or rec["html_path"],
                url=rec.get("url"),
                body=(root / rec["html_path"]).read_bytes(),  # still gzip: the crawl path undoes it
                title=rec.get("title"),
                authors=rec.get("authors") or [],
                date=_day(rec.get("publishing_date")),
                body_text=rec.get("body_text") or "",
            )


def load_trafilatura(root: Path, limit: int | None = None) -> Iterator[Page]:
    data = json.loads((root / "evaldata.json").read_text(encoding="utf-8"))
    for n, (url, rec) in enumerate(data.items()):
        if limit is not None and n >= limit:
            return
        path = None
        for sub in ("eval", "cache", "."):
            for name in (rec["file"] + ".gz", rec["file"]):
                if (root / sub / name).is_file():
                    path = root / sub / name
                    break
            if path:
                break
        if path is None:
            continue
        authors = None
        raw_authors = rec.get("author")
        if isinstance(raw_authors, str) and raw_authors.strip():
            authors = [a.strip() for a in re.split(r";|\|", raw_authors) if a.strip()]
        elif isinstance(raw_authors, list) and raw_authors:
            authors = [str(a).strip() for a in raw_authors if str(a).strip()]
        yield Page(
            id=rec["file"],
            url=url,
            body=path.read_bytes(),
            title=rec.get("title") if isinstance(rec.get("title"), str) else None,
            authors=authors,
            date=_day(rec.get("date")) if isinstance(rec.get("date"), str) else None,
            with_snippets=list(rec.get("with") or []),
            without_snippets=list(rec.get("without") or []),
        )


# --- extractors -------------------------------------------------------------------------------------


def run_sacorpus(page: Page) -> Prediction:
    start = time.perf_counter()
    result = process_page(page.body, headers={}, url=page.url)
    elapsed = time.perf_counter() - start
    ex = result.extracted
    return Prediction(
        text=(ex.text if ex else "") or "",
        title=ex.title_clean if ex else None,
        authors=list(ex.authors) if ex else [],
        date=(ex.published_day if ex else None),
        seconds=elapsed,
    )


def run_trafilatura(page: Page) -> Prediction:
    """Bare trafilatura with metadata, as a user would call it on the downloaded bytes."""
    import trafilatura

    start = time.perf_counter()
    body = _undo_gzip(page.body)
    doc = trafilatura.bare_extraction(body, url=page.url, with_metadata=True)
    elapsed = time.perf_counter() - start
    if doc is None:
        return Prediction("", None, [], None, elapsed)
    authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()]
    return Prediction(doc.text or "", doc.title, authors, _day(doc.date), elapsed)


def _undo_gzip(body: bytes) -> bytes:
    return gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body


# --- scoring ----------------------------------------------------------------------------------------


# Invisible characters that do not change what a reader sees: zero-width space/no-break/word joiner,
# byte-order mark, soft hyphen, bidi marks. Ground truths and pages carry them inconsistently, so the
# exact-match comparison drops them on BOTH sides, for every extractor alike (a measurement fix, not an
# extraction rule). ZWJ/ZWNJ stay: they change shaping in Arabic/Indic scripts.
_INVISIBLE = re.compile("[\u00ad\u200b\u200e\u200f\u2060\u2061-\u2064\ufeff\u202a-\u202e\u2066-\u2069]")


def _norm(text: str | None) -> str:
    """NFC, invisible format characters removed, Unicode whitespace (incl. NBSP) collapsed, stripped."""
    return " ".join(_INVISIBLE.sub("", unicodedata.normalize("NFC", text or "")).split())


def _norm_author(name: str) -> str:
    return _norm(name).casefold()


def score_page(score: Score, page: Page, pred: Prediction, fmt: str) -> None:
    score.pages += 1
    score.seconds += pred.seconds
    if fmt == "fundus":
        truth = Counter(_norm(page.body_text).split())
        got = Counter(_norm(pred.text).split())
        common = sum((truth & got).values())
        score.tp += common
        score.fp += sum(got.values()) - common
        score.fn += sum(truth.values()) - common
    else:
        text = _norm(pred.text)
        for s in page.with_snippets:
            if _norm(s) in text:
                score.tp += 1
            else:
                score.fn += 1
        for s in page.without_snippets:
            if _norm(s) in text:
                score.fp += 1
    if page.title is not None:
        ok = _norm(pred.title) == _norm(page.title)
        score.title.append(ok)
        if not ok:
            score.misses.setdefault("title", []).append((page.id, page.title, pred.title))
    if page.authors is not None:
        ok = {_norm_author(a) for a in pred.authors} == {_norm_author(a) for a in page.authors}
        score.authors.append(ok)
        if not ok:
            score.misses.setdefault("authors", []).append((page.id, page.authors, pred.authors))
    if page.date is not None:
        ok = pred.date == page.date
        score.date.append(ok)
        if not ok:
            score.misses.setdefault("date", []).append((page.id, page.date, pred.date))


def evaluate(
    root: Path | str,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[str, list[Score]]:
    """Score sacorpus and bare trafilatura on every page of the dataset at ``root``."""
    root = Path(root)
    fmt = detect_format(root)
    pages = load_fundus(root, limit) if fmt == "fundus" else load_trafilatura(root, limit)
    ours, theirs = Score("sacorpus"), Score("trafilatura")
    for n, page in enumerate(pages, 1):
        score_page(ours, page, run_sacorpus(page), fmt)
        score_page(theirs, page, run_trafilatura(page), fmt)
        if progress:
            progress(n)
    return fmt, [ours, theirs]


def format_table(fmt: str, scores: list[Score]) -> str:
    head = f"{'extractor':<12} {'pages':>5} {'prec':>6} {'recall':>6} {'F1':>6} {'title':>6} {'authors':>7} {'date':>6} {'ms/page':>8}"
    lines = [f"dataset format: {fmt}", head, "-" * len(head)]

    def pct(v: float | None) -> str:
        return "   n/a" if v is None else f"{100 * v:5.1f}%"

    for s in scores:
        d = s.as_dict()
        lines.append(
            f"{s.name:<12} {s.pages:>5} {d['precision']:>6.3f} {d['recall']:>6.3f} {d['f1']:>6.3f} "
            f"{pct(d['title'])} {pct(d['authors']):>7} {pct(d['date'])} {d['ms_per_page']:>8.1f}"
        )
    if len(scores) == 2 and scores[1].seconds:
        lines.append(f"time ratio sacorpus/trafilatura: {scores[0].seconds / scores[1].seconds:.2f}x")
    return "\n".join(lines)


__all__ = ["Page", "Prediction", "Score", "detect_format", "evaluate", "format_table", "score_page"]
