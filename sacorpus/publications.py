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

import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from typing import Any

from sacorpus.iso639 import language_code_problem
from sacorpus.publication_comments import CommentRules, read_comments
from sacorpus.publication_reader import PublicationError, TomlReader, is_xpath
from sacorpus.publication_render import RenderRules, read_render

PUBLICATIONS_PACKAGE = "publications"
# Publication files outside the package (the setting of the same name; the environment variable reaches
# the stages that look a publication up by slug alone)
DIRECTORY_VARIABLE = "SACORPUS_PUBLICATIONS_DIR"
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


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
    layout_classes: tuple[str, ...] = ()  # class names only this layout's pages carry (text/rules.py)


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
    render: RenderRules | None = None  # article pages a browser renders ([render]; None: none)
    comments: CommentRules | None = None  # where its readers comment ([comments]; None: not collected)

    def rules_for(self, when: date | None = None) -> RuleSet:
        """The rule set for a page from ``when`` (capture or publication date; None: today's layout).

        Rule sets are ordered by ``valid_until``; the first whose ``valid_until`` is on or after
        ``when`` applies, and the undated one (the current layout) applies to everything later.
        """
        dated = sorted((r for r in self.rules if r.valid_until), key=lambda r: r.valid_until or date.max)
        current = [r for r in self.rules if r.valid_until is None]
        if when is not None:
            for rule in dated:
                if rule.valid_until is not None and when <= rule.valid_until:
                    return rule
        if current:
            return current[0]
        return dated[-1] if dated else RuleSet()

    def owns(self, host: str) -> bool:
        """True when ``host`` is one of the publication's domains (or a subdomain) or a mirror."""
        host = host.lower().split(":")[0]
        return any(host == d or host.endswith("." + d) for d in (*self.domains, *self.mirrors))


# --- validation ---------------------------------------------------------------------------------


def _read_rules(reader: TomlReader, index: int) -> RuleSet:
    filters = []
    for j, raw in enumerate(reader.get("filters", list, default=[])):
        if not isinstance(raw, dict):
            raise reader.fail(f"filters[{j}]", "expected an inline table {tag=..., attribute=..., value=...}")
        f = TomlReader(reader.filename, raw, f"{reader.prefix}filters[{j}].")
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
        layout_classes=reader.strings("layout_classes"),
    )
    for j, name in enumerate(rules.layout_classes):
        if not re.fullmatch(r"[\w-]+", name):
            raise reader.fail(f"layout_classes[{j}]", f"not a class name: {name!r}")
    reader.finish()
    return rules


def parse_publication(slug: str, text: str, filename: str | None = None) -> Publication:
    """Validate one publication file's text and build the :class:`Publication`."""
    filename = filename or f"{slug}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PublicationError(f"{filename}: not valid TOML: {exc}") from None
    top = TomlReader(filename, data)
    name = top.get("name", str, required=True)
    home = top.url("home", required=True) or ""
    domains = top.strings("domains", required=True)
    languages = top.strings("languages", required=True)
    for i, code in enumerate(languages):
        problem = language_code_problem(code)
        if problem:
            raise top.fail(f"languages[{i}]", problem)
    pub = Publication(
        slug=slug,
        name=name,
        home=home,
        domains=domains,
        languages=languages,
        country=top.get("country", str),
        mirrors=top.strings("mirrors"),
        description=top.get("description", str),
        sources=_read_sources(top),
        urls=_read_urls(top),
        rules=_read_rule_sets(top),
        browser_ua_retry=top.get("browser_ua_retry", bool, default=False),
        render=read_render(top),
        comments=read_comments(top),
    )
    top.finish()
    return pub


