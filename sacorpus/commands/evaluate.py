"""``scrapy evaluate DATASET_DIR... [--floors FILE] [--jobs N] [--limit N] [--json] [--misses]``.

Scores the crawl's own page core (gzip, decode, the publication's rules, pre-clean, extract, metadata)
against bare trafilatura in three settings on the same pages in the same run (see
:mod:`sacorpus.evaluation`): pooled and page-mean body F1, title/authors/date exact match where the
truth states them, milliseconds per page, and sacorpus per publication for pages whose publisher has a
file. With ``--floors`` it is the CI gate: any score below its pinned floor is printed and the command
exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.evaluation import SACORPUS, Report, check, evaluate, format_table, load_floors


def render(report: Report, misses: bool) -> str:
    ours = report.scores[SACORPUS]
    lines = [
        f"== {report.dataset} ({report.fmt}, {ours.pages} pages)",
        format_table("extractor", list(report.scores.values())),
    ]
    for metric in ("f1", "f1_mean"):
        best = report.best_baseline(metric)
        lines.append(
            f"{metric} margin over the best baseline ({best.name}): "
            f"{getattr(ours, metric) - getattr(best, metric):+.4f}"
        )
    base = report.scores["trafilatura"]
    if base.seconds:
        lines.append(f"time ratio sacorpus/trafilatura: {ours.seconds / base.seconds:.2f}x")
    if report.by_publication:
        by_name = sorted(report.by_publication.values(), key=lambda s: s.name)
        lines += ["", format_table("publication (with rules)", by_name), ""]
        lines.append(
            format_table("same pages without rules", [report.without_rules[s.name] for s in by_name])
        )
    if misses:
        for field, rows in ours.misses.items():
            lines.append(f"\n== {field} misses: {len(rows)}")
            lines += [
                f"  {page_id}\n    truth: {truth!r}\n    got:   {got!r}" for page_id, truth, got in rows
            ]
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "DATASET_DIR... [--floors FILE] [--jobs N] [--limit N] [--json] [--misses]"

    def short_desc(self) -> str:
        return (
            "Score sacorpus extraction against trafilatura on labelled datasets (the CI gate with --floors)"
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--limit", type=int, default=None, help="only the first N pages of each dataset")
        parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per core)")
        parser.add_argument("--floors", default=None, help="TOML of pinned floors: exit 1 below any of them")
        parser.add_argument("--json", action="store_true", help="print the scores as JSON")
        parser.add_argument("--misses", action="store_true", help="also list sacorpus metadata misses")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give at least one DATASET_DIR")
        roots = [Path(a) for a in args]
        for root in roots:
            if not root.is_dir():
                raise UsageError(f"{root}: not a directory", print_help=False)
        try:
            floors = load_floors(opts.floors) if opts.floors else None
        except (OSError, ValueError) as exc:
            raise UsageError(f"--floors {opts.floors}: {exc}", print_help=False) from exc
        failures: list[str] = []
        out: list[dict[str, Any]] = []
        for root in roots:
            try:
                report = evaluate(root, limit=opts.limit, jobs=opts.jobs, progress=_progress(root.name))
            except ValueError as exc:
                raise UsageError(str(exc), print_help=False) from exc
            print(file=sys.stderr)
            if opts.json:
                out.append(
                    {
                        "dataset": str(root),
                        "format": report.fmt,
                        "scores": [s.as_dict() for s in report.scores.values()],
                        "publications": [s.as_dict() for s in report.by_publication.values()],
                        "without_rules": [s.as_dict() for s in report.without_rules.values()],
                    }
                )
            else:
                print(render(report, opts.misses), "\n", flush=True)
            if floors is not None:
                failures += check(report, floors)
        if opts.json:
            print(json.dumps(out, indent=2))
        if floors is not None:
            for line in failures:
                print(f"evaluation gate: {line}", file=sys.stderr)
            print(
                f"evaluation gate: {'FAILED' if failures else 'passed'} ({len(failures)} below floors)",
                file=sys.stderr,
            )
            self.exitcode = 1 if failures else 0


def _progress(name: str):
    """A counter on a terminal; nothing in CI logs."""

    def show(n: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{name}: {n} pages", end="", file=sys.stderr, flush=True)

    return show
