"""Fixture sites for ``scrapy newpub``, written here (modelled on common CMS markup, text our own).

Four kinds: a site with feeds only (WordPress-like), one with a sitemap only (announced in robots.txt,
an index with one child), one with neither (the homepage and its section pages are all there is, dates
and bylines in markup the page core does not know), and an Afrikaans one whose feed is found only at a
common path. Every site also has section, tag and author pages that a learnt URL pattern must not take
for articles, and a furniture line repeated on every article page.
"""

from __future__ import annotations

from dataclasses import dataclass

from sacorpus.demo.server import Resource

HTML = "text/html; charset=utf-8"
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class Story:
    path: str
    title: str
    author: str
    day: str  # YYYY-MM-DD
    paragraphs: tuple[str, ...]


EN_PARAGRAPHS = (
    "Residents gathered outside the municipal offices on Monday morning to hand over a memorandum "
    "listing their complaints about the water supply, which has been interrupted for most of the month.",
    "Community leaders said they had written to the council three times since August without an answer, "
    "and that families now queue at a single standpipe before dawn to fill their containers.",
    "A spokesperson for the municipality said repairs to the pump station were under way and that water "
    "tankers would be sent to the worst affected streets until the work is finished next week.",
)
AF_PARAGRAPHS = (
    "Inwoners van die dorp het Maandagoggend voor die munisipale kantore bymekaargekom om 'n memorandum "
    "oor die watervoorsiening te oorhandig, wat vir die grootste deel van die maand onderbreek is.",
    "Gemeenskapsleiers sê hulle het sedert Augustus drie keer aan die raad geskryf sonder om 'n antwoord "
    "te kry, en gesinne staan nou voor sonop in 'n ry by een enkele kraan om hul houers vol te maak.",
    "'n Woordvoerder van die munisipaliteit het gesê herstelwerk aan die pompstasie is aan die gang en dat "
    "watertenkwaens na die swaarste getroffe strate gestuur sal word totdat die werk volgende week klaar is.",
)


def _story(path: str, title: str, author: str, day: str, lead: str, paragraphs: tuple[str, ...]) -> Story:
    """A story whose paragraphs are its own (the shared wording carries the story's title)."""
    own = tuple(f"{p} ({title}, {i + 1})" for i, p in enumerate(paragraphs))
    return Story(path, title, author, day, (lead, *own))


def article_html(site: str, story: Story, furniture: str, *, meta: bool, lang: str) -> bytes:
    """An article page: with ``meta`` the usual <meta>/<time> markup, without it only site-specific
    markup (a byline div and a date span the page core has no reason to know)."""
    head = f"<title>{story.title} | {site}</title>"
    if meta:
        head += (
            f'<meta property="og:site_name" content="{site}">'
            f'<meta property="article:published_time" content="{story.day}T08:00:00+02:00">'
            f'<meta name="author" content="{story.author}">'
        )
        byline = f'<p class="byline">By {story.author}</p><time datetime="{story.day}T08:00:00+02:00"></time>'
    else:
        y, m, d = story.day.split("-")
        byline = (
            f'<div class="reporter-name">{story.author}</div>'
            f'<span class="story-stamp">{int(d)} {MONTHS[int(m) - 1]} {y}</span>'
        )
    body = "".join(f"<p>{p}</p>" for p in story.paragraphs)
    page = (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">{head}</head><body>'
        f'<header><nav><a href="/">{site}</a></nav></header>'
        f"<main><article><h1>{story.title}</h1>{byline}{body}<p>{furniture}</p></article></main>"
        f"<footer><p>Copyright {site}</p></footer></body></html>"
    )
    return page.encode("utf-8")


def listing(site: str, title: str, links: list[tuple[str, str]], extra_head: str = "") -> bytes:
    items = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links)
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title} | {site}</title>'
        f'<meta property="og:site_name" content="{site}">{extra_head}</head><body>'
        f"<header><h1>{title}</h1></header><main><ul>{items}</ul></main></body></html>"
    ).encode()


def _rss(site: str, stories: list[Story]) -> bytes:
    items = "".join(
        f"<item><title>{s.title}</title><link>{{base}}{s.path}</link><guid>{{base}}{s.path}</guid>"
        f"<pubDate>{s.day}T08:00:00+02:00</pubDate></item>"
        for s in stories
    )
    return (
        f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{site}</title>'
        f"<link>{{base}}/</link>{items}</channel></rss>"
    ).encode()


