"""Fixtures for the frontier tests: a generated news site of a few hundred articles, and a crawl
started as a Popen so a test can kill it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from crawlkit import FAST, REPO, SCRAPY

from sacorpus.demo.server import Resource

SECTIONS = ["news", "business"]
WORDS = [
    "council",
    "budget",
    "water",
    "clinic",
    "school",
    "taxi",
    "farm",
    "mine",
    "court",
    "rail",
    "port",
    "harbour",
    "drought",
    "festival",
    "museum",
    "library",
    "stadium",
    "bridge",
    "market",
    "union",
]


def article_path(i: int) -> str:
    return (
        f"/{SECTIONS[i % 2]}/2026/11/{1 + i % 28:02d}/{WORDS[i % 20]}-{WORDS[(i * 7) % 20]}-story-{10000 + i}"
    )


def article_html(i: int) -> bytes:
    w1, w2, w3 = WORDS[i % 20], WORDS[(i * 7) % 20], WORDS[(i * 3 + 1) % 20]
    paras = "".join(
        f"<p>Story {i}, paragraph {k}: officials discussed the {w1} and the {w2} with residents, "
        f"who raised {k + i % 5} concerns about the {w3} before the meeting closed at {8 + k}pm.</p>"
        for k in range(4)
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Story {i} about the {w1} "
        f"| The Demo Gazette</title></head><body><article class='story'><h1>Story {i} about the {w1}</h1>"
        f"<div class='story-body'>{paras}</div></article></body></html>"
    ).encode()


def generated_site(n: int) -> dict[str, Resource]:
    """``n`` articles listed by a sitemap index of two sitemaps (the demo publication's sitemap path)."""
    host = "http://demo.sacorpus.invalid"
    res: dict[str, Resource] = {}
    halves = [range(0, n, 2), range(1, n, 2)]
    for k, idx in enumerate(halves):
        urls = "".join(f"<url><loc>{host}{article_path(i)}</loc></url>" for i in idx)
        res[f"/sitemap-{k}.xml"] = Resource(
            f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'.encode(),
            "application/xml",
        )
    index = "".join(f"<sitemap><loc>{host}/sitemap-{k}.xml</loc></sitemap>" for k in range(2))
    res["/sitemap_index.xml"] = Resource(
        f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{index}'
        "</sitemapindex>".encode(),
        "application/xml",
    )
    for i in range(n):
        res[article_path(i)] = Resource(article_html(i), "text/html; charset=utf-8")
    return res


def start_crawl(slug: str, workdir: Path, *args: str) -> subprocess.Popen:
    """Like crawlkit.run_crawl, but returns the running process (its store and JOBDIR under workdir)."""
    workdir.mkdir(parents=True, exist_ok=True)
    cmd = [
        *SCRAPY,
        "crawl",
        slug,
        *FAST,
        "-s",
        f"SACORPUS_SQLITE_PATH={workdir / 'corpus.sqlite'}",
        "-s",
        f"SACORPUS_JOBDIR_ROOT={workdir / 'jobs'}",
        *args,
    ]
    env = {k: v for k, v in os.environ.items() if k != "MONGO_URI"}
    log = (workdir / "crawl.log").open("a")
    return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
