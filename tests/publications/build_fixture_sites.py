"""Write the per-publication fixture sites under tests/sites/<slug>/ (run: python tests/publications/build_fixture_sites.py).

Why generated: each site must sit at the URL paths of its publication's real sources and use markup
modelled on that publication's layout (title suffix, byline markup, date meta, JSON-LD), and keeping
the layouts in one small table makes them easy to review and to regenerate when a toml changes.
The files on disk are the contract (the crawl test serves them with SiteServer.from_directory);
``test_fixture_sites.py`` checks they are up to date with this script.

File-name mapping (see sacorpus/demo/server.py): ``dir/index.xml`` serves ``/dir/``; a query string
follows ``@`` (``arc/outboundfeeds/rss/index.xml@outputType=xml`` serves
``/arc/outboundfeeds/rss/?outputType=xml``); extensionless files are sniffed. Links use ``{base}``.
Every story is invented (fixture_stories.py).
"""

from __future__ import annotations

import gzip
import html
import json
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture_layouts import layout_pages
from fixture_specs import SPECS
from fixture_specs_za import LAYOUTS_ZA
from fixture_stories import STORIES

SITES = Path(__file__).resolve().parents[1] / "sites"

ARC_RSS = "arc/outboundfeeds/rss/index.xml@outputType=xml"

# slug -> (site name, <title> suffix, layout, newsletter class, source files: (kind, file path))
LAYOUTS: dict[str, dict] = {
    "iol": dict(site="IOL", suffix=" | IOL", layout="iol", sources=[("rss", "cmlink/1.640"), ("rss", "rss")]),
    "mg": dict(
        site="The Mail & Guardian",
        suffix=" - The Mail & Guardian",
        layout="mg",
        sources=[("rss", "feed/index.xml")],
    ),
    "news24": dict(
        site="News24",
        suffix=" | News24",
        layout="media24",
        sources=[("rss", "articles/news24/TopStories/rss")],
    ),
    "dailymaverick": dict(
        site="Daily Maverick",
        suffix=" | Daily Maverick",
        layout="dm",
        sources=[("news_sitemap", "news-sitemap.xml")],
    ),
    "timeslive": dict(
        site="TimesLIVE",
        suffix=" | TimesLIVE",
        layout="arc",
        sources=[
            ("rss", ARC_RSS),
            ("sitemap_index", "arc/outboundfeeds/sitemap-index/index.xml@outputType=xml"),
            ("sitemap_gz", "arc/outboundfeeds/sitemap/2026-11.xml.gz"),
        ],
    ),
    "citizen": dict(
        site="The Citizen", suffix=" | The Citizen", layout="citizen", sources=[("rss", "feed/index.xml")]
    ),
    "sowetanlive": dict(
        site="SowetanLIVE", suffix=" | SowetanLIVE", layout="arc", sources=[("rss", ARC_RSS)]
    ),
    "dispatchlive": dict(
        site="DispatchLIVE", suffix=" | DispatchLIVE", layout="arc", sources=[("rss", ARC_RSS)]
    ),
    "businesslive": dict(
        site="BusinessLIVE", suffix=" | BusinessLIVE", layout="arc", sources=[("rss", ARC_RSS)]
    ),
    "heraldlive": dict(site="HeraldLIVE", suffix=" | HeraldLIVE", layout="arc", sources=[("rss", ARC_RSS)]),
    "grocotts": dict(
        site="Grocott's Mail",
        suffix=" - Grocott's Mail",
        layout="wp_author",
        sources=[("rss", "feed/index.xml")],
    ),
    "sabc": dict(
        site="SABC News",
        suffix=(
            " - SABC News - Breaking news, special reports, world, business, sport coverage of all "
            "South African current events. Africa's news leader."
        ),
        layout="sabc",
        sources=[("rss", "sabcnews/feed/index.xml")],
    ),
    "groundup": dict(
        site="GroundUp", suffix=" | GroundUp", layout="groundup", sources=[("rss", "sitenews/rss/index.xml")]
    ),
    "thesouthafrican": dict(
        site="The South African",
        suffix=" | The South African",
        layout="tsa",
        sources=[("news_sitemap", "news-sitemap.xml")],
    ),
    "isolezwe": dict(
        site="Isolezwe",
        suffix=" | Isolezwe",
        layout="isolezwe",
        lang="zu",
        sources=[("sitemap", "sitemap/index.xml")],
    ),
    "ilanga": dict(
        site="Ilanga",
        suffix=" - Ilanga News",
        layout="wp_author",
        lang="zu",
        sources=[("sitemap_index", "wp-sitemap.xml"), ("sitemap", "wp-sitemap-posts-post-1.xml")],
    ),
    "netwerk24": dict(
        site="Netwerk24",
        suffix=" | Netwerk24",
        layout="media24",
        lang="af",
        by="Deur",
        sources=[("sitemap", "sitemap.xml")],
    ),
}

LAYOUTS.update(LAYOUTS_ZA)


def e(text: str) -> str:
    return html.escape(text, quote=True)