def _urlset(stories: list[Story]) -> bytes:
    urls = "".join(f"<url><loc>{{base}}{s.path}</loc><lastmod>{s.day}</lastmod></url>" for s in stories)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
    ).encode()


def _nav(sections: list[str]) -> list[tuple[str, str]]:
    return [(s, s.strip("/").split("/")[-1].replace("-", " ").title()) for s in sections]


@dataclass
class FixtureSite:
    kind: str
    name: str
    language: str
    stories: list[Story]
    resources: dict[str, Resource]
    furniture: str  # a line on every article page: the site's, never in a stored text


def _site(kind: str, name: str, lang: str, stories: list[Story], furniture: str, meta: bool) -> FixtureSite:
    res = {s.path: Resource(article_html(name, s, furniture, meta=meta, lang=lang), HTML) for s in stories}
    return FixtureSite(kind, name, lang, stories, res, furniture)


def feeds_site() -> FixtureSite:
    """WordPress-like: an announced RSS feed and a second one linked in the footer; no sitemap."""
    s = [
        _story(
            "/news/taps-run-dry-in-riverside-for-third-week/",
            "Taps run dry in Riverside for third week",
            "Thandi Mokoena",
            "2026-11-03",
            "Riverside has had no running water for three weeks.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/news/council-promises-new-pump-by-december/",
            "Council promises new pump by December",
            "Pieter Botha",
            "2026-11-04",
            "The council says a new pump will be installed soon.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/sport/local-club-wins-regional-netball-final/",
            "Local club wins regional netball final",
            "Ayesha Khan",
            "2026-11-05",
            "The Riverside Stars won the regional netball final.",
            EN_PARAGRAPHS,
        ),
    ]
    site = _site(
        "feeds", "Riverside Herald", "en", s, "Subscribe to the Riverside Herald newsletter today.", True
    )
    sections = ["/news/", "/sport/", "/tag/water-crisis/", "/author/thandi-mokoena/", "/about-us/"]
    home_links = [(x.path, x.title) for x in s[:2]] + _nav(sections) + [("/feed/comments/", "Comments RSS")]
    head = '<link rel="alternate" type="application/rss+xml" title="Feed" href="/feed/">'
    site.resources["/"] = Resource(listing(site.name, "Home", home_links, head), HTML)
    for sec in sections:
        site.resources[sec] = Resource(
            listing(site.name, sec.strip("/"), [(x.path, x.title) for x in s]), HTML
        )
    site.resources["/feed/"] = Resource(_rss(site.name, s), "application/rss+xml")
    site.resources["/feed/comments/"] = Resource(_rss(site.name, s[:1]), "application/rss+xml")
    return site


def sitemap_site() -> FixtureSite:
    """A sitemap index declared in robots.txt, one child sitemap; dated article URLs; no feed."""
    s = [
        _story(
            "/2026/11/02/new-clinic-opens-in-mthatha/",
            "New clinic opens in Mthatha",
            "Sipho Dlamini",
            "2026-11-02",
            "A new clinic opened its doors in Mthatha on Monday.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/2026/11/06/farmers-count-cost-of-hailstorm/",
            "Farmers count cost of hailstorm",
            "Lerato Nkosi",
            "2026-11-06",
            "Farmers in the district are counting the cost of Friday's hailstorm.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/2026/11/07/school-choir-heads-to-national-finals/",
            "School choir heads to national finals",
            "Johan Venter",
            "2026-11-07",
            "A local school choir has qualified for the national finals.",
            EN_PARAGRAPHS,
        ),
    ]
    site = _site("sitemap", "Eastern Courier", "en", s, "Follow the Eastern Courier on social media.", True)
    sections = ["/category/health/", "/category/farming/", "/tag/schools/", "/author/lerato-nkosi/"]
    site.resources["/"] = Resource(
        listing(site.name, "Home", [(s[0].path, s[0].title), *_nav(sections)]), HTML
    )
    for sec in sections:
        site.resources[sec] = Resource(
            listing(site.name, sec.strip("/"), [(x.path, x.title) for x in s]), HTML
        )
    site.resources["/robots.txt"] = Resource(
        b"User-agent: *\nDisallow: /wp-admin/\nSitemap: {base}/sitemap_index.xml\n", "text/plain"
    )
    site.resources["/sitemap_index.xml"] = Resource(
        b'<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>{base}/post-sitemap.xml</loc></sitemap></sitemapindex>",
        "application/xml",
    )
    site.resources["/post-sitemap.xml"] = Resource(_urlset(s), "application/xml")
    return site


