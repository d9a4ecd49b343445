"""A Demo Gazette of any size: thousands of generated articles for fault-injection runs and benchmarks.

Why generated: a fault (a killed crawl, a store outage) only shows what it loses on a crawl long enough
to be interrupted in the middle, and the 32 hand-written demo stories are gone in seconds. The pages
use the demo's own templates (``sacorpus.demo.site``) and URL layout, so ``scrapy crawl demo -a
base_url=...`` crawls them with the demo publication's rules. Every twentieth article is a syndicated
copy of an earlier story, published a day after it but listed before it (sitemaps list newest first),
so the crawl fetches many copies before their originals. Deterministic for a given ``n`` and ``seed``.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from sacorpus.demo.server import Resource
from sacorpus.demo.site import HTML, XML, DemoArticle, _rss, _sitemap_index, _urlset, render_article

_SUBJECTS = (
    "The provincial health department",
    "Residents of Mamelodi",
    "The municipal council",
    "Eskom's chief executive",
    "Taxi associations in Durban",
    "The reserve bank's monetary committee",
    "Farmers near Bethlehem",
    "The teachers' union",
    "A coalition of civic groups",
    "The transport minister",
    "Small business owners in Gqeberha",
    "Learners at a Soweto high school",
)
_VERBS = ("announced", "rejected", "welcomed", "criticised", "postponed", "approved", "questioned")
_OBJECTS = (
    "a plan to rebuild {n} clinics",
    "the tariff increase of {n} percent",
    "a report on {n} unfinished houses",
    "the budget for {n} new buses",
    "a proposal to hire {n} nurses",
    "the closure of {n} rural schools",
    "a settlement worth {n} million rand",
)
_WHEN = ("on Monday", "this week", "after a long meeting", "in a statement", "at a briefing in the city")


@dataclass(frozen=True)
class BigSite:
    resources: dict[str, Resource]
    articles: list[DemoArticle]
    copies: dict[int, int]  # copy id -> original id
    huge: list[str]  # paths of the pages too large for one MongoDB document


def _sentence(rng: random.Random) -> str:
    obj = rng.choice(_OBJECTS).format(n=rng.randint(2, 99_999))
    return f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {obj} {rng.choice(_WHEN)}, number {rng.randint(1, 10**9)}."


def _story(rng: random.Random) -> tuple[str, ...]:
    return tuple(" ".join(_sentence(rng) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(4, 7)))


def _articles(n: int, seed: int) -> tuple[list[DemoArticle], dict[int, int]]:
    rng = random.Random(seed)
    start = datetime.fromisoformat("2026-01-01T06:00:00+02:00")
    out: list[DemoArticle] = []
    copies: dict[int, int] = {}
    for i in range(n):
        art_id = 500_000 + i
        when = start + timedelta(hours=3 * i)
        section = "news" if i % 3 else "business"
        paragraphs = _story(rng)
        if i % 20 == 19:  # a syndicated copy of a story published earlier, out a day after it
            original = out[i - 7]
            paragraphs = original.paragraphs
            when = original.published + timedelta(days=1)
            copies[art_id] = original.id
        out.append(
            DemoArticle(
                id=art_id,
                section=section,
                published=when,
                slug=f"story-{i}-{rng.choice(('water', 'power', 'schools', 'health', 'transport'))}-update",
                headline=f"Story {i}: " + paragraphs[0][:60].rstrip(),
                author=rng.choice(("Thandi Mokoena", "Sipho Dlamini", "Ayesha Davids", "Pieter Botha")),
                lang="en",
                paragraphs=paragraphs,
            )
        )
    return out, copies


def _huge_article(base: DemoArticle, megabytes: int, seed: int) -> tuple[DemoArticle, bytes]:
    """A story whose page carries ``megabytes`` of incompressible inline data (a page that does not
    fit one MongoDB document even compressed)."""
    art = DemoArticle(
        id=base.id + 90_000,
        section="news",
        published=base.published + timedelta(minutes=30),
        slug="huge-page-with-an-embedded-data-blob",
        headline="A page carrying a very large embedded data blob",
        author=base.author,
        lang="en",
        paragraphs=_story(random.Random(seed + 1)),
    )
    blob = base64.b64encode(random.Random(seed).randbytes(megabytes * 3 * 1024 * 1024 // 4))
    page = render_article(art, [])
    page = page.replace(b"</main>", b'<script type="application/json">"' + blob + b'"</script></main>', 1)
    return art, page


def build_big_site(n: int = 1200, seed: int = 7, huge_mb: int = 0) -> BigSite:
    """``n`` articles (+1 page of ``huge_mb`` MB when set), sitemaps of 500 URLs, a feed and robots.txt."""
    articles, copies = _articles(n, seed)
    site: dict[str, Resource] = {}
    for i, a in enumerate(articles):
        site[a.path] = Resource(render_article(a, articles[max(0, i - 3) : i]), HTML)
    huge: list[str] = []
    if huge_mb:
        art, page = _huge_article(articles[n // 2], huge_mb, seed)
        site[art.path] = Resource(page, HTML)
        articles.append(art)
        huge.append(art.path)
    newest_first = sorted(articles, key=lambda a: (a.published, a.id), reverse=True)
    chunks = [newest_first[i : i + 500] for i in range(0, len(newest_first), 500)]
    paths = []
    for k, chunk in enumerate(chunks):
        path = f"/sitemaps/articles-{k}.xml"
        site[path] = Resource(_urlset([(a.path, a.published) for a in chunk]), XML)
        paths.append(path)
    site["/sitemap_index.xml"] = Resource(_sitemap_index(paths, newest_first[0].published), XML)
    site["/news-sitemap.xml"] = Resource(_urlset([(a.path, a.published) for a in newest_first[:10]]), XML)
    site["/rss.xml"] = Resource(_rss(newest_first[:15]), "application/rss+xml; charset=utf-8")
    site["/business/atom.xml"] = Resource(_rss(newest_first[:5]), "application/rss+xml; charset=utf-8")
    site["/robots.txt"] = Resource(
        b"User-agent: *\nDisallow: /search\n\nSitemap: {base}/sitemap_index.xml\n",
        "text/plain; charset=utf-8",
    )
    site["/"] = Resource(b"<html><body><h1>The Demo Gazette</h1></body></html>", HTML)
    return BigSite(site, articles, copies, huge)
