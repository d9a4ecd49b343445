"""Extraction evaluation: the crawl's page core against trafilatura's baselines on labelled real pages.

:mod:`.datasets` reads the two third-party formats, :mod:`.scoring` scores bodies and metadata,
:mod:`.runner` runs every extractor over a dataset (in worker processes, with the publications' rules),
:mod:`.gate` checks the scores against pinned floors (the CI gate).
"""

from sacorpus.evaluation.datasets import Page, detect_format, load_pages
from sacorpus.evaluation.gate import check, load_floors
from sacorpus.evaluation.runner import BASELINES, SACORPUS, Report, evaluate
from sacorpus.evaluation.scoring import Prediction, Score, format_table, score_page

__all__ = [
    "BASELINES",
    "SACORPUS",
    "Page",
    "Prediction",
    "Report",
    "Score",
    "check",
    "detect_format",
    "evaluate",
    "format_table",
    "load_floors",
    "load_pages",
    "score_page",
]
