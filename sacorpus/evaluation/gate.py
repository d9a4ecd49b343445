"""The evaluation gate: pinned floors per dataset and per publication, checked in CI.

Floors live in a TOML file (``benchmarks/evaluation_floors.toml``), one table per dataset folder name::

    [fundus_dev]
    f1 = 0.97              # pooled body F1 of sacorpus
    f1_mean = 0.95         # page-mean body F1
    title = 0.92           # exact-match rates (only pages whose truth states the field)
    authors = 0.88
    date = 0.98
    f1_margin = 0.01       # pooled F1 minus the best trafilatura baseline's, in the same run
    f1_mean_margin = 0.01  # the same for the page mean
    max_time_ratio = 1.5   # sacorpus ms/page over bare trafilatura (defaults)

    [fundus_dev.publications.timeslive]
    f1 = 0.9

A floor is pinned a little under what was measured, so a change that loses quality fails CI while the
noise of timing does not. A dataset the file does not name is reported, not gated.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sacorpus.evaluation.runner import SACORPUS, Report
from sacorpus.evaluation.scoring import Score

METRICS = ("f1", "f1_mean", "title", "authors", "date")


def load_floors(path: Path | str) -> dict[str, Any]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def _value(score: Score, metric: str) -> float | None:
    if metric in ("title", "authors", "date"):
        return score.rate(getattr(score, metric))
    return float(getattr(score, metric))


def _below(where: str, score: Score, floors: dict[str, Any]) -> list[str]:
    failures = []
    for metric in METRICS:
        floor = floors.get(metric)
        value = _value(score, metric)
        if floor is not None and value is not None and value < floor:
            failures.append(f"{where}: {metric} {value:.4f} below the floor {floor:.4f}")
    return failures


def check(report: Report, floors: dict[str, Any]) -> list[str]:
    """Every floor the report falls below, one line each (empty: the gate passes)."""
    table = floors.get(report.dataset)
    if table is None:
        return []
    ours = report.scores[SACORPUS]
    failures = _below(report.dataset, ours, table)
    for metric in ("f1", "f1_mean"):
        margin = table.get(f"{metric}_margin")
        if margin is None:
            continue
        best = report.best_baseline(metric)
        got = getattr(ours, metric) - getattr(best, metric)
        if got < margin:
            failures.append(
                f"{report.dataset}: {metric} margin over {best.name} {got:+.4f} below {margin:+.4f}"
            )
    ratio_cap = table.get("max_time_ratio")
    baseline = report.scores.get("trafilatura")
    if ratio_cap is not None and baseline is not None and baseline.seconds:
        ratio = ours.seconds / baseline.seconds
        if ratio > ratio_cap:
            failures.append(f"{report.dataset}: time ratio {ratio:.2f}x above {ratio_cap:.2f}x")
    for slug, pub_floors in (table.get("publications") or {}).items():
        score = report.by_publication.get(slug)
        if score is None:
            failures.append(f"{report.dataset}/{slug}: no page of this publication was evaluated")
            continue
        failures += _below(f"{report.dataset}/{slug}", score, pub_floors)
    return failures


__all__ = ["check", "load_floors"]
