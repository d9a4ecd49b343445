"""The publication check-up: does each publication's source still answer, and does an article it lists
still come out of the page core with text, title, authors and date?

Why: a layout change or a moved feed shows up in a crawl's corpus weeks later as empty texts or no new
articles. ``scrapy check-publications`` runs this once a day: one source and one article per
publication, the same page core the crawl uses, one verdict per publication. Everything here is plain
Python over a ``fetch`` callable (URL in, :class:`Fetched` out) so the verdicts are testable on any
bytes and the command stays a thin adapter.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from sacorpus.publications import Publication
from sacorpus.sources.feeds import parse_feed
from sacorpus.sources.sitemaps import parse_sitemap, sitemaps_from_robots
from sacorpus.sources.urls import UrlPolicy
from sacorpus.text.page import process_page

# problems that make a publication broken (the command exits non-zero); the rest only degrade it
BROKEN = ("no-source", "no-article", "article-unreachable", "empty-text", "no-title")
MAX_SITEMAP_DEPTH = 3  # index -> index -> urlset: the deepest nesting publications use
MAX_ARTICLE_TRIES = 3  # listed articles tried before the publication counts as having none


@dataclass(frozen=True)
class Fetched:
    """One answer: HTTP status (0: no answer), headers, body, and why it failed when it did."""

    url: str
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and 200 <= self.status < 300 and bool(self.body)

    def why(self) -> str:
        return self.error or f"HTTP {self.status}"


class Fetch(Protocol):
    """Fetches a publication's URL (from a mirror, when the run names one) and maps mirror URLs back."""

    def __call__(self, url: str) -> Fetched: ...

    def logical(self, url: str) -> str: ...


@dataclass
class CheckResult:
    """The verdict of one publication; ``problems`` name what failed (see :data:`BROKEN`)."""

    slug: str
    source: str | None = None
    source_kind: str | None = None
    article: str | None = None
    rule_version: str | None = None
    text_chars: int = 0
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was tried and failed, for the one-line report
    skipped: bool = False  # nothing live to check (a defunct title read from the Wayback Machine only)

    @property
    def status(self) -> str:
        if self.skipped:
            return "skipped"
        if any(p in BROKEN for p in self.problems):
            return "broken"
        return "degraded" if self.problems else "ok"


def source_urls(publication: Publication) -> list[tuple[str, str]]:
    """(kind, URL) of every listed source, in the order a check tries them: feeds answer fastest."""
    src = publication.sources
    return [
        *(("feed", u) for u in src.feeds),
        *(("news_sitemap", u) for u in src.news_sitemaps),
        *(("sitemap", u) for u in src.sitemaps),
    ]


def robots_sitemaps(publication: Publication, fetch: Fetch) -> list[tuple[str, str]]:
    """Sitemaps the home host's robots.txt names (for a publication that lists none of its own)."""
    home = urlsplit(publication.home)
    answer = fetch(urlunsplit((home.scheme, home.netloc, "/robots.txt", "", "")))
    if not answer.ok:
        return []
    return [("sitemap", fetch.logical(u)) for u in sitemaps_from_robots(answer.body, answer.url)]


def listed_urls(kind: str, answer: Fetched, fetch: Fetch, depth: int = 0) -> tuple[list[str], str | None]:
    """Article URLs a source lists (a sitemap index is followed into its first children), or why none."""
    if kind == "feed":
        feed = parse_feed(answer.body, answer.url, answer.headers)
        urls = [fetch.logical(e.url) for e in feed.entries if e.url]
        if urls or not feed.problem:
            return urls, None if urls else "feed lists no entry"
    result = parse_sitemap(answer.body, answer.url)
    if result.urls:
        # newest first: today's layout is what the check is about, and sitemaps often list oldest first
        entries = sorted(reversed(result.entries), key=lambda e: e.date or "", reverse=True)
        return [fetch.logical(e.loc) for e in entries], None
    if result.sitemaps and depth < MAX_SITEMAP_DEPTH:
        # the newest child first (by lastmod; without one, the last listed, as numbered sitemaps grow)
        children = sorted(
            reversed(result.sitemaps), key=lambda c: result.sitemap_lastmods.get(c, ""), reverse=True
        )
        for child in children[:MAX_ARTICLE_TRIES]:
            got = fetch(fetch.logical(child))
            if got.ok:
                urls, _why = listed_urls("sitemap", got, fetch, depth + 1)
                if urls:
                    return urls, None
    return [], result.problem or "lists no article"


