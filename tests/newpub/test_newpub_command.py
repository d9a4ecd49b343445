"""``scrapy newpub`` against fixture sites on loopback, then ``scrapy crawl`` of what it wrote.

The target: on each kind of site (feeds only, sitemap only, homepage only, Afrikaans) the generated
publication, unedited, validates and its crawl stores every fixture article with the right title, date
and language. Also: a homepage-only publication re-reads its pages on the next run; content naming
another server is not fetched; ``--dry-run`` writes nothing; an unreadable homepage exits non-zero.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawlkit import FAST, REPO, SCRAPY, CrawlRun, run_crawl
from newpub_sites import SITES, FixtureSite, Story, article_html, homepage_site, listing

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.publications import load_publication


def newpub(site: SiteServer, slug: str, pubdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [*SCRAPY, "newpub", slug, site.base_url + "/", *FAST, *allowed(site), *args]
    env = {"SACORPUS_PUBLICATIONS_DIR": str(pubdir), "PATH": str(Path(SCRAPY[0]).parent)}
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=180)


def allowed(site: SiteServer) -> list[str]:
    """The run may fetch this loopback server (the address guard refuses loopback otherwise)."""
    return ["-s", f"SACORPUS_ALLOWED_HOSTS={site.base_url.split('//', 1)[1]}"]


def crawl(site: SiteServer, slug: str, pubdir: Path, workdir: Path) -> CrawlRun:
    return run_crawl(slug, workdir, *allowed(site), env={"SACORPUS_PUBLICATIONS_DIR": str(pubdir)})


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, tuple[FixtureSite, SiteServer]]]:
    started = {}
    for kind, build in SITES.items():
        site = build()
        started[kind] = (site, SiteServer(site.resources).start())
    yield started
    for _site, server in started.values():
        server.stop()


def assert_stored(run: CrawlRun, site: FixtureSite, base: str) -> None:
    by_url = {item["url"]: item for item in run.items}
    stories, language = site.stories, site.language
    for story in stories:
        item = by_url.get(base + story.path)
        assert item is not None, f"{story.path} not stored: {sorted(by_url)}\n{run.log[-3000:]}"
        assert item["title_clean"] == story.title
        assert (item["published_at"] or "")[:10] == story.day, (story.path, item["published_at"])
        assert item["language"] == language
        assert story.author in item["authors"]
        assert site.furniture not in item["text"] and story.paragraphs[-1] in item["text"]


@pytest.mark.parametrize("kind", sorted(SITES))
def test_newpub_then_crawl_stores_every_fixture_article(
    kind: str, servers: dict[str, tuple[FixtureSite, SiteServer]], tmp_path: Path
) -> None:
    site, server = servers[kind]
    slug = f"np_{kind}"
    made = newpub(server, slug, tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    text = (tmp_path / f"{slug}.toml").read_text("utf-8")
    pub = load_publication(slug, str(tmp_path))  # the generated file validates as it is
    assert pub.languages == (site.language,) and pub.name == site.name
    assert "# " in text and "could not be determined" not in text.lower()
    run = crawl(server, slug, tmp_path, tmp_path / "run")
    assert run.returncode == 0, run.log[-3000:]
    assert_stored(run, site, server.base_url)
    if kind == "homepage":
        assert not (pub.sources.feeds or pub.sources.sitemaps) and len(pub.sources.start_urls) >= 2
        assert pub.urls.id_pattern and pub.rules[0].author_selectors  # markup of the site's own
    else:
        assert pub.sources.feeds or pub.sources.sitemaps


def test_homepage_only_publication_rereads_its_pages_on_each_run(tmp_path: Path) -> None:
    site = homepage_site()
    with SiteServer(site.resources) as server:
        assert newpub(server, "np_again", tmp_path).returncode == 0
        first = crawl(server, "np_again", tmp_path, tmp_path / "run")
        assert len(first.items) == len(site.stories)
        fresh = Story(
            "/stories/104400-new-bridge-opens-to-traffic",
            "New bridge opens to traffic",
            "Nomsa Zulu",
            "2026-11-09",
            ("The new bridge over the river opened to traffic on Monday morning. " * 6,),
        )
        server.add_response(
            fresh.path,
            200,
            {"Content-Type": "text/html; charset=utf-8"},
            article_html(site.name, fresh, "", meta=False, lang="en"),
        )
        links = [(fresh.path, fresh.title), *((s.path, s.title) for s in site.stories[:2])]
        server.add_response(
            "/", 200, {"Content-Type": "text/html; charset=utf-8"}, listing(site.name, "Home", links)
        )
        second = crawl(server, "np_again", tmp_path, tmp_path / "run")
        base = server.base_url
    assert second.returncode == 0, second.log[-3000:]
    assert [item["url"] for item in second.items] == [base + fresh.path]
    assert second.items[0]["title_clean"] == fresh.title


def test_content_naming_other_servers_is_not_fetched_and_robots_txt_is_obeyed(tmp_path: Path) -> None:
    """A feed link and a robots.txt sitemap on another loopback server: neither is fetched; nor is a
    section robots.txt disallows."""
    with SiteServer({"/feed": _Res(b"<rss></rss>"), "/sitemap.xml": _Res(b"<urlset/>")}) as other:
        site = homepage_site()
        robots = f"User-agent: *\nDisallow: /section/sport\nSitemap: {other.base_url}/sitemap.xml\n"
        site.resources["/robots.txt"] = _Res(robots.encode(), "text/plain")
        head = f'<link rel="alternate" type="application/rss+xml" href="{other.base_url}/feed">'
        page = site.resources["/"].body.replace(b"</head>", head.encode() + b"</head>")
        site.resources["/"] = _Res(page)
        with SiteServer(site.resources) as server:
            made = newpub(server, "np_guarded", tmp_path, "--dry-run")
            fetched = [path for _method, path in server.requests]
        assert made.returncode == 0, made.stderr
        assert other.requests == []
        assert "/section/local" in fetched and "/section/sport" not in fetched
        assert "on another host" in made.stdout


def test_dry_run_prints_and_writes_nothing(
    servers: dict[str, tuple[FixtureSite, SiteServer]], tmp_path: Path
) -> None:
    _site, server = servers["feeds"]
    made = newpub(server, "np_dry", tmp_path, "--dry-run")
    assert made.returncode == 0, made.stderr
    assert "[sources]" in made.stdout and "feeds = [" in made.stdout and "not written" in made.stdout
    assert list(tmp_path.iterdir()) == []


def test_unreadable_homepage_fails_with_one_line(tmp_path: Path) -> None:
    with SiteServer({"/other": _Res(b"<html></html>")}) as server:
        made = newpub(server, "np_gone", tmp_path)
    assert made.returncode == 1
    assert "homepage" in made.stderr and "HTTP 404" in made.stderr and "Traceback" not in made.stderr
    assert list(tmp_path.iterdir()) == []


def test_project_files_without_a_publications_dir(
    servers: dict[str, tuple[FixtureSite, SiteServer]], tmp_path: Path
) -> None:
    """In a project (no SACORPUS_PUBLICATIONS_DIR) the TOML, the spider file and the fixture skeleton."""
    (tmp_path / "scrapy.cfg").write_text((REPO / "scrapy.cfg").read_text())
    _site, server = servers["afrikaans"]
    cmd = [*SCRAPY, "newpub", "np_project", server.base_url + "/", *FAST, *allowed(server)]
    env = {"PYTHONPATH": str(REPO), "PATH": str(Path(SCRAPY[0]).parent)}
    made = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert made.returncode == 0, made.stdout + made.stderr
    assert (tmp_path / "publications" / "np_project.toml").is_file()
    spider = (tmp_path / "sacorpus" / "spiders" / "np_project.py").read_text()
    assert 'name = "np_project"' in spider and "PublicationSpider" in spider
    expected = json.loads((tmp_path / "tests" / "sites" / "np_project" / "expected.json").read_text())
    articles = expected["articles"]
    assert 2 <= len(articles) <= 3
    assert all(a["language"] == "af" and a["title_clean"] and a["published"] for a in articles.values())


def _Res(body: bytes, content_type: str = "text/html; charset=utf-8") -> Resource:
    return Resource(body, content_type)