def byline(layout: str, author: str, by: str) -> str:
    slug = author.lower().replace(" ", "-")
    a = f'<a href="{{base}}/author/{slug}/">{e(author)}</a>'
    return {
        "iol": f'<p class="article-byline"><span data-testid="author-name">{e(author)}</span></p>',
        "mg": f'<div class="article-author">{a}</div>',
        "media24": f'<div class="article__author">{by} {e(author)}</div>',
        "dm": f'<div class="grid"><div class="col-span-2 author-info"><a href="{{base}}/author/{slug}/" '
        f'class="inline-block" title="{e(author)}">By {e(author)}</a></div></div>',
        "arc": f'<div class="c-stack b-author-bio"><a class="c-link b-author-bio__author-name-link" '
        f'href="/author/{slug}"><h2 class="c-heading b-author-bio__author-name">{e(author)}</h2></a>'
        '<p class="c-paragraph b-author-bio__author-role">Journalist</p></div>',
        "citizen": f'<div class="author-info"><p class="author-name">By {a}</p>'
        '<p class="author-job-title">Journalist</p></div>',
        "wp_author": f'<span class="byline">By <span class="author vcard"><a rel="author" '
        f'href="{{base}}/author/{slug}/">{e(author)}</a></span></span>',
        "sabc": f'<div class="td-post-author-name"><a href="{{base}}/sabcnews/author/{slug}/">{e(author)}</a></div>',
        "groundup": f'<div class="byline">By {a}</div>',
        "tsa": f'<div class="author-name">{a}</div>',
        "isolezwe": f'<div class="attribution-and-updated_author-text__tITz2">Ngu {e(author)}</div>',
    }[layout]


NEWSLETTER = "Sign up for our daily newsletter and get the top stories in your inbox every morning."


def boilerplate(layout: str) -> str:
    """Site furniture after the article: a newsletter box (its sentence must not reach the corpus) and more."""
    box = {
        "citizen": "newsletter-subscription-cta-wrapper",
        "isolezwe": "newsletter-subscribe_newsletter-subscribe__1tlfa",
    }.get(layout, "newsletter")
    html_ = f'<div class="{box}"><p>{NEWSLETTER}</p></div>'
    if layout == "citizen":
        html_ += (
            '<div class="related-posts"><div class="related-post"><article><h2><a href="{base}/news/">More news'
            "</a></h2></article></div></div>"
        )
    elif layout == "arc":
        html_ += (
            '<div class="arena-share-bar"><button aria-label="Share via Email">Email</button></div>'
            '<div class="b-simple-list"><a href="{base}/news/">Latest news</a></div>'
        )
    else:
        html_ += '<aside class="related"><h3>Related</h3><a href="{base}/">More stories</a></aside>'
    return html_


def article_page(slug: str, cfg: dict, story: tuple) -> str:
    path, headline, author, when, paragraphs = story
    layout = cfg["layout"]
    lang = cfg.get("lang", "en")
    by = cfg.get("by", "By")
    dt = datetime.fromisoformat(when)
    title = headline + cfg["suffix"]
    og_title = title if slug == "citizen" else headline  # The Citizen's og:title carries the suffix
    ld = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": headline,
        "datePublished": dt.isoformat(),
        "dateModified": dt.isoformat(),
        "inLanguage": lang,
        "author": [{"@type": "Person", "name": author}],
        "publisher": {"@type": "Organization", "name": cfg["site"]},
        "mainEntityOfPage": "{base}" + path,
    }
    p_class = ' class="c-paragraph"' if layout == "arc" else ""
    body = "\n".join(f"<p{p_class}>{e(p)}</p>" for p in paragraphs)
    if layout == "arc":
        body = f'<article class="b-article-body">\n{body}\n</article>'
        date_html = f'<time as="time" class="c-date b-date" dateTime="{dt.isoformat()}">{dt:%B %d, %Y at %I:%M %p}</time>'
    elif layout == "citizen":
        body = f'<div class="single-content">\n{body}\n</div>'
        date_html = (
            f'<div class="post-read-info"><p class="single-read-time">3 minute read</p>'
            f'<p class="single-published-date">{dt.day} {dt:%B %Y}</p></div>'
        )
    elif layout == "dm":
        body = f'<div class="article-content">\n{body}\n</div>'
        date_html = f'<span class="article_date">{dt.day:02d} {dt:%B %Y}</span>'
    elif layout == "media24":
        body = f'<div class="article__body">\n{body}\n</div>'
        date_html = f'<p class="article__date">{dt:%d %b %Y}</p>'
    else:
        body = f'<div class="entry-content">\n{body}\n</div>'
        date_html = (
            f'<time class="entry-date published" datetime="{dt.isoformat()}">{dt.day} {dt:%B %Y}</time>'
        )
    return f"""<!DOCTYPE html>
<html lang="{lang}-ZA">
<head>
<meta charset="utf-8">
<title>{e(title)}</title>
<meta name="author" content="{e(author)}">
<meta property="og:type" content="article">
<meta property="og:title" content="{e(og_title)}">
<meta property="og:site_name" content="{e(cfg["site"])}">
<meta property="og:url" content="{{base}}{path}">
<meta property="article:published_time" content="{dt.isoformat()}">
<link rel="canonical" href="{{base}}{path}">
<script type="application/ld+json">{json.dumps(ld, ensure_ascii=False)}</script>
</head>
<body>
<header class="site-header"><a href="{{base}}/">{e(cfg["site"])}</a>
<nav><ul><li><a href="{{base}}/news/">News</a></li><li><a href="{{base}}/sport/">Sport</a></li><li><a href="{{base}}/business/">Business</a></li></ul></nav>
</header>
<main>
<article class="article-container">
<h1>{e(headline)}</h1>
{byline(layout, author, by)}
{date_html}
{body}
</article>
{boilerplate(layout)}
</main>
<footer class="site-footer"><p>© 2026 {e(cfg["site"])}. All rights reserved.</p></footer>
</body>
</html>
"""


