"""Scores: body precision/recall/F1 (pooled over all pages and as a mean of per-page F1) and exact-match
rates for title, authors and date.

Fundus-style truth is scored over bags of whitespace tokens; trafilatura-style truth as trafilatura's
own evaluation does (a "with" snippet found is a true positive, a "without" snippet found a false
positive). Pooled F1 weighs long pages more; the page mean weighs every page alike, so a method that
empties a few short pages cannot hide behind long ones. Both are reported and gated.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sacorpus.evaluation.datasets import Page


@dataclass
class Prediction:
    text: str
    title: str | None
    authors: list[str]
    date: str | None
    seconds: float
    metadata: bool = True  # False: this extractor was run without metadata (body only)


def f1_of(tp: float, fp: float, fn: float) -> float:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Score:
    name: str
    pages: int = 0
    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0
    page_f1: list[float] = field(default_factory=list)
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
        return f1_of(self.tp, self.fp, self.fn)

    @property
    def f1_mean(self) -> float:
        return sum(self.page_f1) / len(self.page_f1) if self.page_f1 else 0.0

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
            "f1_mean": round(self.f1_mean, 4),
            "title": _round(self.rate(self.title)),
            "authors": _round(self.rate(self.authors)),
            "date": _round(self.rate(self.date)),
            "ms_per_page": round(1000 * self.seconds / max(self.pages, 1), 1),
        }


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)


# Invisible characters that do not change what a reader sees: zero-width space/no-break/word joiner,
# byte-order mark, soft hyphen, bidi marks. Ground truths and pages carry them inconsistently, so the
# exact-match comparison drops them on BOTH sides, for every extractor alike (a measurement fix, not an
# extraction rule). ZWJ/ZWNJ stay: they change shaping in Arabic/Indic scripts.
_INVISIBLE = re.compile("[\u00ad\u200b\u200e\u200f\u2060\u2061-\u2064\ufeff\u202a-\u202e\u2066-\u2069]")


def norm(text: str | None) -> str:
    """NFC, invisible format characters removed, Unicode whitespace (incl. NBSP) collapsed, stripped."""
    return " ".join(_INVISIBLE.sub("", unicodedata.normalize("NFC", text or "")).split())


def _norm_author(name: str) -> str:
    return norm(name).casefold()


def body_counts(page: Page, text: str, fmt: str) -> tuple[float, float, float]:
    """(true positives, false positives, false negatives) of one page's extracted body."""
    if fmt == "fundus":
        truth = Counter(norm(page.body_text).split())
        got = Counter(norm(text).split())
        common = sum((truth & got).values())
        return common, sum(got.values()) - common, sum(truth.values()) - common
    normed = norm(text)
    tp = sum(1 for s in page.with_snippets if norm(s) in normed)
    fp = sum(1 for s in page.without_snippets if norm(s) in normed)
    return tp, fp, len(page.with_snippets) - tp


def score_page(score: Score, page: Page, pred: Prediction, fmt: str) -> None:
    score.pages += 1
    score.seconds += pred.seconds
    tp, fp, fn = body_counts(page, pred.text, fmt)
    score.tp, score.fp, score.fn = score.tp + tp, score.fp + fp, score.fn + fn
    if tp + fp + fn:
        score.page_f1.append(f1_of(tp, fp, fn))
    if not pred.metadata:
        return
    checks = (
        ("title", page.title, pred.title, lambda: norm(pred.title) == norm(page.title)),
        (
            "authors",
            page.authors,
            pred.authors,
            lambda: {_norm_author(a) for a in pred.authors} == {_norm_author(a) for a in page.authors or []},
        ),
        ("date", page.date, pred.date, lambda: pred.date == page.date),
    )
    for name, truth, got, same in checks:
        if not truth:
            continue  # only where the truth states it
        ok = same()
        getattr(score, name).append(ok)
        if not ok:
            score.misses.setdefault(name, []).append((page.id, truth, got))


def _pct(v: float | None) -> str:
    return "   n/a" if v is None else f"{100 * v:5.1f}%"


def format_table(title: str, scores: list[Score]) -> str:
    head = (
        f"{title:<24} {'pages':>5} {'prec':>6} {'recall':>6} {'F1':>6} {'F1 mean':>7} {'title':>6} "
        f"{'authors':>7} {'date':>6} {'ms/page':>8}"
    )
    lines = [head, "-" * len(head)]
    for s in scores:
        d = s.as_dict()
        lines.append(
            f"{s.name:<24} {s.pages:>5} {d['precision']:>6.3f} {d['recall']:>6.3f} {d['f1']:>6.3f} "
            f"{d['f1_mean']:>7.3f} {_pct(d['title'])} {_pct(d['authors']):>7} {_pct(d['date'])} "
            f"{d['ms_per_page']:>8.1f}"
        )
    return "\n".join(lines)


__all__ = ["Prediction", "Score", "body_counts", "f1_of", "format_table", "norm", "score_page"]
