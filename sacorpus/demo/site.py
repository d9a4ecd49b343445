"""The Demo Gazette: a synthetic South African news site built in memory, so ``scrapy crawl demo`` works offline.

Why synthetic and generated: the project must demonstrate (and test) every stage without the internet
and without shipping anyone's copyrighted pages. The site is deliberately awkward in the ways real
sites are: RSS and Atom feeds that cover only part of the site, a robots.txt pointing at a sitemap
index with a gzip-compressed sitemap, a gallery that must be skipped, near-duplicate stories across
sections, isiZulu and Afrikaans stories, text hidden from readers, and paragraphs glued without
whitespace. Content lives in ``articles.toml`` (package data); this module only renders it.

Links are absolute with the ``{base}`` placeholder, which :class:`sacorpus.demo.server.SiteServer`
replaces at serve time. Output is deterministic: same input, same bytes (gzip with mtime 0).
"""

from __future__ import annotations

import gzip
import html
import json
from datetime import datetime

from sacorpus.demo.articles import (
    COPYRIGHT_TEXT,
    DAYS,
    DEMO_HOST,
    GALLERY_PATH,
    HIDDEN_MARKERS,
    MONTHS,
    NEWSLETTER_TEXT,
    SITE_NAME,
    TITLE_SUFFIX,
    DemoArticle,
    load_articles,
)
from sacorpus.demo.comments import comments_html
from sacorpus.demo.server import Resource

# --- rendering ------------------------------------------------------------------------------------------


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _human_date(d: datetime) -> str:
    return f"{DAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}, {d:%H:%M}"


def _rfc822(d: datetime) -> str:
    return d.strftime("%a, %d %b %Y %H:%M:%S %z")


def _header() -> str:
    return (
        '<header class="site-header">\n'
        f'  <a class="logo" href="{{base}}/">{SITE_NAME}</a>\n'
        '  <nav class="main-nav" aria-label="Sections"><ul>\n'
        '    <li><a href="{base}/">Home</a></li>\n'
        '    <li><a href="{base}/news/">News</a></li>\n'
        '    <li><a href="{base}/business/">Business</a></li>\n'
        f'    <li><a href="{{base}}{GALLERY_PATH}">Pictures</a></li>\n'
        "  </ul></nav>\n"
        "</header>\n"
    )


def _footer() -> str:
    return (
        '<footer class="site-footer">\n'
        '  <ul class="footer-links"><li><a href="{base}/about">About us</a></li>'
        '<li><a href="{base}/contact">Contact</a></li><li><a href="{base}/privacy">Privacy policy</a></li></ul>\n'
        f'  <p class="copyright">{_e(COPYRIGHT_TEXT)}</p>\n'
        "</footer>\n"
    )


def _page(title: str, head_extra: str, body: str, lang: str = "en") -> bytes:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}-ZA">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n{head_extra}"
        "<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}</style>\n"
        f"</head>\n<body>\n{_header()}{body}{_footer()}</body>\n</html>\n"
    ).encode()


def _hidden_blocks() -> list[str]:
    m = [_e(x) for x in HIDDEN_MARKERS]
    return [
        f'<p style="display:none">{m[0]}</p>',
        f'<div style="DISPLAY: NONE"><p>{m[1]}</p></div>',
        f"<p hidden>{m[2]}</p>",
        f'<p class="sr-only">{m[3]}</p>',
        f"<template><p>{m[4]}</p></template>",
    ]


def _body_html(a: DemoArticle) -> str:
    paras = [f"<p>{_e(p)}</p>" for p in a.paragraphs]
    if a.special == "glued":
        return "".join(paras)
    if a.special == "hidden":
        hidden = _hidden_blocks()
        mixed: list[str] = []
        for i, p in enumerate(paras):
            mixed.append(p)
            if i < len(hidden):
                mixed.append(hidden[i])
        mixed.extend(hidden[len(paras) :])
        paras = mixed
    return "\n      ".join(paras)


def _json_ld(a: DemoArticle) -> str:
    data = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": a.headline,
        "datePublished": a.published.isoformat(),
        "dateModified": a.published.isoformat(),
        "inLanguage": a.lang,
        "author": [{"@type": "Person", "name": a.author}],
        "publisher": {"@type": "Organization", "name": SITE_NAME},
        "mainEntityOfPage": "{base}" + a.path,
        "articleSection": a.section.title(),
    }
    return json.dumps(data, ensure_ascii=False)


