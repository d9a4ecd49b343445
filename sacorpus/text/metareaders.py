"""Shared readers of page metadata: ``<meta>`` tags, JSON-LD objects, selectors, element text.

Every field module (titles, authors, dates, section/tags) reads the same few structures; they are read
once per page here and handed around, so each field module only decides, never parses. Everything
reads the tree; nothing modifies it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

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

Metas = Mapping[str, list[str]]
LdObject = dict[str, Any]


def read_meta(root: Any) -> dict[str, list[str]]:
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


def _flatten_ld(data: Any, out: list[LdObject], depth: int = 0) -> None:
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


def read_json_ld(root: Any) -> list[LdObject]:
    """Every JSON-LD object on the page (graphs flattened); broken blocks are skipped."""
    objects: list[LdObject] = []
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


def ld_types(obj: Mapping[str, Any]) -> list[str]:
    """The lower-cased schema.org ``@type`` names of one JSON-LD object."""
    t = obj.get("@type")
    if isinstance(t, str):
        return [t.lower()]
    if isinstance(t, list):
        return [x.lower() for x in t if isinstance(x, str)]
    return []


def ld_article(objects: list[LdObject]) -> LdObject | None:
    """The JSON-LD object that describes the article itself (the most specific article type wins)."""
    best: tuple[int, LdObject] | None = None
    for obj in objects:
        types = ld_types(obj)
        for rank, name in enumerate(ARTICLE_TYPES):
            if name in types and (best is None or rank < best[0]):
                best = (rank, obj)
    return best[1] if best else None


def ld_names(value: Any, depth: int = 0) -> list[str]:
    """Names in a JSON-LD person/organisation value: a string, a list, or ``{"name": ...}`` objects."""
    if depth > 3 or value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out: list[str] = []
        for v in value[:30]:
            out.extend(ld_names(v, depth + 1))
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


def ld_organisations(value: Any, depth: int = 0) -> list[str]:
    """Names of the JSON-LD objects in ``value`` typed as an organisation (``Organization``,
    ``NewsMediaOrganization``, ``Corporation``...): a publisher credited in the author slot, not a person."""
    if depth > 3 or value is None:
        return []
    if isinstance(value, list):
        return [n for v in value[:30] for n in ld_organisations(v, depth + 1)]
    if not isinstance(value, dict):
        return []
    kinds = value.get("@type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    kinds = [k for k in kinds if isinstance(k, str)]
    if "Person" not in kinds and any(k.endswith(("Organization", "Corporation")) for k in kinds):
        return ld_names(value)
    return []


def ld_resolve(value: Any, objects: list[LdObject], depth: int = 0) -> Any:
    """A JSON-LD value with ``{"@id": ...}`` references replaced by the graph's object of that id.

    Yoast and other graph writers state the article's author as a reference (``"author": {"@id":
    ".../#author"}``) and the Person once elsewhere in the graph; without resolving, no name is seen.
    """
    if depth > 2:
        return value
    if isinstance(value, list):
        return [ld_resolve(v, objects, depth + 1) for v in value[:30]]
    if isinstance(value, dict) and "name" not in value and isinstance(value.get("@id"), str):
        return next((o for o in objects if o.get("@id") == value["@id"] and o is not value), value)
    return value


def ld_string(ld: Mapping[str, Any] | None, key: str) -> str | None:
    """A JSON-LD property when it is a string, else None."""
    value = ld.get(key) if ld else None
    return value if isinstance(value, str) else None


def node_text(el: Any) -> str:
    """An element's text with whitespace collapsed (comments and processing instructions give '')."""
    return " ".join(" ".join(el.itertext()).split()) if isinstance(el.tag, str) else ""


def select(root: Any, selector: str) -> list[Any]:
    """CSS selector, or XPath when it starts with '/' or '('. A bad selector selects nothing."""
    try:
        result = root.xpath(selector) if selector.startswith(("/", "(", "./")) else root.cssselect(selector)
    except Exception:  # cssselect/XPath syntax errors
        logger.warning("bad selector %r", selector)
        return []
    return result if isinstance(result, list) else []


def selected_values(root: Any, selectors: Iterable[str]) -> list[str]:
    """The values a publication's selectors point at: attribute results, ``content``/``datetime`` or text."""
    values = []
    for sel in selectors:
        for item in select(root, sel):
            if isinstance(item, str):
                values.append(str(item))
            elif isinstance(item.tag, str):
                value = item.get("content") or item.get("datetime") or node_text(item)
                if value:
                    values.append(value)
    return values


def first_meta(metas: Metas, keys: Iterable[str]) -> tuple[str, str] | None:
    """(key, value) of the first of ``keys`` the page has a meta value for."""
    for key in keys:
        values = metas.get(key)
        if values:
            return key, values[0]
    return None


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


__all__ = [
    "ARTICLE_TYPES",
    "first_meta",
    "host_of",
    "ld_article",
    "ld_names",
    "ld_resolve",
    "ld_string",
    "ld_types",
    "node_text",
    "read_json_ld",
    "read_meta",
    "select",
    "selected_values",
]
