"""Page metadata: title, authors, dates, section, tags, description, canonical URL.

Generic first, so it works for any of thousands of sites with no publication file: structured data
(JSON-LD ``NewsArticle``), then meta tags (Open Graph, ``article:*``, Parse.ly, Sailthru, Dublin
Core), then markup (``<h1>``, ``<time>``, ``rel=author``/byline classes), then the URL and the
feed/sitemap entry. A publication's rules (author/date/section selectors, title and author strip
patterns) are tried before the generic sources, because a site-specific rule is written exactly
where the generic order fails. Everything reads the tree; nothing modifies it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from sacorpus.publications import RuleSet
from sacorpus.text.authors import is_organisation, split_authors
from sacorpus.text.dates import date_from_url, parse_date, to_utc_iso
from sacorpus.text.titles import (
    clean_spaces,
    headline_outside_branding,
    host_keys,
    is_generic_title,
    is_site_segment,
    norm_key,
    strip_site,
)

logger = logging.getLogger(__name__)

MAX_JSONLD_CHARS = 2_000_000
ARTICLE_TYPES = (
    "newsarticle",
    "article",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "blogposting",
    "liveblogposting",
    "backgroundnewsarticle",
    "reviewnewsarticle",
    "socialmediaposting",
    "scholarlyarticle",
    "techarticle",
    "report",
    "videoobject",
    "imagegallery",
    "mediagallery",
)

PUBLISHED_META = (
    "article:published_time",
    "og:article:published_time",
    "article:published",
    "datepublished",
    "publishdate",
    "publish-date",
    "pubdate",
    "publication_date",
    "sailthru.date",
    "parsely-pub-date",
    "dc.date.issued",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "date",
    "citation_publication_date",
    "og:published_time",
    "article.published",
    "cxenseparse:recs:publishtime",
    "datecreated",
)
MODIFIED_META = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
    "article:modified",
    "og:article:modified_time",
)
AUTHOR_META = (
    "author",
    "article:author",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
    "byl",
    "dcterms.creator",
    "og:article:author",
    "twitter:creator:name",
    "cxenseparse:author",
    "twitter:misc:written by",
)
BYLINE_XPATH = (
    "//*[@rel='author' or @itemprop='author']",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ') or contains(@class, 'author-name')"
    " or contains(@class, 'byline__name') or contains(@class, 'article-author') or contains(@class, 'authorname')"
    " or contains(@class, 'author__name') or contains(@class, 'AuthorList-item') or contains(@class, 'author-link')]",
    # a link to an author page is a byline on almost every CMS
    "//a[contains(@href, '/author/') or contains(@href, '/authors/') or contains(@href, '/autoren/')"
    " or contains(@href, '/autor/') or contains(@href, '/auteur/') or contains(@href, '/journalist/')]",
)


@dataclass
class Metadata:
    title: str | None = None  # as published (og:title / headline / <title>)
    title_clean: str | None = None
    authors: list[str] = field(default_factory=list)
    published: datetime | None = None
    published_raw: str | None = None
    published_source: str | None = None
    modified: datetime | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    page_types: list[str] = field(default_factory=list)  # schema.org / og:type hints
    title_candidates: list[str] = field(default_factory=list)  # every headline the page states
    news_article: bool = False  # schema.org *NewsArticle: the page calls itself a news report

    @property
    def published_at(self) -> str | None:
        return to_utc_iso(self.published)

    @property
    def modified_at(self) -> str | None:
        return to_utc_iso(self.modified)

    @property
    def published_day(self) -> str | None:
        """The publication day in the page's own offset (what a reader sees)."""
        return self.published.date().isoformat() if self.published else None


# --- readers ----------------------------------------------------------------------------------------


def read_meta(root: etree._Element) -> dict[str, list[str]]:
    """All <meta> values keyed by lower-cased name/property/itemprop/http-equiv."""
    metas: dict[str, list[str]] = {}
    for el in root.iter("meta"):
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        value = el.get("content")
        if value is None:
            value = el.get("datetime") or el.get("value")
        if key and value and value.strip():
            metas.setdefault(key.strip().lower(), []).append(value.strip())
    return metas