def render_article(a: DemoArticle, related: list[DemoArticle]) -> bytes:
    iso = a.published.isoformat()
    head = (
        f'<link rel="canonical" href="{{base}}{a.path}">\n'
        f'<meta name="description" content="{_e(a.paragraphs[0][:160])}">\n'
        f'<meta name="author" content="{_e(a.author)}">\n'
        f'<meta property="og:type" content="article">\n'
        f'<meta property="og:title" content="{_e(a.headline)}">\n'
        f'<meta property="og:site_name" content="{SITE_NAME}">\n'
        f'<meta property="og:url" content="{{base}}{a.path}">\n'
        f'<meta property="article:published_time" content="{iso}">\n'
        f'<meta property="article:section" content="{a.section.title()}">\n'
        f'<script type="application/ld+json">{_json_ld(a)}</script>\n'
    )
    links = "\n".join(f'      <li><a href="{{base}}{r.path}">{_e(r.headline)}</a></li>' for r in related)
    by = "Ngu" if a.lang == "zu" else "Deur" if a.lang == "af" else "By"
    body = (
        '<main id="content">\n'
        '  <article class="story">\n'
        f'    <p class="kicker"><a href="{{base}}/{a.section}/">{a.section.title()}</a></p>\n'
        f'    <h1 class="headline">{_e(a.headline)}</h1>\n'
        f'    <p class="byline">{by} <a class="author-name" href="{{base}}/authors/'
        f'{a.author.lower().replace(" ", "-")}">{_e(a.author)}</a></p>\n'
        f'    <time class="published" datetime="{iso}">{_human_date(a.published)}</time>\n'
        '    <div class="story-body">\n'
        f"      {_body_html(a)}\n"
        f'      <p class="story-copyright">{_e(COPYRIGHT_TEXT)}</p>\n'
        "    </div>\n"
        "  </article>\n"
        f"{comments_html(a.id, a.path)}"
        '  <aside class="related-links">\n    <h2>Related links</h2>\n    <ul>\n'
        f"{links}\n    </ul>\n  </aside>\n"
        '  <div class="newsletter-box">\n'
        f"    <h3>Newsletter</h3>\n    <p>{_e(NEWSLETTER_TEXT)}</p>\n"
        '    <form action="{base}/newsletter" method="post"><input type="email" name="email" '
        'placeholder="Your email address"><button type="submit">Sign up</button></form>\n'
        "  </div>\n"
        "</main>\n"
    )
    return _page(a.headline + TITLE_SUFFIX, head, body, a.lang)


def _listing(title: str, articles: list[DemoArticle]) -> bytes:
    items = "\n".join(
        f'    <li><a href="{{base}}{a.path}">{_e(a.headline)}</a> <time datetime="{a.published.isoformat()}">'
        f"{_human_date(a.published)}</time></li>"
        for a in articles
    )
    body = (
        f'<main id="content">\n  <h1>{_e(title)}</h1>\n  <ul class="story-list">\n{items}\n  </ul>\n</main>\n'
    )
    return _page(f"{title}{TITLE_SUFFIX}", "", body)


def _gallery() -> bytes:
    captions = [
        "Jacaranda blossoms carpet a street in Pretoria’s Arcadia suburb.",
        "A cyclist rides beneath jacaranda trees in Westcliff, Johannesburg.",
        "Students pose for photographs under the trees at the University of Pretoria.",
    ]
    figures = "\n".join(
        f'  <figure><img src="{{base}}/images/jacaranda-{i}.jpg" alt=""><figcaption>{_e(c)}</figcaption></figure>'
        for i, c in enumerate(captions, 1)
    )
    head = '<meta property="og:type" content="website">\n<meta property="og:site_name" content="The Demo Gazette">\n'
    body = (
        f'<main id="content" class="gallery">\n  <h1>In pictures: jacaranda season</h1>\n{figures}\n</main>\n'
    )
    return _page("In pictures: jacaranda season" + TITLE_SUFFIX, head, body)


def _rss(articles: list[DemoArticle]) -> bytes:
    items = "\n".join(
        "    <item>\n"
        f"      <title>{_e(a.headline)}</title>\n"
        f"      <link>{{base}}{a.path}</link>\n"
        f'      <guid isPermaLink="false">demo-gazette-{a.id}</guid>\n'
        f"      <pubDate>{_rfc822(a.published)}</pubDate>\n"
        f"      <dc:creator>{_e(a.author)}</dc:creator>\n"
        f"      <category>{a.section.title()}</category>\n"
        f"      <description>{_e(a.paragraphs[0])}</description>\n"
        "    </item>"
        for a in articles
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">\n'
        "  <channel>\n"
        f"    <title>{SITE_NAME}</title>\n    <link>{{base}}/</link>\n"
        '    <atom:link href="{base}/rss.xml" rel="self" type="application/rss+xml"/>\n'
        "    <description>News from The Demo Gazette, a synthetic South African newspaper.</description>\n"
        "    <language>en-za</language>\n"
        f"    <lastBuildDate>{_rfc822(articles[0].published)}</lastBuildDate>\n"
        f"{items}\n  </channel>\n</rss>\n"
    ).encode()


