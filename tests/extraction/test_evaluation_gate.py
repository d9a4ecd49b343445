"""``scrapy evaluate`` on a small labelled dataset written here: scores, rules per publication, the gate."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from sacorpus.evaluation import SACORPUS, Page, Prediction, Score, check, evaluate, score_page

REPO = Path(__file__).resolve().parents[2]
BODY = (
    "Residents of Soweto queued for hours on Tuesday as the municipality restored water after a week of cuts. "
    "Officials said the pump station had failed when a transformer burnt out during the storm. "
    "The ward councillor said tankers would stay in the area until supply was stable again."
)


def _page(title: str, body: str) -> str:
    paragraphs = "".join(f"<p>{s.strip()}.</p>" for s in body.split(". ") if s.strip())
    return (
        f"<html><head><title>{title} | IOL</title><meta property='og:title' content='{title}'></head>"
        f"<body><article><h1>{title}</h1><p class='byline'>By Thandi Mokoena</p>{paragraphs}</article>"
        "<footer>Copyright Independent Online</footer></body></html>"
    )


def write_dataset(root: Path) -> Path:
    (root / "raw").mkdir(parents=True)
    rows = []
    for n, (title, authors) in enumerate(
        [
            ("Water back in Soweto after week of cuts", ["Thandi Mokoena"]),
            ("Pump station repairs finished", None),
        ]
    ):
        (root / "raw" / f"p{n}.html.gz").write_bytes(gzip.compress(_page(title, BODY).encode()))
        rows.append(
            {
                "html_path": f"raw/p{n}.html.gz",
                "url": f"https://www.iol.co.za/news/story-{n}",
                "title": title,
                "authors": authors,
                "publishing_date": None,
                "body_text": BODY,
            }
        )
    (root / "ground_truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return root


def test_evaluate_scores_every_extractor_and_the_publication(tmp_path):
    report = evaluate(write_dataset(tmp_path / "tiny"), jobs=1)
    ours = report.scores[SACORPUS]
    assert ours.pages == 2 and set(report.scores) >= {"trafilatura", "trafilatura precision"}
    assert ours.f1 > 0.9 and ours.f1_mean > 0.9
    assert ours.title == [True, True]
    assert ours.authors == [True]  # the page whose truth names no author is not scored for authors
    assert ours.date == []  # no truth date: not scored
    assert report.by_publication["iol"].pages == 2  # the page's host belongs to publications/iol.toml


def test_page_mean_weighs_pages_alike():
    score = Score("x")
    long_page = Page("a", None, b"", body_text="w " * 98)
    short_page = Page("b", None, b"", body_text="q r")
    score_page(score, long_page, Prediction("w " * 98, None, [], None, 0.0), "fundus")
    score_page(score, short_page, Prediction("", None, [], None, 0.0), "fundus")
    assert round(score.f1, 3) == round(2 * 98 / (98 + 100), 3)  # pooled: the long page dominates
    assert score.f1_mean == 0.5  # page mean: one perfect page, one empty


def test_gate_lines_name_dataset_metric_and_publication(tmp_path):
    report = evaluate(write_dataset(tmp_path / "tiny"), jobs=1)
    assert check(report, {"tiny": {"f1": 0.5, "title": 0.5, "publications": {"iol": {"f1": 0.5}}}}) == []
    failures = check(
        report,
        {"tiny": {"f1": 1.01, "f1_margin": 0.5, "publications": {"iol": {"title": 1.01}, "mg": {"f1": 0.1}}}},
    )
    assert any(f.startswith("tiny: f1 ") for f in failures)
    assert any("margin over trafilatura" in f for f in failures)
    assert any(f.startswith("tiny/iol: title") for f in failures)
    assert any(f.startswith("tiny/mg: no page") for f in failures)
    assert check(report, {"other": {"f1": 2.0}}) == []  # a dataset the floors do not name is not gated


def _evaluate_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "evaluate", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_gate_exit_status(tmp_path):
    data = write_dataset(tmp_path / "tiny")
    low, high = tmp_path / "low.toml", tmp_path / "high.toml"
    low.write_text("[tiny]\nf1 = 0.5\n[tiny.publications.iol]\ntitle = 0.5\n")
    high.write_text("[tiny]\nf1_mean = 1.5\n")
    ok = _evaluate_cli(str(data), "--floors", str(low), "--jobs", "1")
    assert ok.returncode == 0, ok.stderr[-2000:]
    assert "evaluation gate: passed" in ok.stderr and "iol" in ok.stdout
    bad = _evaluate_cli(str(data), "--floors", str(high), "--jobs", "1")
    assert bad.returncode == 1
    assert "tiny: f1_mean" in bad.stderr and "evaluation gate: FAILED" in bad.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("[tiny\n")
    usage = _evaluate_cli(str(data), "--floors", str(broken))
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_the_byline_is_scored_as_stated_people_and_agencies():
    """The datasets' author truth records bylines as written ("Thandi Mokoena, Sapa"); the page core keeps
    people in ``authors`` and the agency apart, and the evaluation scores both against that truth."""
    from sacorpus.evaluation.runner import run_sacorpus
    from sacorpus.text.page import process_page

    html = _page("Water back in Soweto", BODY).replace("By Thandi Mokoena", "By Thandi Mokoena and Sapa")
    url = "https://example.org/news/water-back"
    ex = process_page(html.encode(), {}, url).extracted
    assert ex is not None and (ex.authors, ex.agencies) == (["Thandi Mokoena"], ["Sapa"])
    pred, _ = run_sacorpus(Page("p", url, html.encode()), [])
    assert pred.authors == ["Thandi Mokoena", "Sapa"]