def _first_listing(publication: Publication, fetch: Fetch, check: CheckResult) -> list[str]:
    """The articles of the first source that answers with any; notes why the others did not."""
    sources = source_urls(publication)
    if not sources and publication.sources.robots:
        sources = robots_sitemaps(publication, fetch)
        check.notes += [] if sources else ["robots.txt names no sitemap"]
    for kind, url in sources:
        answer = fetch(url)
        if not answer.ok:
            check.notes.append(f"{kind} {url}: {answer.why()}")
            continue
        urls, why = listed_urls(kind, answer, fetch)
        check.source, check.source_kind = url, kind
        if urls:
            return urls
        check.notes.append(f"{kind} {url}: {why}")
    if check.source is None:
        check.problems.append("no-source")
    return []


def check_publication(publication: Publication, fetch: Fetch, short_chars: int = 200) -> CheckResult:
    """Fetch one source and one article it lists; judge what the page core makes of the article.

    A text shorter than ``short_chars`` counts as empty (a script-built page, a bot wall, a paywall
    leaves the headline and byline only), as the crawl-health record counts it.
    """
    check = CheckResult(publication.slug)
    src = publication.sources
    if not (src.feeds or src.sitemaps or src.news_sitemaps or src.robots):
        check.skipped = True
        check.notes.append("no live feed or sitemap (section pages or the Wayback Machine only)")
        return check
    listed = _first_listing(publication, fetch, check)
    policy = UrlPolicy.from_publication(publication)
    # never follow a listed URL off the publication's domains: a feed is content from the web
    allowed = [u for u in listed if policy.allowed(u)]
    # article-shaped URLs first: a sitemap also lists section and tag pages
    articles = sorted(allowed, key=lambda u: not policy.is_article(u))[:MAX_ARTICLE_TRIES]
    if listed and not articles:
        check.notes.append(f"{len(listed)} listed URLs, none an article of {publication.slug}")
    if check.source is not None and not articles:
        check.problems.append("no-article")
        return check
    for url in articles:
        answer = fetch(url)
        if answer.ok:
            judge(check, publication, answer, short_chars)
            return check
        check.notes.append(f"article {url}: {answer.why()}")
    if articles:
        check.problems.append("article-unreachable")
    return check


def judge(check: CheckResult, publication: Publication, answer: Fetched, short_chars: int = 200) -> None:
    """Run the page core on one article with the publication's rules and record what came out."""
    result = process_page(answer.body, answer.headers, answer.url, publication)
    ex = result.extracted
    check.article = answer.url
    check.rule_version = result.rules.version
    if ex is None:
        check.problems += ["empty-text", "no-title"]
        return
    check.text_chars = len(ex.text)
    check.title = ex.title_clean or ex.title
    check.authors = [*ex.authors, *ex.agencies]  # a byline read, whether people or an agency signed
    check.published = ex.published_at or ex.published_day
    check.problems += [
        name
        for name, missing in (
            ("empty-text", len(ex.text.strip()) < short_chars),
            ("no-title", not check.title),
            ("no-authors", not check.authors),
            ("no-date", not check.published),
        )
        if missing
    ]
    check.notes += [p for p in ex.problems if p.startswith("rules-distrusted")]


def report_line(check: CheckResult) -> str:
    """One line per publication, greppable: ``slug: status (problems) rules=v source=... article=...``."""
    problems = f" ({', '.join(check.problems)})" if check.problems else ""
    parts = [f"{check.slug}: {check.status}{problems}", f"rules={check.rule_version or '-'}"]
    parts += [f"source={check.source or '-'}", f"article={check.article or '-'}"]
    if check.notes:
        parts.append("notes: " + "; ".join(check.notes))
    return " ".join(parts)


def report_table(checks: list[CheckResult]) -> str:
    """A fixed-width table: what still extracts per publication."""
    head = ["publication", "status", "rules", "text", "title", "authors", "date"]
    rows = [head] + [
        [
            c.slug,
            c.status,
            c.rule_version or "-",
            str(c.text_chars),
            "yes" if c.title else "no",
            str(len(c.authors)),
            (c.published or "-")[:10],
        ]
        for c in checks
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def report_json(checks: list[CheckResult]) -> str:
    return json.dumps([{**asdict(c), "status": c.status} for c in checks], ensure_ascii=False, indent=2)


__all__ = ["BROKEN", "CheckResult", "Fetched", "check_publication", "report_json", "report_line"]