def _read_sources(top: TomlReader) -> Sources:
    """The ``[sources]`` table; a publication without any source is an error."""
    sources = Sources()
    src = top.sub("sources")
    if src is not None:
        sources = Sources(
            feeds=src.urls("feeds"),
            sitemaps=src.urls("sitemaps"),
            news_sitemaps=src.urls("news_sitemaps"),
            robots=src.get("robots", bool, default=False),
            start_urls=src.urls("start_urls"),
            wayback=_read_wayback(src),
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
    return sources


def _read_wayback(src: TomlReader) -> WaybackSource | None:
    wb = src.sub("wayback")
    if wb is None:
        return None
    wayback = WaybackSource(
        prefixes=wb.strings("prefixes"),
        domains=wb.strings("domains"),
        homepage=wb.url("homepage"),
        start=wb.date("from"),
        end=wb.date("to"),
    )
    wb.finish()
    if not (wayback.prefixes or wayback.domains or wayback.homepage):
        raise wb.fail("prefixes", "a wayback source needs prefixes, domains or a homepage")
    return wayback


def _read_urls(top: TomlReader) -> UrlRules:
    u = top.sub("urls")
    if u is None:
        return UrlRules()
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
    return urls


def _read_rule_sets(top: TomlReader) -> tuple[RuleSet, ...]:
    """The dated ``[[rules]]`` tables; at most one may leave out valid_until (the current layout)."""
    rules = []
    for i, raw in enumerate(top.get("rules", list, default=[])):
        if not isinstance(raw, dict):
            raise top.fail(f"rules[{i}]", "expected a table ([[rules]])")
        rules.append(_read_rules(TomlReader(top.filename, raw, f"rules[{i}]."), i))
    if sum(1 for r in rules if r.valid_until is None) > 1:
        raise top.fail("rules", "only one rule set may leave out valid_until (the current layout)")
    return tuple(rules) or (RuleSet(),)


def publications_dir(directory: str | None = None) -> str | None:
    """The extra publication directory: ``directory`` if given, else the environment's."""
    return directory or os.environ.get(DIRECTORY_VARIABLE) or None


def load_publication(slug: str, directory: str | None = None) -> Publication:
    """Load and validate ``publications/<slug>.toml`` from the installed package, else
    ``<directory>/<slug>.toml`` (the extra publication directory)."""
    resource = resources.files(PUBLICATIONS_PACKAGE).joinpath(f"{slug}.toml")
    if resource.is_file():
        filename = f"publications/{slug}.toml"
        return parse_publication(slug, publication_text(resource.read_bytes(), filename), filename)
    extra = publications_dir(directory)
    path = os.path.join(extra, f"{slug}.toml") if extra and _SLUG.match(slug) else None
    if path is None or not os.path.isfile(path):
        where = f"package '{PUBLICATIONS_PACKAGE}'" + (f" or {extra}" if extra else "")
        raise PublicationError(f"{slug}.toml: no such publication file in {where}")
    with open(path, "rb") as fh:
        return parse_publication(slug, publication_text(fh.read(), path), path)


def publication_text(raw: bytes, filename: str) -> str:
    """The file's text; a file in another encoding is one clear error, not a traceback."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PublicationError(f"{filename}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def publication_slugs(directory: str | None = None) -> list[str]:
    """Every publication shipped in the package and in the extra directory, sorted."""
    root = resources.files(PUBLICATIONS_PACKAGE)
    slugs = {p.name[: -len(".toml")] for p in root.iterdir() if p.name.endswith(".toml")}
    return sorted(slugs | set(extra_slugs(directory)))


def extra_slugs(directory: str | None = None) -> list[str]:
    """The publications of the extra directory (a file whose name is no valid spider name is an error)."""
    extra = publications_dir(directory)
    if not extra:
        return []
    if not os.path.isdir(extra):
        raise PublicationError(f"{DIRECTORY_VARIABLE}={extra}: not a directory")
    slugs = []
    for name in sorted(os.listdir(extra)):
        if name.endswith(".toml"):
            slug = name[: -len(".toml")]
            if not _SLUG.match(slug):
                raise PublicationError(f"{extra}/{name}: a publication file name is a-z, 0-9 and _")
            slugs.append(slug)
    return slugs


def load_all(directory: str | None = None) -> dict[str, Publication]:
    return {slug: load_publication(slug, directory) for slug in publication_slugs(directory)}


class PublicationRegistry:
    """Publications by slug: a crawl's own (its spider's), else the files in ``directory`` (the setting
    SACORPUS_PUBLICATIONS_DIR, else that variable) and the shipped ones; cached, misses too (None: the
    default rules). Why: the page stage and ``scrapy reextract`` find rules by the article's slug."""

    def __init__(self, directory: str | None = None) -> None:
        self.directory = directory or None
        self._known: dict[str, Publication | None] = {}

    @classmethod
    def from_settings(cls, settings: Any) -> PublicationRegistry:
        return cls(settings.get(DIRECTORY_VARIABLE) or None)

    def add(self, publication: Publication) -> None:
        self._known[publication.slug] = publication

    def get(self, slug: str | None) -> Publication | None:
        if not slug:
            return None
        if slug not in self._known:
            try:
                self._known[slug] = load_publication(slug, self.directory)
            except PublicationError:
                self._known[slug] = None
        return self._known[slug]


__all__ = [
    "ElementFilter",
    "Publication",
    "PublicationError",
    "PublicationRegistry",
    "RenderRules",
    "RuleSet",
    "Sources",
    "UrlRules",
    "WaybackSource",
    "is_xpath",
    "load_all",
    "load_publication",
    "parse_publication",
    "publication_slugs",
]
