"""Where does sacorpus lose text that bare trafilatura keeps? Must-contain snippets, step by step.

On a trafilatura-style dataset (``with`` snippets that must be in the text), lists every page where bare
trafilatura (defaults) keeps all of them and sacorpus loses at least one, with the step that lost it:
``comments`` (bare trafilatura keeps it only with reader comments on), ``headline`` (the page's
headline repeated above the story, which the title field holds), ``line:<filter>`` (a line filter; each
filter is tried alone), ``preclean`` (hidden text, embeds, teaser
cards, fact boxes, publication filters), or ``extraction`` (sacorpus's own trafilatura call, the fallback).
Also counts the unwanted (``without``) snippets each side lets through, so a change that keeps more text is
seen together with what it lets in.

    python benchmarks/snippet_losses.py ../shared/data/extraction/trafilatura_eval [--jobs 2] [--show 20]
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sacorpus.evaluation.datasets import Page, load_pages
from sacorpus.evaluation.scoring import norm
from sacorpus.text import linefilters
from sacorpus.text.decode import decode_html
from sacorpus.text.extract import extract_article

FILTERS = ("drop_link_lines", "drop_furniture_lines")


def _missing(snippets: list[str], text: str) -> list[str]:
    normed = norm(text)
    return [s for s in snippets if norm(s) not in normed]


def _html(page: Page) -> str:
    body = gzip.decompress(page.body) if page.body[:2] == b"\x1f\x8b" else page.body
    return decode_html(body, {}).text


def _culprit(page: Page, html: str, lost: list[str]) -> str:
    """The step that loses ``lost``; ``comments`` when bare trafilatura keeps it only with comments on,
    ``headline`` when it is the page's headline, dropped as an exact repeat above the story (the title
    is its own field)."""
    import trafilatura

    if _missing(lost, trafilatura.extract(html, url=page.url, include_comments=False) or ""):
        return "comments"
    unfiltered = extract_article(html, page.url, line_filters=False)
    titles = [norm(t) for t in (unfiltered.title, unfiltered.title_clean) if t]
    if all(any(norm(s) in t for t in titles) for s in lost) and not _missing(lost, unfiltered.text):
        return "headline"
    if not _missing(lost, unfiltered.text):
        for name in FILTERS:  # which filter alone loses it
            text = unfiltered.text
            if name == "drop_link_lines":
                text = linefilters.drop_link_lines(text, [(t, "") for t in _anchor_texts(html, page.url)])
            else:
                text = linefilters.drop_furniture_lines(
                    text, [unfiltered.title or "", unfiltered.title_clean or ""]
                )
            if _missing(lost, text):
                return f"line:{name}"
        return "line:combined"
    raw = extract_article(html, page.url, preclean=False, line_filters=False)
    return "preclean" if not _missing(lost, raw.text) else "extraction"


def _anchor_texts(html: str, url: str | None) -> list[str]:
    from sacorpus.text.extract import collect_anchors
    from sacorpus.text.preclean import parse_html

    root = parse_html(html)
    return [t for t, _ in collect_anchors(root)] if root is not None else []


def check(page: Page) -> tuple[str, str | None, list[str], int, int]:
    import trafilatura

    html = _html(page)
    theirs = trafilatura.extract(html, url=page.url) or ""
    ours = extract_article(html, page.url).text
    unwanted = (
        len(page.without_snippets) - len(_missing(page.without_snippets, ours)),
        len(page.without_snippets) - len(_missing(page.without_snippets, theirs)),
    )
    if _missing(page.with_snippets, theirs):
        return page.id, None, [], *unwanted
    lost = _missing(page.with_snippets, ours)
    return page.id, (_culprit(page, html, lost) if lost else None), lost, *unwanted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--show", type=int, default=20, help="list this many losing pages")
    args = parser.parse_args(argv)
    fmt, pages = load_pages(args.dataset)
    if fmt != "trafilatura":
        parser.error("needs a trafilatura-style dataset (with/without snippets)")
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(check, pages, chunksize=8))
    losses = [r for r in rows if r[1]]
    by_step = Counter(r[1] for r in losses)
    ours_in, theirs_in = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(
        f"{len(pages)} pages; sacorpus loses a must-contain snippet trafilatura keeps on {len(losses)} pages"
    )
    for step, n in by_step.most_common():
        print(f"  {step:<28} {n}")
    other = sum(n for step, n in by_step.items() if step not in ("comments", "headline"))
    print(f"pages losing text other than reader comments and the headline repeated above the story: {other}")
    print(f"unwanted snippets let through: sacorpus {ours_in}, trafilatura {theirs_in}")
    for page_id, step, lost, _, _ in losses[: args.show]:
        print(f"- {page_id} [{step}]: {lost[0][:100]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