def _flatten_ld(data: Any, out: list[dict[str, Any]], depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data[:200]:
            _flatten_ld(item, out, depth + 1)
    elif isinstance(data, dict):
        out.append(data)
        if "@graph" in data:
            _flatten_ld(data["@graph"], out, depth + 1)
        main = data.get("mainEntity")
        if isinstance(main, dict | list):
            _flatten_ld(main, out, depth + 1)


def read_json_ld(root: etree._Element) -> list[dict[str, Any]]:
    """Every JSON-LD object on the page (graphs flattened); broken blocks are skipped."""
    objects: list[dict[str, Any]] = []
    for script in root.iter("script"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        raw = (script.text or "").strip()
        if not raw or len(raw) > MAX_JSONLD_CHARS:
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            try:  # common breakage: raw newlines/control characters inside strings, trailing commas
                data = json.loads(re.sub(r",\s*([}\]])", r"\1", re.sub(r"[\x00-\x1f]+", " ", raw)))
            except ValueError:
                continue
        _flatten_ld(data, objects)
    return objects


def _types(obj: Mapping[str, Any]) -> list[str]:
    t = obj.get("@type")
    if isinstance(t, str):
        return [t.lower()]
    if isinstance(t, list):
        return [x.lower() for x in t if isinstance(x, str)]
    return []


def _ld_article(objects: list[dict[str, Any]]) -> dict[str, Any] | None:
    best = None
    for obj in objects:
        types = _types(obj)
        for rank, name in enumerate(ARTICLE_TYPES):
            if name in types and (best is None or rank < best[0]):
                best = (rank, obj)
    return best[1] if best else None


def _ld_names(value: Any, depth: int = 0) -> list[str]:
    if depth > 3 or value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out = []
        for v in value[:30]:
            out.extend(_ld_names(v, depth + 1))
        return out
    if isinstance(value, dict):
        name = value.get("name")
        if isinstance(name, str):
            return [name]
        if isinstance(name, list):
            return [n for n in name if isinstance(n, str)]
        given, family = value.get("givenName"), value.get("familyName")
        if isinstance(given, str) or isinstance(family, str):
            return [" ".join(x for x in (given, family) if isinstance(x, str))]
    return []


def _text(el: etree._Element) -> str:
    return " ".join(" ".join(el.itertext()).split()) if isinstance(el.tag, str) else ""


def select(root: etree._Element, selector: str) -> list[etree._Element]:
    """CSS selector, or XPath when it starts with '/' or '('. A bad selector selects nothing."""
    try:
        result = root.xpath(selector) if selector.startswith(("/", "(", "./")) else root.cssselect(selector)
    except Exception:  # cssselect/XPath syntax errors
        logger.warning("bad selector %r", selector)
        return []
    return result if isinstance(result, list) else []


def _selected_values(root: etree._Element, selectors: Iterable[str]) -> list[str]:
    values = []
    for sel in selectors:
        for item in select(root, sel):
            if isinstance(item, str):
                values.append(str(item))
            elif isinstance(item.tag, str):
                value = item.get("content") or item.get("datetime") or _text(item)
                if value:
                    values.append(value)
    return values


# --- fields -----------------------------------------------------------------------------------------


def _first(metas: Mapping[str, list[str]], keys: Iterable[str]) -> tuple[str, str] | None:
    for key in keys:
        values = metas.get(key)
        if values:
            return key, values[0]
    return None


def _headline(root: etree._Element) -> str | None:
    for xp in ("//article//h1", "//main//h1", "//h1"):
        for h in root.xpath(xp)[:3]:
            text = clean_spaces("".join(h.itertext()))
            if text and len(text) > 3:
                return text
    return None


_KICKER_END = re.compile(r"\S:\s+$")
MAX_HEADER_H2 = 30  # <h2>s looked at for a displayed headline (bounds the work on long pages)


def _in_breadcrumb(el: etree._Element) -> bool:
    """True for an <h1> that only repeats the title for search engines inside a breadcrumb/nav bar."""
    for node in (el, *el.iterancestors()):
        if node.tag == "nav":
            return True
        marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
        if "breadcrumb" in marks:
            return True
    return False


def _visible_headline(root: etree._Element) -> str | None:
    """The headline a reader sees: the first article/main <h1> that is not breadcrumb SEO text."""
    for xp in ("//article//h1", "//main//h1", "//h1"):
        for h in root.xpath(xp)[:3]:
            if _in_breadcrumb(h):
                continue
            text = clean_spaces("".join(h.itertext()))
            if text and len(text) > 3:
                return text
    return None


def _header_shows(root: etree._Element, headline: str) -> bool:
    """True when an <h2> outside breadcrumbs repeats ``headline``.

    Some CMSs put the only <h1> in the breadcrumb bar (SEO text, usually the JSON-LD headline) and
    show readers the headline as an <h2> in the article header; that displayed text is the title.
    """
    key = norm_key(headline)
    if not key:
        return False
    for h in root.xpath("//h2")[:MAX_HEADER_H2]:
        # the headline itself or its line under a kicker (<h2><span>Kicker</span><span>Headline</span>)
        parts = [h, *(c for c in h if isinstance(c.tag, str))]
        if any(norm_key("".join(p.itertext())) == key for p in parts) and not _in_breadcrumb(h):
            return True
    return False


def _host(url: str | None) -> str | None:
    if not url:
        return None
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def extract_title(
    root,
    metas,
    ld,
    url,
    site_names,
    rules: RuleSet,
    fallback_title: str | None,
    candidates_out: list[str] | None = None,
) -> tuple[str | None, str | None]:
    """(title as published, cleaned title); every candidate headline is appended to ``candidates_out``."""
    title_tag = None
    el = root.find(".//title")
    if el is not None:
        title_tag = clean_spaces(_text(el))
    ld_headline = None
    if ld:
        head = ld.get("headline") or ld.get("name")
        if isinstance(head, str):
            ld_headline = clean_spaces(head)
    og = _first(metas, ("og:title", "twitter:title", "title", "dc.title", "sailthru.title", "parsely-title"))
    og_title = clean_spaces(og[1]) if og else None
    h1 = _headline(root)
    host = _host(url)
    if ld_headline and ld_headline.endswith(("...", "…")):
        # a JSON-LD headline cut to a length limit: the full text is in another candidate that starts with it
        stem = ld_headline.rstrip(".… ")
        for other in (h1, og_title, title_tag):
            full = strip_site(other, site_names, host) if other else ""
            if len(stem) >= 20 and len(full) > len(stem) and full.startswith(stem):
                ld_headline = full
                break
    if h1 and not ld_headline and not og_title:
        # an <h1> that is only the site's logo/name: the headline is in <title> without that branding
        branded = headline_outside_branding(h1, title_tag, site_names, host)
        if branded:
            h1 = branded
    published = ld_headline or og_title or h1 or title_tag or clean_spaces(fallback_title)
    if not published:
        return None, None
    # structured data first: the JSON-LD headline is the most often exact, then Open Graph, <h1>, <title>
    cleaned_candidates = [
        strip_site(c, site_names, host, h1)
        for c in (ld_headline, og_title, h1, title_tag, clean_spaces(fallback_title))
        if c
    ]
    cleaned = cleaned_candidates[0]
    if ld_headline and og_title:
        # JSON-LD and Open Graph can carry different headlines (an SEO and a social variant); when the
        # visible headline repeats og:title verbatim, that is the one the page shows its readers.
        ld_clean, og_clean = (
            strip_site(ld_headline, site_names, host, h1),
            strip_site(og_title, site_names, host, h1),
        )
        visible = _visible_headline(root)
        visible_clean = strip_site(visible, site_names, host, h1) if visible else None
        # With no visible <h1> and only a breadcrumb <h1> repeating JSON-LD (the SEO variant), an article-header
        # <h2> showing og:title is the headline readers see.
        shown_as_og = ld_clean != og_clean and (
            visible_clean == og_clean
            or (
                visible is None
                and h1 is not None
                and norm_key(h1) == norm_key(ld_clean)
                and _header_shows(root, og_clean)
            )
        )
        # "Kicker: headline" in JSON-LD where og:title has just the headline: the kicker is the label
        # printed above the headline, not part of it (unless the visible headline shows it)
        kicker_only = (
            len(og_clean) >= 15
            and ld_clean.endswith(og_clean)
            and bool(_KICKER_END.search(ld_clean[: -len(og_clean)]))
            and visible_clean in (None, og_clean)
        )
        if shown_as_og or kicker_only:
            cleaned = og_clean
    site_keys = {norm_key(n) for n in site_names if n} | host_keys(host)
    if is_generic_title(cleaned, site_keys):
        # a site name, "Article" or a section label is never chosen over a real headline
        cleaned = next((c for c in cleaned_candidates if not is_generic_title(c, site_keys)), cleaned)
        if not is_generic_title(cleaned, site_keys) and is_generic_title(published, site_keys):
            published = cleaned
    if candidates_out is not None:
        candidates_out.extend(c for c in (ld_headline, og_title, h1, *cleaned_candidates) if c)
    for pattern in rules.title_strip:
        try:
            cleaned = re.sub(pattern, "", cleaned).strip()
        except re.error:
            continue
    return published, cleaned or published


_WRITTEN_BY = frozenset(
    (
        "written by",
        "author",
        "verfasst von",
        "geschrieben von",
        "von",
        "escrito por",
        "écrit par",
        "auteur",
        "scritto da",
        "geschreven door",
        "skrevet av",
        "skriven av",
        "napisane przez",
    )
)
_NAME_LINE = re.compile(
    r"^(?:[^\W\d_][^\W\d_'’.-]*(?:[-'’][^\W\d_]+)*\.?)(?:[ /](?:[^\W\d_][^\W\d_'’.-]*\.?)){1,7}$"
)


def _twitter_written_by(metas: Mapping[str, list[str]]) -> list[str]:
    """Yoast and other CMSs describe the author as a card label: twitter:label1="Written by", twitter:data1=name."""
    for n in range(1, 5):
        label = (metas.get(f"twitter:label{n}") or [""])[0].strip().casefold()
        if label in _WRITTEN_BY:
            return (metas.get(f"twitter:data{n}") or [])[:1]
    return []


def _bold_byline(root: etree._Element) -> list[str]:
    """A name set alone in bold as the first or last paragraph of the story ("<p><strong>Jane Doe</strong></p>").

    Small CMSs print the byline that way in the body; a paragraph is taken only when all of it is bold
    and it reads like names (2-8 words, each capitalised, no digits or sentence punctuation).
    """
    paragraphs = root.xpath("//p")
    if len(paragraphs) > 400:
        return []
    by_parent: dict[etree._Element, list[etree._Element]] = {}
    for p in paragraphs:
        by_parent.setdefault(p.getparent(), []).append(p)
    if not by_parent:
        return []
    body = max(by_parent.values(), key=len)
    filled = [p for p in body if _text(p)]
    if len(filled) < 3:
        return []
    for p in (*filled[:3], *filled[-2:]):
        text = _text(p)
        bold = " ".join(_text(b) for b in p if b.tag in ("strong", "b")).strip()
        if (
            text
            and bold == text
            and len(text) <= 80
            and _NAME_LINE.match(text)
            and all(w[0].isupper() for w in re.split(r"[ /]", text) if w)
        ):
            return [text]
    return []


def extract_authors(
    root, metas, ld, rules: RuleSet, fallback_authors: Any, site_keys: set[str] | None = None
) -> list[str]:
    """Authors from rules, JSON-LD, meta tags, byline markup, feed - in that order.

    A source that names only the outlet itself ("n-tv NACHRICHTEN" on n-tv.de) is kept as a last
    resort while later sources are searched for people.
    """
    strip = rules.author_strip
    site_keys = site_keys or set()
    outlet_only: list[str] = []

    def consider(found: list[str]) -> list[str] | None:
        nonlocal outlet_only
        if not found:
            return None
        people = [a for a in found if not is_organisation(a, site_keys) or is_site_segment(a, site_keys)]
        if not people:
            return None  # only organisations ("Independent Newspapers Online", "(c) The Telegraph")
        found = people
        if any(not is_site_segment(a, site_keys) for a in found):
            return found
        outlet_only = outlet_only or found
        return None

    def sources():
        if rules.author_selectors:
            yield _selected_values(root, rules.author_selectors)
        if ld:
            yield _ld_names(ld.get("author")) or _ld_names(ld.get("creator"))
        for key in AUTHOR_META:
            if metas.get(key):
                yield metas[key]
        yield _twitter_written_by(metas)
        for xp in BYLINE_XPATH:
            try:
                els = root.xpath(xp)[:6]
            except etree.XPathError:
                continue
            if els and xp is BYLINE_XPATH[-1]:
                # author-page links also fill "more from" lists: only co-authors beside the first one
                box = els[0].getparent().getparent() if els[0].getparent() is not None else None
                els = [e for e in els if box is not None and box in e.iterancestors()]
            values = []
            for el in els:
                if el.tag in ("meta", "link"):
                    continue
                text = el.get("content") or _text(el)
                if text and len(text) < 120:
                    values.append(text)
            yield values
        yield _bold_byline(root)
        if fallback_authors:
            yield fallback_authors

    for values in sources():
        result = consider(split_authors(values, strip))
        if result:
            return result
    return outlet_only


_EXPLICIT_UTC = re.compile(r"(?:Z|[+-]00:?00|\bUTC|\bGMT)\s*$", re.I)


def _in_local_offset(dt: datetime, raw: str, sources: list[tuple[str, str]], metas, ld) -> datetime:
    """Show a UTC timestamp in the page's own offset when another timestamp on the page states one.

    Many CMSs emit ``datePublished`` in UTC ("2022-05-04T00:44:52Z") while the page's other times carry
    the newsroom's offset ("-03:00"); the publication day a reader sees is the local one.
    """
    if dt.utcoffset() != timedelta(0) or not _EXPLICIT_UTC.search(raw.strip()):
        return dt
    others = [v for _, v in sources]
    if ld and isinstance(ld.get("dateModified"), str):
        others.append(ld["dateModified"])
    for key in MODIFIED_META:
        others.extend(metas.get(key, [])[:1])
    for value in others:
        other = parse_date(value, allow_text=False)
        offset = other.utcoffset() if other else None
        if offset:
            return dt.astimezone(timezone(offset))
    return dt


def extract_published(
    root, metas, ld, url, rules: RuleSet, fallback_published: Any
) -> tuple[datetime | None, str | None, str | None]:
    """(datetime, raw string, source label)."""
    sources: list[tuple[str, str]] = []
    if rules.date_selectors:
        sources.extend(("rule", v) for v in _selected_values(root, rules.date_selectors))
    if ld:
        for key in ("datePublished", "dateCreated", "uploadDate"):
            v = ld.get(key)
            if isinstance(v, str):
                sources.append(("json-ld", v))
    for key in PUBLISHED_META:
        for v in metas.get(key, [])[:1]:
            sources.append(("meta", v))
    for el in root.xpath("//time[@datetime or @pubdate]|//*[@itemprop='datePublished']")[:3]:
        v = el.get("datetime") or el.get("content") or _text(el)
        if v:
            sources.append(("time", v))
    for label, value in sources:
        dt = parse_date(value, allow_text=label in ("rule", "time"))
        if dt:
            return _in_local_offset(dt, value, sources, metas, ld), value, label
    if fallback_published:
        value = fallback_published if isinstance(fallback_published, str) else str(fallback_published)
        dt = parse_date(value)
        if dt:
            return dt, value, "feed"
    dt = date_from_url(url)
    if dt:
        return dt, url, "url"
    # some CMSs only state the day in the page title ("Headline | DW | 28.04.2023"): a full date there
    # names this page, unlike dates in teaser lists that htmldate's page-wide search may pick up
    title_el = root.find(".//title")
    for value in [_text(title_el) if title_el is not None else "", *metas.get("og:title", [])[:1]]:
        dt = parse_date(value, allow_text=True) if value else None
        if dt:
            return dt, value, "title"
    try:  # last resort: htmldate's heuristics over the whole page (what trafilatura uses)
        from htmldate import find_date

        found = find_date(root, url=url, original_date=True, extensive_search=True)
    except Exception:  # htmldate must never break metadata extraction
        found = None
    dt = parse_date(found, allow_text=False) if found else None
    if dt:
        return dt, found, "htmldate"
    return None, None, None


def extract_modified(metas, ld) -> datetime | None:
    if ld and isinstance(ld.get("dateModified"), str):
        dt = parse_date(ld["dateModified"], allow_text=False)
        if dt:
            return dt
    hit = _first(metas, MODIFIED_META)
    return parse_date(hit[1], allow_text=False) if hit else None


def extract_metadata(
    root: etree._Element,
    url: str | None = None,
    rules: RuleSet | None = None,
    fallback: Mapping[str, Any] | None = None,
    site_name: str | None = None,
) -> Metadata:
    """Read every metadata field from a parsed page (read-only)."""
    rules = rules or RuleSet()
    fallback = fallback or {}
    metas = read_meta(root)
    objects = read_json_ld(root)
    ld = _ld_article(objects)
    site_names = [site_name] if site_name else []
    for key in (
        "og:site_name",
        "application-name",
        "apple-mobile-web-app-title",
        "twitter:site",
        "publisher",
    ):
        site_names.extend(v.lstrip("@") for v in metas.get(key, [])[:2])
    for obj in objects:
        if (
            "organization" in _types(obj)
            or "newsmediaorganization" in _types(obj)
            or "website" in _types(obj)
        ):
            site_names.extend(_ld_names(obj.get("name")))
    if ld:
        site_names.extend(_ld_names(ld.get("publisher")))

    meta = Metadata()
    meta.site_name = next((s for s in site_names if s), None)
    meta.title, meta.title_clean = extract_title(
        root, metas, ld, url, site_names, rules, fallback.get("title"), meta.title_candidates
    )
    site_keys = {norm_key(n) for n in site_names if n and norm_key(n)} | host_keys(_host(url))
    meta.authors = extract_authors(root, metas, ld, rules, fallback.get("authors"), site_keys)
    meta.published, meta.published_raw, meta.published_source = extract_published(
        root, metas, ld, url, rules, fallback.get("published")
    )
    meta.modified = extract_modified(metas, ld)

    section = _selected_values(root, rules.section_selectors)[:1] if rules.section_selectors else []
    if not section:
        hit = _first(metas, ("article:section", "parsely-section", "section", "sailthru.section"))
        if hit:
            section = [hit[1]]
        elif ld and ld.get("articleSection"):
            sec = ld["articleSection"]
            section = [
                sec
                if isinstance(sec, str)
                else (sec[0] if isinstance(sec, list) and sec and isinstance(sec[0], str) else "")
            ]
    meta.section = clean_spaces(section[0]) if section and section[0] else None

    tags: list[str] = list(metas.get("article:tag", []))
    if not tags and ld and ld.get("keywords"):
        kw = ld["keywords"]
        tags = [
            t
            for t in (kw.split(",") if isinstance(kw, str) else kw if isinstance(kw, list) else [])
            if isinstance(t, str)
        ]
    if not tags:
        for key in ("news_keywords", "keywords", "parsely-tags"):
            if metas.get(key):
                tags = metas[key][0].split(",")
                break
    seen: set[str] = set()
    meta.tags = []
    for t in tags:
        t = clean_spaces(t) or ""
        if t and t.casefold() not in seen and len(t) < 100:
            seen.add(t.casefold())
            meta.tags.append(t)

    desc = _first(metas, ("og:description", "description", "twitter:description", "dc.description"))
    meta.description = (
        clean_spaces(desc[1])
        if desc
        else (clean_spaces(ld.get("description")) if ld and isinstance(ld.get("description"), str) else None)
    )

    canonical = None
    for link in root.iter("link"):
        if (link.get("rel") or "").lower().strip() == "canonical" and link.get("href"):
            canonical = link.get("href").strip()
            break
    if not canonical:
        hit = _first(metas, ("og:url",))
        canonical = hit[1] if hit else None
    if canonical and url:
        canonical = urljoin(url, canonical)
    meta.canonical_url = canonical if canonical and canonical.startswith("http") else None

    og_type = _first(metas, ("og:type",))
    meta.page_types = ([og_type[1].lower()] if og_type else []) + (_types(ld) if ld else [])
    meta.news_article = any(t.endswith("newsarticle") for obj in objects for t in _types(obj))
    return meta


__all__ = ["Metadata", "extract_metadata", "read_json_ld", "read_meta", "select"]
