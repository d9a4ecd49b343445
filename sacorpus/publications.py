"""Publications as validated data.

Each publication is one TOML file in the ``publications`` package, read with importlib.resources so it
works from a source tree, an installed wheel and a scrapyd egg alike. Validation is strict: an unknown
key, a wrong type, a bad regular expression, an unparsable date or a missing field fails with a message
naming the file and the key, because a typo in a selector otherwise shows up weeks later as an empty
corpus.

Extraction rules are dated: a publication carries one or more rule sets, each with an optional
``valid_until`` date, so a Wayback capture from 2014 is cleaned with the rules that fitted the 2014
layout (see :meth:`Publication.rules_for`).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from sacorpus.iso639 import language_code_problem

PUBLICATIONS_PACKAGE = "publications"


class PublicationError(ValueError):
    """A publication file is malformed; the message names the file and the key."""


@dataclass(frozen=True)
class ElementFilter:
    """Remove elements whose ``attribute`` matches ``value`` (a regular expression, searched).

    ``tag`` may be ``*`` for any element; an empty ``value`` matches any element carrying the attribute.
    """

    tag: str
    attribute: str
    value: str = ""

    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.value)


@dataclass(frozen=True)
class RuleSet:
    """Extraction rules for one period of a publication's layout."""

    version: str = "default"
    valid_until: date | None = None  # None: current layout
    title_strip: tuple[str, ...] = ()  # regexes removed from titles (site suffixes/prefixes)
    author_selectors: tuple[
        str, ...
    ] = ()  # CSS selectors (or XPath when starting with "/" or "(") for bylines
    author_strip: tuple[str, ...] = ()  # regexes removed from author strings ("^By ", " \\| Reporter$")
    date_selectors: tuple[str, ...] = ()  # CSS/XPath for the published date (text or @content/@datetime)
    section_selectors: tuple[str, ...] = ()
    prune_xpaths: tuple[str, ...] = ()  # handed to trafilatura's prune_xpath
    filters: tuple[ElementFilter, ...] = ()  # pre-clean: (tag, attribute, value-regex) removals
    strip_text: tuple[str, ...] = ()  # static text removed from the extracted text (exact lines or regexes)
    body_selectors: tuple[
        str, ...
    ] = ()  # optional: the article body container(s), when trafilatura needs help


@dataclass(frozen=True)
class WaybackSource:
    """How to backfill a publication from the Wayback Machine."""

    prefixes: tuple[str, ...] = ()  # CDX url prefixes, e.g. "iol.co.za/news/"
    domains: tuple[str, ...] = ()  # whole-domain CDX queries (matchType=domain)
    homepage: str | None = None  # for the homepage walk-back
    start: date | None = None  # default window when the run names none
    end: date | None = None


@dataclass(frozen=True)
class Sources:
    feeds: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    news_sitemaps: tuple[str, ...] = ()
    robots: bool = False  # discover sitemaps from robots.txt of the home page's host
    start_urls: tuple[str, ...] = ()  # section pages to follow article links from
    wayback: WaybackSource | None = None


@dataclass(frozen=True)
class UrlRules:
    allow: tuple[str, ...] = ()  # regexes: a URL must match one (when any are given)
    deny: tuple[str, ...] = ()  # regexes: galleries, videos, picture pages, ...
    article: tuple[str, ...] = ()  # regexes: what an article URL looks like (for link following)
    id_pattern: str | None = (
        None  # regex with a group "id": the article id in the URL (slug kept, id changes)
    )


