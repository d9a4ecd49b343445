"""Run sacorpus and trafilatura's baselines over a dataset, in the same run, with the publications' rules.

The sacorpus side is the crawl's own page core (:func:`sacorpus.text.page.process_page`) with the
publication whose domains own the page's URL (rules applied as in a crawl; a Wayback memento URL gives
the original URL and the capture date, so dated rule sets are chosen as for a backfill). The baselines
are bare trafilatura as a user would call it on the downloaded bytes, in the settings a user could pick:
defaults, without comments, and ``favor_precision``; each dataset's best baseline is the bar.

Pages are processed in worker processes, grouped by host so pages of one publication stay in order in
one worker (what a crawl of that publication sees).
"""

from __future__ import annotations

import gzip
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sacorpus.evaluation.datasets import Page, day, load_pages
from sacorpus.evaluation.scoring import Prediction, Score, score_page
from sacorpus.publications import Publication, load_all
from sacorpus.sources.urls import owner_of
from sacorpus.sources.wayback import parse_memento_url, timestamp_to_datetime
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.page import process_page

SACORPUS = "sacorpus"
BASELINES: dict[str, dict[str, bool]] = {
    "trafilatura": {},
    "trafilatura no-comments": {"include_comments": False},
    "trafilatura precision": {"favor_precision": True},
}


@dataclass
class Report:
    """Scores of one dataset: per extractor, and sacorpus per publication (pages with a publication file)."""

    dataset: str
    fmt: str
    scores: dict[str, Score]
    by_publication: dict[str, Score] = field(default_factory=dict)
    without_rules: dict[str, Score] = field(default_factory=dict)  # the same pages with no publication rules

    def best_baseline(self, metric: str = "f1") -> Score:
        baselines = [s for name, s in self.scores.items() if name != SACORPUS]
        return max(baselines, key=lambda s: getattr(s, metric))


def publication_of(url: str | None, publications: Iterable[Publication]) -> Publication | None:
    return owner_of(url or "", publications)


def original_and_capture(url: str | None) -> tuple[str | None, object]:
    """A Wayback memento URL -> (original URL, capture date); any other URL -> (url, None)."""
    memento = parse_memento_url(url) if url else None
    if not memento:
        return url, None
    timestamp, original = memento
    when = timestamp_to_datetime(timestamp)
    return original, (when.date() if when else None)


def run_sacorpus(
    page: Page, publications: Iterable[Publication], history: LineHistory | None = None, rules: bool = True
) -> tuple[Prediction, str | None]:
    url, captured = original_and_capture(page.url)
    publication = publication_of(url, publications)
    slug = publication.slug if publication else None
    if not rules:
        publication = None
    start = time.perf_counter()
    result = process_page(page.body, {}, url, publication, captured, history=history)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    ex = result.extracted
    pred = Prediction(
        text=(ex.text if ex else "") or "",
        title=ex.title_clean if ex else None,
        authors=[*ex.authors, *ex.agencies] if ex else [],  # the byline as stated: the truth's "author"
        date=(ex.published_day if ex else None),
        seconds=elapsed,
    )
    return pred, slug


def run_trafilatura(page: Page, options: dict[str, bool], metadata: bool) -> Prediction:
    """Bare trafilatura on the downloaded bytes (gzip undone), as a user would call it."""
    import trafilatura

    start = time.perf_counter()
    body = gzip.decompress(page.body) if page.body[:2] == b"\x1f\x8b" else page.body
    # a Document (as_dict=False is the default); Any: its options are passed as a dict
    doc: Any = trafilatura.bare_extraction(body, url=page.url, with_metadata=metadata, **options)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    if doc is None:
        return Prediction("", None, [], None, elapsed, metadata)
    authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()] if metadata else []
    return Prediction(
        doc.text or "",
        doc.title if metadata else None,
        authors,
        day(doc.date) if metadata else None,
        elapsed,
        metadata,
    )


PageOutcome = tuple[Page, str | None, dict[str, Prediction]]
WITHOUT_RULES = "sacorpus without rules"


def _run_group(pages: list[Page]) -> list[PageOutcome]:
    """One worker task: every extractor on each page of one host, in dataset order."""
    publications = [p for p in load_all().values() if p.slug != "demo"]
    history = LineHistory()  # the pages of one host, in dataset order: what a crawl of it learns
    out = []
    for page in pages:
        ours, slug = run_sacorpus(page, publications, history)
        preds = {SACORPUS: ours}
        if slug:  # what the publication's rules buy on this page, measured in the same run
            preds[WITHOUT_RULES] = run_sacorpus(page, publications, rules=False)[0]
        for n, (name, options) in enumerate(BASELINES.items()):
            preds[name] = run_trafilatura(page, options, metadata=n == 0)
        out.append((page, slug, preds))
    return out


def _groups(pages: list[Page]) -> list[list[Page]]:
    by_host: dict[str, list[Page]] = defaultdict(list)
    for page in pages:
        url, _ = original_and_capture(page.url)
        by_host[urlsplit(url or "").hostname or page.id].append(page)
    return sorted(by_host.values(), key=len, reverse=True)  # big groups first: better load balance


def evaluate(
    root: Path | str,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    jobs: int | None = None,
) -> Report:
    """Score sacorpus (with publication rules) and trafilatura's baselines on every page under ``root``."""
    root = Path(root)
    fmt, pages = load_pages(root, limit)
    report = Report(root.name, fmt, {name: Score(name) for name in (SACORPUS, *BASELINES)})
    jobs = max(1, jobs or os.cpu_count() or 1)
    done = 0

    def collect(outcomes: list[PageOutcome]) -> None:
        nonlocal done
        for page, slug, preds in outcomes:
            for name, pred in preds.items():
                if name in report.scores:
                    score_page(report.scores[name], page, pred, fmt)
            if slug:
                score_page(report.by_publication.setdefault(slug, Score(slug)), page, preds[SACORPUS], fmt)
                score_page(
                    report.without_rules.setdefault(slug, Score(slug)), page, preds[WITHOUT_RULES], fmt
                )
            done += 1
        if progress:
            progress(done)

    groups = _groups(pages)
    if jobs == 1:
        for group in groups:
            collect(_run_group(group))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for outcomes in pool.map(_run_group, groups):
                collect(outcomes)
    return report


__all__ = ["BASELINES", "SACORPUS", "Report", "evaluate", "original_and_capture", "publication_of"]