def rss(cfg: dict, stories: list) -> str:
    items = "\n".join(
        f"<item><title>{e(h)}</title><link>{{base}}{p}</link><guid>{{base}}{p}</guid>"
        f"<pubDate>{datetime.fromisoformat(w):%a, %d %b %Y %H:%M:%S %z}</pubDate>"
        f"<dc:creator>{e(a)}</dc:creator><description>{e(ps[0])}</description></item>"
        for p, h, a, w, ps in stories
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"\n<channel><title>{e(cfg['site'])}</title><link>{{base}}/</link><description>Latest news</description>\n"
        f"{items}\n</channel></rss>\n"
    )


def urlset(stories: list, news: bool = False, site: str = "", lang: str = "en") -> str:
    rows = []
    for p, h, _a, w, _ps in stories:
        extra = (
            (
                f"<news:news><news:publication><news:name>{e(site)}</news:name><news:language>{lang}</news:language>"
                f"</news:publication><news:publication_date>{w}</news:publication_date><news:title>{e(h)}</news:title>"
                "</news:news>"
            )
            if news
            else f"<lastmod>{w}</lastmod>"
        )
        rows.append(f"<url><loc>{{base}}{p}</loc>{extra}</url>")
    ns = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' if news else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f"{ns}>\n" + "\n".join(rows) + "\n</urlset>\n"
    )


def sitemap_index(locs: list[str]) -> str:
    rows = "\n".join(f"<sitemap><loc>{{base}}{loc}</loc></sitemap>" for loc in locs)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{rows}\n</sitemapindex>\n"
    )


def url_of(file: str) -> str:
    name, _, query = file.partition("@")
    d, _, leaf = name.rpartition("/")
    url = f"/{d}/" if d else "/"
    if not leaf.startswith("index."):
        url += leaf
    return f"{url}?{query}" if query else url


def page_rel(path: str) -> str:
    """The file serving an article path (a path ending in / is a directory index)."""
    return path.strip("/") + ("/index.html" if path.endswith("/") else "")


def build(slug: str) -> dict[str, bytes]:
    """The site's files; expected.json holds the crawled ``articles`` and the per-rule-version ``layouts``."""
    files: dict[str, bytes] = {}
    expected = build_articles(slug, files) if slug in LAYOUTS else {}
    layouts = {}
    for path, page, want in layout_pages(slug):
        files[page_rel(path)] = page.encode()
        layouts[path] = want
    table = {"articles": expected, "layouts": layouts} if expected else {"layouts": layouts}
    files["expected.json"] = (json.dumps(table, ensure_ascii=False, indent=2) + "\n").encode()
    return files


def build_articles(slug: str, files: dict[str, bytes]) -> dict[str, dict]:
    """Feeds/sitemaps and the crawled article pages into ``files``; returns their expectations."""
    cfg = LAYOUTS[slug]
    stories = STORIES[slug]
    sources = cfg["sources"]
    for i, (kind, file) in enumerate(sources):
        if kind == "rss":
            text = rss(cfg, stories)
        elif kind == "news_sitemap":
            text = urlset(stories, news=True, site=cfg["site"], lang=cfg.get("lang", "en"))
        elif kind == "sitemap":
            text = urlset(stories)
        elif kind == "sitemap_index":
            text = sitemap_index([url_of(f) for _k, f in sources[i + 1 :]])
        elif kind == "sitemap_gz":
            files[file] = gzip.compress(urlset(stories).encode(), mtime=0)
            continue
        files[file] = text.encode()
    expected = {}
    for story in stories:
        path, headline, author, when, _ps = story
        files[page_rel(path)] = article_page(slug, cfg, story).encode()
        expected[path] = {
            "title_clean": headline,
            "authors": [author],
            "published": when[:10],
            # a page's language as its text says (``langs``), whatever its markup declares
            "language": cfg.get("langs", {}).get(path, cfg.get("lang", "en")),
            "absent": [NEWSLETTER],
        }
    return expected


def build_all() -> dict[str, dict[str, bytes]]:
    return {slug: build(slug) for slug in sorted({*LAYOUTS, *SPECS})}


def main() -> None:
    for slug, files in build_all().items():
        for rel, data in files.items():
            target = SITES / slug / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        print(f"{slug}: {len(files)} files")


if __name__ == "__main__":
    main()