@dataclass(frozen=True)
class Publication:
    slug: str
    name: str
    home: str
    domains: tuple[str, ...]
    languages: tuple[str, ...]
    country: str | None = None
    mirrors: tuple[str, ...] = ()  # domains that only redirect to this publication
    description: str | None = None
    sources: Sources = field(default_factory=Sources)
    urls: UrlRules = field(default_factory=UrlRules)
    rules: tuple[RuleSet, ...] = (RuleSet(),)
    # one retry with a browser User-Agent after a 403 (a CDN that refuses bots its robots.txt allows);
    # off unless the publication turns it on: a site that refuses bots is not worked around by default
    browser_ua_retry: bool = False

    def rules_for(self, when: date | None = None) -> RuleSet:
        """The rule set for a page from ``when`` (capture or publication date; None: today's layout).

        Rule sets are ordered by ``valid_until``; the first whose ``valid_until`` is on or after
        ``when`` applies, and the undated one (the current layout) applies to everything later.
        """
        dated = sorted((r for r in self.rules if r.valid_until), key=lambda r: r.valid_until)
        current = [r for r in self.rules if r.valid_until is None]
        if when is not None:
            for rule in dated:
                if when <= rule.valid_until:
                    return rule
        if current:
            return current[0]
        return dated[-1] if dated else RuleSet()

    def owns(self, host: str) -> bool:
        """True when ``host`` is one of the publication's domains (or a subdomain) or a mirror."""
        host = host.lower().split(":")[0]
        return any(host == d or host.endswith("." + d) for d in (*self.domains, *self.mirrors))


# --- validation ---------------------------------------------------------------------------------


def is_xpath(selector: str) -> bool:
    return selector.startswith(("/", "(", "./"))


def selector_problem(selector: str, *, xpath_only: bool = False) -> str | None:
    """Why ``selector`` cannot be used (None when it compiles): CSS, or XPath when it looks like one."""
    from lxml import etree

    if not selector.strip():
        return "empty selector"
    if xpath_only or is_xpath(selector):
        try:
            etree.XPath(selector)
        except etree.XPathSyntaxError as exc:
            return f"bad XPath {selector!r}: {exc}"
        return None
    from cssselect import SelectorError
    from lxml.cssselect import CSSSelector

    try:
        CSSSelector(selector)
    except (SelectorError, etree.XPathSyntaxError) as exc:
        return f"bad CSS selector {selector!r}: {exc}"
    return None


