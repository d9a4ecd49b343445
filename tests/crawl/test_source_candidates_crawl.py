"""A crawl records other sites' feeds and sitemaps its pages link to (never fetching them), and
``scrapy sources --candidates`` lists them with counts and first/last seen; a second run adds up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from crawlkit import REPO, feed_publication

from sacorpus.demo.server import SiteServer

pytestmark = pytest.mark.slow

PARAGRAPHS = "".join(
    f"<p>Paragraph {i}: the regional council met on Tuesday to discuss the water supply in the district, "
    "and residents asked why the reservoir had not been repaired.</p>"
    for i in range(4)
)


def page(n: int) -> str:
    return f"""<html lang="en"><head><title>Water story {n}</title>
<link rel="alternate" type="application/rss+xml" href="https://www.peerpaper.example/feed/">
<link rel="alternate" type="application/rss+xml" href="{{base}}/feed/">
<link rel="alternate" type="application/rss+xml" href="https://www.otherpaper.co.za/feed/">
<link rel="alternate" type="application/rss+xml" href="https://mg.co.za/feed/">
</head><body><h1>Water story {n}</h1>{PARAGRAPHS}
<aside><a href="https://zulupaper.co.za/sitemap.xml">Zulu Paper</a>
<a href="https://www.otherpaper.co.za/news/water-feed-story/">a story</a></aside></body></html>"""


def sources_command(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "scrapy",
            "sources",
            *args,
            "-s",
            f"SACORPUS_SQLITE_PATH={workdir / 'corpus.sqlite'}",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_crawl_records_candidates_and_sources_lists_them(crawl, tmp_path: Path) -> None:
    pages = {f"news/water-story-number-{n}": (f"Water story {n}", page(n)) for n in (1, 2)}
    site, env = feed_publication(tmp_path, "peerpaper", "Peer Paper", "www.peerpaper.example", pages)
    with SiteServer.from_directory(site) as server:
        first = crawl("peerpaper", "-a", f"base_url={server.base_url}", "-s", "ROBOTSTXT_OBEY=False", env=env)
        assert first.returncode == 0, first.log[-3000:]
        assert len(first.items) == 2
        assert not any("otherpaper" in p or "zulupaper" in p for _m, p in server.requests)
        second = crawl(
            "peerpaper",
            "-a",
            f"base_url={server.base_url}",
            "-a",
            "refetch=true",
            "-s",
            "ROBOTSTXT_OBEY=False",
            "-s",
            "SACORPUS_PAGE_WORKERS=1",  # a page worker reads the links: the same counts
            env=env,
            export=False,
        )
        assert second.returncode == 0, second.log[-3000:]
    listed = sources_command(tmp_path, "--candidates", "--json")
    assert listed.returncode == 0, listed.stdout + listed.stderr[-2000:]
    got = {c["url"]: c for c in json.loads(listed.stdout)}
    assert set(got) == {
        "https://www.otherpaper.co.za/feed/",
        "https://zulupaper.co.za/sitemap.xml",
        "https://mg.co.za/feed/",
    }
    assert got["https://mg.co.za/feed/"]["known"] == "mg"  # a publication already in the corpus
    assert got["https://zulupaper.co.za/sitemap.xml"]["known"] is None
    feed = got["https://www.otherpaper.co.za/feed/"]
    assert feed["kind"] == "feed" and feed["publications"] == ["peerpaper"]
    assert feed["count"] == 4  # two pages, two runs
    assert feed["first_seen"] < feed["last_seen"]
    assert feed["seen_on"].startswith("https://www.peerpaper.example/news/water-story-number-")
    table = sources_command(tmp_path, "--candidates", "--sort", "host", "--new-only")
    assert table.returncode == 0
    lines = table.stdout.splitlines()
    assert lines[0].split("\t")[:2] == ["count", "kind"]
    assert [line.split("\t")[4] for line in lines[1:]] == [
        "https://www.otherpaper.co.za/feed/",
        "https://zulupaper.co.za/sitemap.xml",
    ]


def test_sources_lists_configured_sources_and_rejects_bad_arguments(tmp_path: Path) -> None:
    run = sources_command(tmp_path, "citizen")
    assert run.returncode == 0
    assert "citizen\tfeed\thttps://www.citizen.co.za/feed/" in run.stdout.splitlines()
    empty = sources_command(tmp_path, "--candidates")
    assert empty.returncode == 1 and "Traceback" not in empty.stderr  # no corpus file yet: one clear line
    bad = sources_command(tmp_path, "--candidates", "--limit", "0")
    assert bad.returncode == 2
