"""``scrapy check-publications``: one source and one article per publication through the page core.

A loopback site serves three publications written for these tests (files in a temporary publication
directory): one that works, one whose feed and sitemap are gone, one whose article layout changed so
that the page holds no story text. The shipped publications are checked against their own fixture sites.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from crawlkit import REPO

from sacorpus.demo.server import SiteServer
from sacorpus.health.checkup import check_publication
from sacorpus.health.probe import Probe
from sacorpus.publications import load_publication, parse_publication, publication_slugs

STORY = [
    "The municipality opened a new clinic in the township on Monday after three years of delays.",
    "Residents had travelled more than twenty kilometres for treatment since the old clinic closed.",
    "The health department said the clinic would employ twelve nurses and two doctors full time.",
    "Community leaders welcomed the opening but asked for longer hours on weekends and public holidays.",
]


def toml(slug: str, host: str, *, sitemap: bool = False) -> str:
    extra = f'\nsitemaps = ["https://{host}/{slug}/sitemap.xml"]' if sitemap else ""
    return f"""name = "{slug.title()}"
home = "https://{host}/"
domains = ["{host}"]
languages = ["en"]

[sources]
feeds = ["https://{host}/{slug}/feed.xml"]{extra}

[[rules]]
version = "2026"
author_selectors = [".byline a"]
"""


def article(title: str, body: str) -> str:
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} | Paper</title>
<meta property="og:title" content="{title}">
<meta property="article:published_time" content="2026-11-03T10:15:00+02:00"></head>
<body><h1>{title}</h1><div class="byline">By <a href="/author/x">Thandi Mokoena</a></div>
{body}</body></html>"""


def feed(links: list[str]) -> str:
    items = "".join(f"<item><title>t</title><link>{link}</link></item>" for link in links)
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>{items}</channel></rss>'


def write_site(root: Path) -> None:
    paragraphs = "".join(f"<p>{p}</p>" for p in STORY)
    files = {
        "goodpaper/feed.xml": feed(["{base}/goodpaper/news/new-clinic-opens-after-delays"]),
        "goodpaper/news/new-clinic-opens-after-delays": article("New clinic opens after delays", paragraphs),
        "changedpaper/feed.xml": feed(["{base}/changedpaper/news/new-clinic-opens-after-delays"]),
        # the new layout builds the story with a script: the page holds a shell and no text
        "changedpaper/news/new-clinic-opens-after-delays": article(
            "New clinic opens after delays", '<div id="root"></div><script src="/app.js"></script>'
        ),
        "offsite/feed.xml": feed(["https://elsewhere.example/news/a-story-somewhere-else"]),
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SiteServer, Path]]:
    root = tmp_path_factory.mktemp("site")
    pubs = tmp_path_factory.mktemp("pubs")
    write_site(root)
    for slug, host, sitemap in (
        ("goodpaper", "www.goodpaper.example", False),
        ("gonepaper", "gonepaper.example", True),
        ("changedpaper", "www.changedpaper.example", False),
        ("offsite", "offsite.example", False),
    ):
        (pubs / f"{slug}.toml").write_text(toml(slug, host, sitemap=sitemap), encoding="utf-8")
    with SiteServer.from_directory(root) as server:
        yield server, pubs


def probe(slug: str, pubs: Path, base: str | None) -> tuple[object, Probe]:
    pub = load_publication(slug, str(pubs))
    return pub, Probe(pub, user_agent="sacorpus-test", timeout=10, max_bytes=1 << 20, base_url=base)


def test_a_working_publication_reports_every_field_and_its_rule_version(site) -> None:
    server, pubs = site
    pub, fetch = probe("goodpaper", pubs, server.base_url)
    check = check_publication(pub, fetch)  # type: ignore[arg-type]
    assert check.status == "ok", check
    assert check.source == "https://www.goodpaper.example/goodpaper/feed.xml"
    # the article is reported under the publication's own URL, not the mirror's
    assert check.article == "https://www.goodpaper.example/goodpaper/news/new-clinic-opens-after-delays"
    assert check.title == "New clinic opens after delays"
    assert check.authors == ["Thandi Mokoena"]
    assert (check.published or "").startswith("2026-11-03")
    assert check.rule_version == "2026" and check.text_chars > 200


def test_gone_sources_and_an_emptied_layout_are_broken_with_reasons(site) -> None:
    server, pubs = site
    gone = check_publication(*probe("gonepaper", pubs, server.base_url))  # type: ignore[misc]
    assert gone.status == "broken" and gone.problems == ["no-source"]
    assert len(gone.notes) == 2 and all("HTTP 404" in n for n in gone.notes)  # feed and sitemap tried
    changed = check_publication(*probe("changedpaper", pubs, server.base_url))  # type: ignore[misc]
    assert changed.status == "broken" and "empty-text" in changed.problems
    assert changed.title == "New clinic opens after delays"  # the title still extracts: only text is gone


def test_a_feed_listing_other_hosts_is_not_followed(site) -> None:
    server, pubs = site
    check = check_publication(*probe("offsite", pubs, server.base_url))  # type: ignore[misc]
    assert check.problems == ["no-article"] and check.article is None
    paths = [p for _m, p in server.requests]
    assert not any("somewhere-else" in p for p in paths)


def test_loopback_addresses_are_refused_without_a_mirror(site) -> None:
    server, _pubs = site
    pub = parse_publication("loop", toml("loop", server.base_url.split("//")[1]))
    fetch = Probe(pub, user_agent="t", timeout=5, max_bytes=1 << 20)
    answer = fetch(server.url("/goodpaper/feed.xml"))
    assert not answer.ok and (answer.error or "").startswith("refused:") and "loopback" in answer.error


