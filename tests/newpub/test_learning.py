"""The pure parts of newpub: feed and sitemap candidates, URL and id patterns, the rendered file."""

from __future__ import annotations

import re

from sacorpus.newpub.discover import Finding, site_name
from sacorpus.newpub.patterns import learn_id_pattern, learn_url_patterns
from sacorpus.newpub.render import publication_toml, toml_string
from sacorpus.publications import parse_publication
from sacorpus.sources.discovery import feed_candidates, page_links, sitemap_candidates

HOME = "https://www.example.co.za/"


def _matches(patterns: list[str], path: str) -> bool:
    return any(re.search(p, path) for p in patterns)


def test_feed_candidates_announced_first_then_links_then_common_paths() -> None:
    html = (
        '<html><head><link rel="alternate" type="application/atom+xml" href="/atom/news">'
        '<link rel="stylesheet" href="/x.css"></head><body>'
        '<a href="/rss/sport.xml">Sport</a><a href="/news/feeding-scheme-expands/">story</a>'
        '<a href="https://other.example/feed/">theirs</a><a href="/nuus/">RSS</a></body></html>'
    )
    found = feed_candidates(html, HOME)
    assert found[:2] == ["https://www.example.co.za/atom/news", "https://www.example.co.za/rss/sport.xml"]
    assert "https://www.example.co.za/nuus/" in found  # the link text says RSS
    assert "https://www.example.co.za/news/feeding-scheme-expands/" not in found
    assert found[-6:] == [
        HOME.rstrip("/") + p for p in ("/feed", "/rss", "/rss.xml", "/feeds", "/atom.xml", "/index.xml")
    ]


def test_sitemap_candidates_robots_first_then_standard_locations() -> None:
    robots = "User-agent: *\nDisallow: /admin/\nSitemap: https://www.example.co.za/sm/index.xml\n"
    found = sitemap_candidates(robots, HOME)
    assert found[0] == "https://www.example.co.za/sm/index.xml"
    assert "https://www.example.co.za/news-sitemap.xml" in found and len(found) == 5
    assert sitemap_candidates(None, HOME)[0] == "https://www.example.co.za/sitemap.xml"


def test_page_links_absolute_once_without_fragments() -> None:
    links = page_links('<a href="/a#top">A</a><a href="/a">A again</a><a href="mailto:x@y">m</a>', HOME)
    assert [(link.url, link.text) for link in links] == [("https://www.example.co.za/a", "A")]
    assert page_links("", HOME) == []


def test_patterns_generalise_sections_and_deny_by_counter_example() -> None:
    articles = [
        "https://www.example.co.za/news/taps-run-dry-again/",
        "https://www.example.co.za/sport/stars-win-the-final/",
    ]
    others = [
        "https://www.example.co.za/tag/water-crisis/",  # 1 hyphen: the pattern tightens to 2
        "https://www.example.co.za/author/jane-van-der-merwe/",  # as many hyphens: denied
        "https://www.example.co.za/news/",
    ]
    learnt = learn_url_patterns(articles, others)
    assert _matches(learnt.article, "/business/rand-gains-against-dollar/")  # a section not sampled
    assert not _matches(learnt.article, "/tag/water-crisis/") and not _matches(learnt.article, "/news/")
    assert learnt.deny == ["^/author/"]
    assert learn_url_patterns(articles, []).article != learnt.article  # without evidence: more general


def test_dated_paths_and_ids() -> None:
    articles = [
        "https://www.example.co.za/2026/11/02/new-clinic-opens/",
        "https://www.example.co.za/2026/11/06/hail-hits-farms/",
    ]
    learnt = learn_url_patterns(articles, ["https://www.example.co.za/category/health/"])
    assert learnt.article == [r"^/\d{4}/\d{1,2}/\d{1,2}/[^/?]*-[^/?]*/?(?:\?.*)?$"]
    assert learnt.id_pattern is None
    ids = ["https://x.co.za/stories/104233-taxi-rank", "https://x.co.za/stories/104251-library"]
    pattern = learn_id_pattern(ids)
    assert pattern is not None
    assert [re.search(pattern, u).group("id") for u in ids] == ["104233", "104251"]  # type: ignore[union-attr]
    assert learn_id_pattern(["https://x.co.za/a-slug-20240101", "https://x.co.za/b-slug-20240102"]) is None
    assert learn_id_pattern(["https://x.co.za/a/12345", "https://x.co.za/b/12345"]) is None  # not distinct


def test_site_name_from_og_or_title() -> None:
    assert site_name('<meta property="og:site_name" content="Die Dorpsnuus">', "x") == "Die Dorpsnuus"
    assert site_name("<title>Home | Valley Voice</title>", "x") == "Valley Voice"
    assert site_name("<p>nothing</p>", "fallback") == "fallback"


def test_rendered_file_validates_and_comments_what_is_missing() -> None:
    found = Finding(slug="valley", home=HOME, name="Valley's Voice")
    found.start_urls = [HOME]
    found.patterns = learn_url_patterns([HOME + "stories/104233-taxi-rank"], [])
    found.missing.append("language: not identified on the samples (give --language)")
    found.language = "zu"
    text = publication_toml(found, "scrapy newpub valley " + HOME)
    pub = parse_publication("valley", text)
    assert pub.name == "Valley's Voice" and pub.languages == ("zu",) and pub.urls.article
    assert "# could not be determined: language" in text and "# country: not determined" in text
    assert toml_string("a'b") == '"a\'b"' and toml_string(r"^/\d+$") == r"'^/\d+$'"
