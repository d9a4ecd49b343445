"""``scrapy reextract`` learns each publication's repeated lines and title branding as the crawl did.

A real crawl of a loopback site stores pages whose later ones lose a promotional line and a title
segment that every page repeats (the crawl's per-publication history). Re-extracting that store with
unchanged rules must give back exactly what the crawl stored: without the history, the later pages
would get the line and the segment back.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from crawlkit import REPO, feed_publication

from sacorpus.demo.server import SiteServer
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.boilerplate import MIN_PAGES

pytestmark = pytest.mark.slow

PAGES = MIN_PAGES + 3
PROMO = "The Ridge Courier is an independent community newspaper serving the valley since 1994."
DESK = "Valley Desk"  # a <title> segment on every page: branding only repetition can tell
REEXTRACT = [sys.executable, "-m", "scrapy", "reextract", "--publication", "ridgecourier", "--no-progress"]
COMPARED = (
    "text",
    "title",
    "title_clean",
    "authors",
    "published_at",
    "page_type",
    "language",
    "tokens",
    "token_count",
    "links",
    "dedup_label",
)
HEADLINES = [
    "Council restores water to the eastern wards after a week",
    "Taxi rank upgrade delayed by a dispute over the contract",
    "Clinic queues shorten as the new pharmacy window opens",
    "School hall roof repaired before the winter rains arrive",
    "Farmers count losses after hail flattens the maize crop",
    "Library extends its hours for pupils writing examinations",
]


def page(n: int) -> str:
    head = HEADLINES[n]
    story = [
        f"Residents said the {head.split()[0].lower()} story began on a Monday morning in ward {n + 3}.",
        f"Officials told the meeting that {n + 12} households had written letters of complaint.",
        PROMO,
        f"The ward councillor said a report on the matter would be tabled within {n + 2} weeks.",
    ]
    body = "".join(f"<p>{p}</p>" for p in story)
    return (
        f'<html lang="en"><head><title>{head} | {DESK}</title>'
        f'<meta name="author" content="Thandi Mokoena"></head>'
        f"<body><article>{body}</article></body></html>"
    )


def stored(path: Path) -> dict[str, dict]:
    with SQLiteStore(str(path), spill_path=str(path.parent / "spill.jsonl")) as store:
        return {r["url"]: {k: r.get(k) for k in (*COMPARED, "fetched_at")} for r in store.iter_articles()}


def test_reextracted_store_equals_the_crawl_that_learnt_the_publication(crawl, tmp_path: Path) -> None:
    pages = {f"news/story-{n}": (HEADLINES[n], page(n)) for n in range(PAGES)}
    site, env = feed_publication(tmp_path, "ridgecourier", "Ridge Courier", "www.ridgecourier.example", pages)
    # one page at a time, two seconds apart: the stored fetch times (whole seconds) give the crawl's order
    # back exactly (a second apart, a fetch held up on a busy machine shared its second with the next)
    pace = ["-s", "CONCURRENT_REQUESTS=1", "-s", "DOWNLOAD_DELAY=2", "-s", "RANDOMIZE_DOWNLOAD_DELAY=False"]
    with SiteServer.from_directory(site) as server:
        run = crawl(
            "ridgecourier", "-a", f"base_url={server.base_url}", "-s", "ROBOTSTXT_OBEY=False", *pace, env=env
        )
    assert run.returncode == 0, run.log[-3000:]
    before = stored(run.sqlite_path)
    assert len(before) == PAGES
    in_order = sorted(before.values(), key=lambda r: r["fetched_at"])
    assert len({r["fetched_at"] for r in in_order}) == PAGES
    # the crawl's history at work: proven furniture goes from the later pages only
    assert all(PROMO in r["text"] for r in in_order[:MIN_PAGES])
    assert all(PROMO not in r["text"] for r in in_order[MIN_PAGES:])
    assert all(DESK in (r["title_clean"] or "") for r in in_order[:MIN_PAGES])
    assert all(r["title_clean"] in HEADLINES for r in in_order[MIN_PAGES:])

    proc = subprocess.run(
        [*REEXTRACT, "-s", f"SACORPUS_SQLITE_PATH={run.sqlite_path}"],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"{PAGES} articles re-extracted" in proc.stderr
    after = stored(run.sqlite_path)
    for url, record in before.items():
        for name in COMPARED:
            assert after[url][name] == record[name], (url, name)
