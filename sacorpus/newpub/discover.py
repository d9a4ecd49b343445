"""From a homepage to a publication: feeds, sitemaps, sample articles, URL rules, page rules, language.

Why a plain async function with a ``fetch`` argument: the command fetches through a crawler (the
crawl's User-Agent, robots.txt and address guard), and this logic stays free of Scrapy so that it reads
top to bottom. Every value found carries a note saying where it came from; the rendered file shows it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from sacorpus.newpub.pages import (
    Proposal,
    Sample,
    propose_selectors,
    read_sample,
    repeated_lines,
    sample_languages,
)
from sacorpus.newpub.patterns import UrlPatterns, learn_url_patterns
from sacorpus.publications import Publication, Sources
from sacorpus.sources.discovery import feed_candidates, page_links, same_site, sitemap_candidates
from sacorpus.sources.feeds import parse_feed
from sacorpus.sources.sitemaps import parse_sitemap

MAX_FEEDS = 3
MAX_SECTIONS = 8
COUNTER_EXAMPLES = 8  # homepage links fetched to learn what is not an article


class DiscoveryError(RuntimeError):
    """The homepage could not be read: nothing can be learnt."""


@dataclass
class Fetched:
    url: str  # after redirects
    status: int
    headers: dict[str, str]
    body: bytes


Fetch = Callable[[str], Awaitable[Fetched | None]]


@dataclass
class Finding:
    """Everything learnt about a new publication, with where each value came from (``notes``)."""

    slug: str
    home: str
    name: str = ""
    language: str = "und"
    feeds: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)
    news_sitemaps: list[str] = field(default_factory=list)
    robots: bool = False
    start_urls: list[str] = field(default_factory=list)
    patterns: UrlPatterns = field(default_factory=UrlPatterns)
    proposals: list[Proposal] = field(default_factory=list)
    strip_text: list[str] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    @property
    def domain(self) -> str:
        return (urlsplit(self.home).hostname or "").lower().removeprefix("www.")

    def publication(self) -> Publication:
        """The publication as learnt so far (for the page core's trials)."""
        return Publication(
            slug=self.slug,
            name=self.name or self.slug,
            home=self.home,
            domains=(self.domain,),
            languages=(self.language,) if self.language != "und" else ("en",),
            sources=Sources(start_urls=(self.home,)),
        )


def _ok(fetched: Fetched | None) -> bool:
    return fetched is not None and fetched.status == 200 and bool(fetched.body)


def site_name(html: str, fallback: str) -> str:
    """``og:site_name``, else the ``<title>`` part shared by sites ("Home | Name"), else ``fallback``."""
    m = re.search(r"""<meta[^>]+property=["']og:site_name["'][^>]*content=["']([^"']+)""", html, re.I)
    if m:
        return m.group(1).strip()
    parts = [p for p in _title_parts(html) if not _GENERIC_TITLE.match(p)]
    return parts[0] if parts else fallback


_GENERIC_TITLE = re.compile(r"^(?:home|home ?page|tuis|tuisblad|ikhaya|welcome|front ?page)$", re.I)


def _title_parts(html: str) -> list[str]:
    """The parts of a page's ``<title>`` between separators ("Story | Site" -> ["Story", "Site"])."""
    m = re.search(r"<title[^>]*>([^<]+)</title>", html, re.I)
    return [p.strip() for p in re.split(r"\s[|\-–—:·»]\s", m.group(1)) if p.strip()] if m else []


def _name_from_samples(found: Finding) -> str | None:
    """The site name the samples agree on: their og:site_name, else the one ``<title>`` part on all."""
    names = {str(s.field("site_name") or "") for s in found.samples}
    if len(names) == 1 and "" not in names:
        return names.pop()
    shared = set.intersection(*(set(_title_parts(s.html)) for s in found.samples))
    return shared.pop() if len(shared) == 1 else None


async def discover(
    slug: str, home: str, fetch: Fetch, *, samples: int = 5, language: str | None = None
) -> Finding:
    """Learn a publication from its homepage; raises :class:`DiscoveryError` when that cannot be read."""
    page = await fetch(home)
    if not _ok(page) or page is None:
        status = "no answer" if page is None else f"HTTP {page.status}"
        raise DiscoveryError(f"homepage {home} could not be read ({status})")
    home = page.url if same_site(page.url, home) else home
    html = page.body.decode("utf-8", "replace")
    found = Finding(slug=slug, home=home, name=site_name(html, slug))
    found.notes["name"] = "the homepage's og:site_name or <title>"
    listed = await _find_feeds(found, html, fetch)
    listed += await _find_sitemaps(found, fetch)
    await _sample(found, html, listed, fetch, samples)
    _learn_pages(found, language)
    return found


async def _find_feeds(found: Finding, html: str, fetch: Fetch) -> list[str]:
    """Feeds that parse and list articles on this site; returns the article URLs they list."""
    listed: list[str] = []
    seen_entries: list[set[str]] = []
    for url in feed_candidates(html, found.home):
        if len(found.feeds) >= MAX_FEEDS:
            break
        if not same_site(url, found.home):
            found.rejected.append(f"feed {url}: on another host (add it by hand if it is the site's)")
            continue
        fetched = await fetch(url)
        if not _ok(fetched) or fetched is None:
            continue
        result = parse_feed(fetched.body, url, fetched.headers)
        entries = tuple(e.url for e in result.entries if e.url and same_site(e.url, found.home))
        if not entries or any(set(entries) <= earlier for earlier in seen_entries):
            continue  # the same stories again (a comments or category feed of the main one)
        seen_entries.append(set(entries))
        found.feeds.append(url)
        found.notes[f"feed {url}"] = f"{result.kind or 'feed'} with {len(entries)} entries on the site"
        listed += entries
    return listed


async def _find_sitemaps(found: Finding, fetch: Fetch) -> list[str]:
    """Sitemaps (robots.txt's, then the standard paths) that parse; returns article URLs they list."""
    robots = await fetch(urljoin(found.home, "/robots.txt"))
    robots_text = robots.body if _ok(robots) and robots is not None else None
    declared = bool(robots_text and re.search(rb"(?im)^\s*site-?map\s*:", robots_text))
    listed: list[str] = []
    for url in sitemap_candidates(robots_text, found.home):
        if not same_site(url, found.home):
            found.rejected.append(f"sitemap {url}: on another host (add it by hand if it is the site's)")
            continue
        fetched = await fetch(url)
        if not _ok(fetched) or fetched is None:
            continue
        result = parse_sitemap(fetched.body, url)
        if result.kind == "index" and result.sitemaps:
            first = _story_sitemap(result.sitemaps)
            child = await fetch(first)
            child_result = parse_sitemap(child.body, first) if _ok(child) and child else None
            urls = child_result.urls if child_result else []
        elif result.kind in ("urlset", "text"):
            urls = result.urls
        else:
            continue
        urls = [u for u in urls if same_site(u, found.home)]
        if not urls and result.kind != "index":
            continue
        news = any(e.news_published or e.news_title for e in result.entries)
        (found.news_sitemaps if news else found.sitemaps).append(url)
        where = "robots.txt" if declared and url in str(robots_text) else "a standard location"
        found.notes[f"sitemap {url}"] = f"{result.kind} from {where}"
        listed += urls
    found.robots = declared
    return listed


def _story_sitemap(children: list[str]) -> str:
    """The child of a sitemap index most likely to list stories (post-, news-, article-), else the first."""
    for child in children:
        if re.search(r"post|news|article|nuus|story|stories", urlsplit(child).path, re.I):
            return child
    return children[0]


def _article_likeness(url: str) -> tuple[int, int]:
    """How much a link looks like a story (a long slug, a number) rather than a section: for ordering."""
    last = [s for s in urlsplit(url).path.split("/") if s][-1:] or [""]
    return (last[0].count("-") + (3 if re.search(r"\d{4,}", last[0]) else 0), len(last[0]))


async def _sample(found: Finding, html: str, listed: list[str], fetch: Fetch, samples: int) -> None:
    """Fetch sample articles (listed ones first, else homepage links) and a few counter-examples."""
    links = [
        link.url
        for link in page_links(html, found.home)
        if same_site(link.url, found.home)
        and urlsplit(link.url).path.strip("/")
        and link.url not in found.feeds
    ]
    pub = found.publication()
    by_likeness = sorted(links, key=_article_likeness, reverse=True)
    queue = list(dict.fromkeys(listed)) + [u for u in by_likeness if u not in listed]
    others: list[Sample] = []
    listed_set = set(listed)

    async def classify(urls: list[str], enough: Callable[[], bool]) -> None:
        for url in urls[: samples * 3 + COUNTER_EXAMPLES]:  # a bounded number of fetches, whatever the page
            if enough():
                return
            if url in {s.url for s in (*found.samples, *others)}:
                continue
            sample = await _read(url, fetch, pub)
            if sample is not None:
                (found.samples if _is_article(sample, url in listed_set) else others).append(sample)

    await classify(queue, lambda: len(found.samples) >= samples)
    # the least article-like links of the homepage: sections, tags, authors
    await classify(by_likeness[::-1], lambda: len(others) >= COUNTER_EXAMPLES)
    # too few articles on the homepage: the links of the section pages just read
    deeper = [
        link.url for o in others for link in page_links(o.html, o.url) if same_site(link.url, found.home)
    ]
    await classify(
        sorted(dict.fromkeys(deeper), key=_article_likeness, reverse=True),
        lambda: len(found.samples) >= samples,
    )
    not_articles = {s.url for s in others}
    articles = list(
        dict.fromkeys([s.url for s in found.samples] + [u for u in listed if u not in not_articles])
    )
    found.patterns = learn_url_patterns(articles, [s.url for s in others])
    found.notes["urls"] = (
        f"learnt from {len(articles)} article URLs (samples the page core reads as articles, and what "
        f"feeds and sitemaps list) against {len(others)} pages of the site that are not articles"
    )
    _choose_start_urls(found, html, others)


def _is_article(sample: Sample, listed: bool) -> bool:
    """The page core reads it as an article; a page no feed or sitemap lists must also carry a date
    (an "About us" page has enough text to pass for an article, not a publication date)."""
    return sample.result.page_type == "article" and (listed or bool(sample.field("published_at")))


async def _read(url: str, fetch: Fetch, pub: Publication) -> Sample | None:
    fetched = await fetch(url)
    if not _ok(fetched) or fetched is None:
        return None
    return read_sample(url, fetched.body, fetched.headers, pub)


def _article_links(found: Finding, html: str, base: str) -> list[str]:
    patterns = [re.compile(p) for p in found.patterns.article]
    deny = [re.compile(p) for p in found.patterns.deny]
    out = []
    for link in page_links(html, base):
        parts = urlsplit(link.url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        if (
            same_site(link.url, found.home)
            and any(p.search(target) for p in patterns)
            and not any(d.search(target) for d in deny)
        ):
            out.append(link.url)
    return out


def _choose_start_urls(found: Finding, html: str, others: list[Sample]) -> None:
    """The homepage when it links to articles; with no feed or sitemap, the sections that do too."""
    on_home = _article_links(found, html, found.home)
    if on_home:
        found.start_urls.append(found.home)
    if found.feeds or found.sitemaps or found.news_sitemaps:
        found.notes["start_urls"] = f"the homepage links to {len(on_home)} article URLs"
        return
    for other in others:
        if len(found.start_urls) > MAX_SECTIONS:
            break
        if _article_links(found, other.html, other.url):
            found.start_urls.append(other.url)
    found.notes["start_urls"] = (
        "no feed or sitemap: the homepage and the sampled pages of the site that link to articles"
    )


def _learn_pages(found: Finding, language: str | None) -> None:
    """Language, selectors the page core needs, and furniture, from the samples."""
    if not found.samples:
        found.missing.append("no sample page reads as an article: URL rules, selectors and language")
        return
    name = _name_from_samples(found)
    if name:
        found.name, found.notes["name"] = name, f"the site name all {len(found.samples)} samples agree on"
    langs = sample_languages(found.samples)
    if language:
        found.language = language
        found.notes["languages"] = "given with --language" + (
            f" (the samples read as {', '.join(lang for lang, _ in langs)})" if langs else ""
        )
    elif langs:
        found.language = langs[0][0]
        found.notes["languages"] = (
            f"identified on {langs[0][1]} of {len(found.samples)} samples by the project's identifier"
        )
    else:
        found.missing.append("language: not identified on the samples (give --language)")
    found.proposals, missing = propose_selectors(found.samples, found.publication())
    found.missing += missing
    found.strip_text = repeated_lines(found.samples)
    if not found.feeds and not found.sitemaps and not found.news_sitemaps and not found.start_urls:
        found.missing.append("sources: no feed, sitemap or page linking to articles was found")


__all__ = ["DiscoveryError", "Fetch", "Fetched", "Finding", "discover", "site_name"]