def homepage_site() -> FixtureSite:
    """No feed, no sitemap: articles (numeric ids) linked from the homepage and section pages only;
    dates and bylines in markup of the site's own."""
    s = [
        _story(
            "/stories/104233-taxi-rank-upgrade-finally-begins",
            "Taxi rank upgrade finally begins",
            "Nomsa Zulu",
            "2026-10-28",
            "Work on the taxi rank upgrade finally began on Tuesday.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/stories/104251-library-reopens-after-flood-repairs",
            "Library reopens after flood repairs",
            "Kevin Naidoo",
            "2026-10-30",
            "The town library has reopened after months of repairs.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/stories/104302-market-traders-face-higher-rentals",
            "Market traders face higher rentals",
            "Zanele Mthembu",
            "2026-11-01",
            "Market traders say the new rentals will put them out of business.",
            EN_PARAGRAPHS,
        ),
        _story(
            "/stories/104318-rugby-derby-draws-record-crowd",
            "Rugby derby draws record crowd",
            "Andre Fourie",
            "2026-11-02",
            "A record crowd watched Saturday's rugby derby.",
            EN_PARAGRAPHS,
        ),
    ]
    site = _site(
        "homepage", "Valley Voice", "en", s, "Send your news tips to the Valley Voice newsroom.", False
    )
    sections = ["/section/local", "/section/sport", "/topics/municipality", "/writers/nomsa-zulu"]
    home = [(x.path, x.title) for x in s[:2]] + _nav(sections)
    site.resources["/"] = Resource(listing(site.name, "Home", home), HTML)
    site.resources["/section/local"] = Resource(
        listing(site.name, "Local", [(x.path, x.title) for x in s[1:3]]), HTML
    )
    site.resources["/section/sport"] = Resource(
        listing(site.name, "Sport", [(x.path, x.title) for x in s[3:]]), HTML
    )
    site.resources["/topics/municipality"] = Resource(
        listing(site.name, "Municipality", [(s[2].path, s[2].title)]), HTML
    )
    site.resources["/writers/nomsa-zulu"] = Resource(
        listing(site.name, "Nomsa Zulu", [(s[0].path, s[0].title)]), HTML
    )
    return site


def afrikaans_site() -> FixtureSite:
    """Afrikaans: an RSS feed at a common path that the homepage does not announce."""
    s = [
        _story(
            "/nuus/boere-tel-die-koste-van-die-droogte/",
            "Boere tel die koste van die droogte",
            "Marike Smit",
            "2026-11-03",
            "Boere in die distrik tel die koste van die lang droogte.",
            AF_PARAGRAPHS,
        ),
        _story(
            "/nuus/nuwe-brug-oor-die-rivier-amptelik-geopen/",
            "Nuwe brug oor die rivier amptelik geopen",
            "Hennie de Wet",
            "2026-11-04",
            "Die nuwe brug oor die rivier is Dinsdag amptelik geopen.",
            AF_PARAGRAPHS,
        ),
        _story(
            "/sport/plaaslike-span-wen-die-streeksfinaal/",
            "Plaaslike span wen die streeksfinaal",
            "Elna van Wyk",
            "2026-11-05",
            "Die plaaslike span het Saterdag die streeksfinaal gewen.",
            AF_PARAGRAPHS,
        ),
    ]
    site = _site(
        "afrikaans", "Die Dorpsnuus", "af", s, "Teken vandag in op Die Dorpsnuus se nuusbrief.", True
    )
    sections = ["/nuus/", "/sport/", "/onderwerp/droogte/", "/skrywer/marike-smit/"]
    site.resources["/"] = Resource(
        listing(site.name, "Tuis", [(s[0].path, s[0].title), *_nav(sections)]), HTML
    )
    for sec in sections:
        site.resources[sec] = Resource(
            listing(site.name, sec.strip("/"), [(x.path, x.title) for x in s]), HTML
        )
    site.resources["/rss.xml"] = Resource(_rss(site.name, s), "application/rss+xml")
    return site


SITES = {"feeds": feeds_site, "sitemap": sitemap_site, "homepage": homepage_site, "afrikaans": afrikaans_site}