class _Reader:
    """Reads one TOML table strictly, naming file and key in every error."""

    def __init__(self, filename: str, table: dict[str, Any], prefix: str = "") -> None:
        self.filename = filename
        self.table = table
        self.prefix = prefix
        self.used: set[str] = set()

    def fail(self, key: str, problem: str) -> PublicationError:
        return PublicationError(f"{self.filename}: key '{self.prefix}{key}': {problem}")

    def get(
        self, key: str, kind: type | tuple[type, ...], *, required: bool = False, default: Any = None
    ) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                typo = difflib.get_close_matches(key, [k for k in self.table if isinstance(k, str)], n=1)
                hint = f" (is '{self.prefix}{typo[0]}' a typo?)" if typo else ""
                raise self.fail(key, f"missing (required){hint}")
            return default
        value = self.table[key]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {expected}, got {type(value).__name__} {value!r}")
        if isinstance(value, str) and required and not value.strip():
            raise self.fail(key, "must not be empty")
        return value

    def strings(self, key: str, *, required: bool = False, regex: bool = False) -> tuple[str, ...]:
        value = self.get(key, list, required=required, default=[])
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{key}[{i}]", f"expected a string, got {type(item).__name__} {item!r}")
            if regex:
                self.check_regex(f"{key}[{i}]", item)
        if required and not value:
            raise self.fail(key, "must list at least one value")
        return tuple(value)

    def selectors(self, key: str, *, xpath_only: bool = False) -> tuple[str, ...]:
        """A list of CSS selectors (or XPath, starting with ``/``, ``(`` or ``./``), each compiled now.

        A selector that does not compile would otherwise select nothing on every page, with a warning
        per page: it is a load error naming the file and the key instead.
        """
        values = self.strings(key)
        for i, value in enumerate(values):
            problem = selector_problem(value, xpath_only=xpath_only)
            if problem:
                raise self.fail(f"{key}[{i}]", problem)
        return values

    def urls(self, key: str) -> tuple[str, ...]:
        """A list of absolute http(s) URLs: a source without a scheme or host, or a ``file://`` one,
        is a load error (it would fetch nothing, or read the crawler's own disk)."""
        values = self.strings(key)
        for i, value in enumerate(values):
            parts = urlsplit(value)
            if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
                raise self.fail(f"{key}[{i}]", f"must be an absolute http(s) URL, got {value!r}")
        return values

    def check_regex(self, key: str, pattern: str) -> None:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise self.fail(key, f"bad regular expression {pattern!r}: {exc}") from None

    def date(self, key: str) -> date | None:
        value = self.get(key, (str, date))
        if value is None or isinstance(value, date):
            return value
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise self.fail(key, f"not a date (YYYY-MM-DD): {value!r}") from None

    def sub(self, key: str) -> _Reader | None:
        value = self.get(key, dict)
        return None if value is None else _Reader(self.filename, value, f"{self.prefix}{key}.")

    def finish(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            raise self.fail(unknown[0], "unknown key (typo?)")


def _read_rules(reader: _Reader, index: int) -> RuleSet:
    filters = []
    for j, raw in enumerate(reader.get("filters", list, default=[])):
        if not isinstance(raw, dict):
            raise reader.fail(f"filters[{j}]", "expected an inline table {tag=..., attribute=..., value=...}")
        f = _Reader(reader.filename, raw, f"{reader.prefix}filters[{j}].")
        flt = ElementFilter(
            tag=f.get("tag", str, required=True),
            attribute=f.get("attribute", str, required=True),
            value=f.get("value", str, default=""),
        )
        if not re.fullmatch(r"[\w*-]+", flt.tag.strip() or "*"):
            raise f.fail("tag", f"not a tag name (or *): {flt.tag!r}")
        if not re.fullmatch(r"[\w:-]+", flt.attribute.strip()):
            raise f.fail("attribute", f"not an attribute name: {flt.attribute!r}")
        f.check_regex("value", flt.value)
        f.finish()
        filters.append(flt)
    rules = RuleSet(
        version=reader.get("version", str, default=f"rules-{index}"),
        valid_until=reader.date("valid_until"),
        title_strip=reader.strings("title_strip", regex=True),
        author_selectors=reader.selectors("author_selectors"),
        author_strip=reader.strings("author_strip", regex=True),
        date_selectors=reader.selectors("date_selectors"),
        section_selectors=reader.selectors("section_selectors"),
        prune_xpaths=reader.selectors("prune_xpaths", xpath_only=True),
        filters=tuple(filters),
        strip_text=reader.strings("strip_text"),
        body_selectors=reader.selectors("body_selectors"),
    )
    reader.finish()
    return rules


def parse_publication(slug: str, text: str, filename: str | None = None) -> Publication:
    """Validate one publication file's text and build the :class:`Publication`."""
    filename = filename or f"{slug}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PublicationError(f"{filename}: not valid TOML: {exc}") from None
    top = _Reader(filename, data)
    name = top.get("name", str, required=True)
    home = top.get("home", str, required=True)
    if not re.match(r"https?://", home):
        raise top.fail("home", f"must be an http(s) URL, got {home!r}")
    domains = top.strings("domains", required=True)
    languages = top.strings("languages", required=True)
    for i, code in enumerate(languages):
        problem = language_code_problem(code)
        if problem:
            raise top.fail(f"languages[{i}]", problem)

    sources = Sources()
    src = top.sub("sources")
    if src is not None:
        wayback = None
        wb = src.sub("wayback")
        if wb is not None:
            wayback = WaybackSource(
                prefixes=wb.strings("prefixes"),
                domains=wb.strings("domains"),
                homepage=wb.get("homepage", str),
                start=wb.date("from"),
                end=wb.date("to"),
            )
            wb.finish()
            if not (wayback.prefixes or wayback.domains or wayback.homepage):
                raise wb.fail("prefixes", "a wayback source needs prefixes, domains or a homepage")
        sources = Sources(
            feeds=src.urls("feeds"),
            sitemaps=src.urls("sitemaps"),
            news_sitemaps=src.urls("news_sitemaps"),
            robots=src.get("robots", bool, default=False),
            start_urls=src.urls("start_urls"),
            wayback=wayback,
        )
        src.finish()
    if not (
        sources.feeds
        or sources.sitemaps
        or sources.news_sitemaps
        or sources.robots
        or sources.start_urls
        or sources.wayback
    ):
        raise top.fail(
            "sources",
            "a publication needs at least one source (feeds, sitemaps, news_sitemaps, "
            "robots, start_urls or wayback)",
        )

    urls = UrlRules()
    u = top.sub("urls")
    if u is not None:
        urls = UrlRules(
            allow=u.strings("allow", regex=True),
            deny=u.strings("deny", regex=True),
            article=u.strings("article", regex=True),
            id_pattern=u.get("id_pattern", str),
        )
        if urls.id_pattern is not None:
            u.check_regex("id_pattern", urls.id_pattern)
            if "id" not in re.compile(urls.id_pattern).groupindex:
                raise u.fail("id_pattern", "needs a named group (?P<id>...)")
        u.finish()

    rule_tables = top.get("rules", list, default=[])
    rules = []
    for i, raw in enumerate(rule_tables):
        if not isinstance(raw, dict):
            raise top.fail(f"rules[{i}]", "expected a table ([[rules]])")
        rules.append(_read_rules(_Reader(filename, raw, f"rules[{i}]."), i))
    if sum(1 for r in rules if r.valid_until is None) > 1:
        raise top.fail("rules", "only one rule set may leave out valid_until (the current layout)")

    pub = Publication(
        slug=slug,
        name=name,
        home=home,
        domains=domains,
        languages=languages,
        country=top.get("country", str),
        mirrors=top.strings("mirrors"),
        description=top.get("description", str),
        sources=sources,
        urls=urls,
        rules=tuple(rules) or (RuleSet(),),
        browser_ua_retry=top.get("browser_ua_retry", bool, default=False),
    )
    top.finish()
    return pub


def load_publication(slug: str) -> Publication:
    """Load and validate ``publications/<slug>.toml`` from the installed package."""
    resource = resources.files(PUBLICATIONS_PACKAGE).joinpath(f"{slug}.toml")
    if not resource.is_file():
        raise PublicationError(f"{slug}.toml: no such publication file in package '{PUBLICATIONS_PACKAGE}'")
    filename = f"publications/{slug}.toml"
    return parse_publication(slug, publication_text(resource.read_bytes(), filename), filename)


def publication_text(raw: bytes, filename: str) -> str:
    """The file's text; a file in another encoding is one clear error, not a traceback."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PublicationError(f"{filename}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def publication_slugs() -> list[str]:
    """Every publication shipped in the package, sorted."""
    root = resources.files(PUBLICATIONS_PACKAGE)
    return sorted(p.name[: -len(".toml")] for p in root.iterdir() if p.name.endswith(".toml"))


def load_all() -> dict[str, Publication]:
    return {slug: load_publication(slug) for slug in publication_slugs()}


class PublicationRegistry:
    """Publications by slug: ones registered by a crawl (its spider's), else the shipped files.

    Why: the page stage and ``scrapy reextract`` find an article's rules through its own publication
    slug, not through the spider that fetched it. Lookups are cached, misses too (None: default rules).
    """

    def __init__(self) -> None:
        self._known: dict[str, Publication | None] = {}

    def add(self, publication: Publication) -> None:
        self._known[publication.slug] = publication

    def get(self, slug: str | None) -> Publication | None:
        if not slug:
            return None
        if slug not in self._known:
            try:
                self._known[slug] = load_publication(slug)
            except PublicationError:
                self._known[slug] = None
        return self._known[slug]


__all__ = [
    "ElementFilter",
    "Publication",
    "PublicationError",
    "PublicationRegistry",
    "RuleSet",
    "Sources",
    "UrlRules",
    "WaybackSource",
    "load_all",
    "load_publication",
    "parse_publication",
    "publication_slugs",
]