def run_command(*args: str, pubs: Path | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "check-publications", *args]
    if pubs is not None:
        cmd += ["-s", f"SACORPUS_PUBLICATIONS_DIR={pubs}"]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)


def test_command_exits_non_zero_when_one_publication_is_broken(site) -> None:
    server, pubs = site
    run = run_command("goodpaper", "gonepaper", "changedpaper", "--base-url", server.base_url, pubs=pubs)
    assert run.returncode == 1, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert any(line.startswith("goodpaper: ok rules=2026") for line in lines), run.stdout
    assert any(line.startswith("gonepaper: broken (no-source)") for line in lines), run.stdout
    assert any(line.startswith("changedpaper: broken (empty-text") for line in lines), run.stdout
    assert "publication" in run.stdout and "Traceback" not in run.stderr


def test_command_json_and_zero_exit_for_working_publications(site) -> None:
    server, pubs = site
    run = run_command("goodpaper", "--json", "--base-url", server.base_url, pubs=pubs)
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    (check,) = json.loads(run.stdout)
    assert check["slug"] == "goodpaper" and check["status"] == "ok" and check["rule_version"] == "2026"
    assert check["authors"] == ["Thandi Mokoena"]


def test_unknown_publication_is_one_clear_line() -> None:
    run = run_command("nosuchpaper")
    assert run.returncode == 2 and "nosuchpaper.toml: no such publication file" in run.stdout
    assert "Traceback" not in run.stderr


SITES = REPO / "tests" / "sites"
SHIPPED = sorted(s for s in publication_slugs() if s != "demo" and (SITES / s / "expected.json").is_file())


@pytest.mark.parametrize("slug", SHIPPED)
def test_shipped_publications_pass_on_their_fixture_sites(slug: str) -> None:
    """Every shipped publication with a live fixture site: feeds, sitemap indexes, gzipped sitemaps,
    section-limited titles on a shared host, pages in other languages."""
    pub = load_publication(slug)
    with SiteServer.from_directory(SITES / slug) as server:
        fetch = Probe(pub, user_agent="t", timeout=10, max_bytes=1 << 22, base_url=server.base_url)
        check = check_publication(pub, fetch)
    if not (pub.sources.feeds or pub.sources.sitemaps or pub.sources.news_sitemaps or pub.sources.robots):
        assert check.status == "skipped" and check.problems == []  # a Wayback-only title
        return
    assert check.status == "ok", check
    assert check.rule_version == pub.rules_for(None).version
    assert pub.owns(urlsplit(check.article or "").hostname or "")


def test_a_publication_with_robots_only_finds_its_sitemap_there(tmp_path: Path) -> None:
    pub = parse_publication(
        "robotsonly",
        'name = "R"\nhome = "https://www.robotsonly.example/"\ndomains = ["robotsonly.example"]\n'
        'languages = ["en"]\n[sources]\nrobots = true\n',
    )
    site = tmp_path / "site"
    (site / "news" / "new-clinic-opens-after-delays").mkdir(parents=True)
    (site / "robots.txt").write_text("User-agent: *\nAllow: /\nSitemap: {base}/maps/posts.xml\n")
    (site / "maps").mkdir()
    (site / "maps" / "posts.xml").write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>{base}/news/new-clinic-opens-after-delays/</loc></url></urlset>"
    )
    body = article("New clinic opens after delays", "".join(f"<p>{p}</p>" for p in STORY))
    (site / "news" / "new-clinic-opens-after-delays" / "index.html").write_text(body)
    with SiteServer.from_directory(site) as server:
        fetch = Probe(pub, user_agent="t", timeout=10, max_bytes=1 << 20, base_url=server.base_url)
        check = check_publication(pub, fetch)
    assert check.status == "ok", check
    assert check.source == "https://www.robotsonly.example/maps/posts.xml"


def test_a_sitemap_is_read_newest_first(tmp_path: Path) -> None:
    """Sitemaps often list oldest first: the check reads the newest child and the newest article, the
    layout a live crawl meets today (the old article here has a layout the rules no longer read)."""
    pub = parse_publication(
        "mapped",
        'name = "M"\nhome = "https://mapped.example/"\ndomains = ["mapped.example"]\nlanguages = ["en"]\n'
        '[sources]\nsitemaps = ["https://mapped.example/sitemap_index.xml"]\n',
    )
    urlset = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{}</urlset>'
    row = "<url><loc>{{base}}/news/{}/</loc><lastmod>{}</lastmod></url>"
    files = {
        "sitemap_index.xml": '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<sitemap><loc>{base}/post-sitemap1.xml</loc><lastmod>2019-01-01</lastmod></sitemap>"
        "<sitemap><loc>{base}/post-sitemap2.xml</loc><lastmod>2026-11-03</lastmod></sitemap></sitemapindex>",
        "post-sitemap1.xml": urlset.format(row.format("a-story-from-long-ago", "2019-01-01")),
        "post-sitemap2.xml": urlset.format(
            row.format("an-older-story-this-year", "2026-01-05")
            + row.format("new-clinic-opens", "2026-11-03")
        ),
        "news/new-clinic-opens/index.html": article(
            "New clinic opens", "".join(f"<p>{p}</p>" for p in STORY)
        ),
        "news/an-older-story-this-year/index.html": article("Older", '<div id="root"></div>'),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    with SiteServer.from_directory(tmp_path) as server:
        fetch = Probe(pub, user_agent="t", timeout=10, max_bytes=1 << 20, base_url=server.base_url)
        check = check_publication(pub, fetch)
    assert check.status == "ok", check
    assert check.article == "https://mapped.example/news/new-clinic-opens/"