def _atom(articles: list[DemoArticle]) -> bytes:
    entries = "\n".join(
        "  <entry>\n"
        f"    <title>{_e(a.headline)}</title>\n"
        f'    <link rel="alternate" href="{{base}}{a.path}"/>\n'
        f"    <id>tag:{DEMO_HOST},2026:{a.id}</id>\n"
        f"    <published>{a.published.isoformat()}</published>\n"
        f"    <updated>{a.published.isoformat()}</updated>\n"
        f"    <author><name>{_e(a.author)}</name></author>\n"
        f'    <summary type="text">{_e(a.paragraphs[0])}</summary>\n'
        "  </entry>"
        for a in articles
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-ZA">\n'
        f"  <title>{SITE_NAME}: Business</title>\n"
        f"  <id>tag:{DEMO_HOST},2026:business</id>\n"
        '  <link rel="self" href="{base}/business/atom.xml"/>\n'
        '  <link rel="alternate" href="{base}/business/"/>\n'
        f"  <updated>{articles[0].published.isoformat()}</updated>\n"
        f"{entries}\n</feed>\n"
    ).encode()


def _urlset(urls: list[tuple[str, datetime]]) -> bytes:
    rows = "\n".join(
        f"  <url><loc>{{base}}{path}</loc><lastmod>{when.isoformat()}</lastmod></url>" for path, when in urls
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{rows}\n</urlset>\n"
    ).encode()


def _news_sitemap(articles: list[DemoArticle]) -> bytes:
    rows = "\n".join(
        "  <url>\n"
        f"    <loc>{{base}}{a.path}</loc>\n"
        "    <news:news>\n"
        f"      <news:publication><news:name>{SITE_NAME}</news:name><news:language>{a.lang}</news:language>"
        "</news:publication>\n"
        f"      <news:publication_date>{a.published.isoformat()}</news:publication_date>\n"
        f"      <news:title>{_e(a.headline)}</news:title>\n"
        "    </news:news>\n"
        "  </url>"
        for a in articles
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n'
        f"{rows}\n</urlset>\n"
    ).encode()


def _sitemap_index(paths: list[str], when: datetime) -> bytes:
    rows = "\n".join(
        f"  <sitemap><loc>{{base}}{p}</loc><lastmod>{when.isoformat()}</lastmod></sitemap>" for p in paths
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{rows}\n</sitemapindex>\n"
    ).encode()


HTML = "text/html; charset=utf-8"
XML = "application/xml; charset=utf-8"

NEWS_SITEMAP_GZ = "/sitemaps/news-2026-11.xml.gz"
BUSINESS_SITEMAP = "/sitemaps/business-2026-11.xml"


def build_site() -> dict[str, Resource]:
    """Every resource of the demo site: URL path -> :class:`Resource` (deterministic)."""
    articles = load_articles()
    news = [a for a in articles if a.section == "news"]
    business = [a for a in articles if a.section == "business"]
    site: dict[str, Resource] = {}
    for i, a in enumerate(articles):
        same = news if a.section == "news" else business
        related = [r for r in same if r.id != a.id][i % 3 : i % 3 + 3]
        site[a.path] = Resource(render_article(a, related), HTML)
    site[GALLERY_PATH] = Resource(_gallery(), HTML)
    site["/"] = Resource(_listing(f"{SITE_NAME}: latest news", articles[:12]), HTML)
    site["/news/"] = Resource(_listing("News", news), HTML)
    site["/business/"] = Resource(_listing("Business", business), HTML)
    site["/robots.txt"] = Resource(
        b"User-agent: *\nDisallow: /search\nDisallow: /newsletter\n\nSitemap: {base}/sitemap_index.xml\n",
        "text/plain; charset=utf-8",
    )
    # Feeds cover part of the site on purpose: the sitemaps are needed to find the rest.
    site["/rss.xml"] = Resource(_rss(articles[:15]), "application/rss+xml; charset=utf-8")
    site["/business/atom.xml"] = Resource(_atom(business), "application/atom+xml; charset=utf-8")
    newest = articles[0].published
    news_urls = [(a.path, a.published) for a in news] + [
        (GALLERY_PATH, datetime.fromisoformat("2026-11-05T10:00:00+02:00"))
    ]
    site[NEWS_SITEMAP_GZ] = Resource(gzip.compress(_urlset(news_urls), mtime=0), "application/x-gzip")
    site[BUSINESS_SITEMAP] = Resource(_urlset([(a.path, a.published) for a in business]), XML)
    site["/sitemap_index.xml"] = Resource(_sitemap_index([NEWS_SITEMAP_GZ, BUSINESS_SITEMAP], newest), XML)
    site["/news-sitemap.xml"] = Resource(_news_sitemap(articles[:10]), XML)
    return site


def article_paths() -> list[str]:
    return [a.path for a in load_articles()]


def expectations() -> dict[str, dict[str, object]]:
    """What extraction should produce per article path (same shape as tests/sites/<slug>/expected.json)."""
    return {
        a.path: {
            "title_clean": a.headline,
            "authors": [a.author],
            "published": a.published.date().isoformat(),
            "language": a.lang,
        }
        for a in load_articles()
    }


__all__ = [
    "COPYRIGHT_TEXT",
    "DEMO_HOST",
    "HIDDEN_MARKERS",
    "NEWSLETTER_TEXT",
    "DemoArticle",
    "article_paths",
    "build_site",
    "expectations",
    "load_articles",
    "render_article",
]
