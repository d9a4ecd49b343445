"""Reading a page's query string: the article filter and the page's own numbers, checked.

Why one place: every page takes the same filter fields (publication, language, since, until, dedup
label) and page number, and every bad value must become the same clear 400 message, never an empty
result. Unknown publications and languages are checked against the known values, as the commands do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from sacorpus.corpus.filters import DEDUP_LABELS, ArticleFilter, check_known
from sacorpus.corpus.known import KnownValues
from sacorpus.web.queries import QueryError

FILTER_KEYS = ("publication", "language", "since", "until", "label")


def values(query: Any, name: str) -> list[str]:
    """Every non-empty value of a repeated parameter (``?publication=a&publication=b``)."""
    return [v for v in query.getall(name, []) if v.strip()]


def article_filter(query: Any, known: KnownValues) -> ArticleFilter:
    """The filter the query string asks for; FilterError names what is wrong and what is known."""
    flt = ArticleFilter(
        publications=tuple(values(query, "publication")),
        languages=tuple(values(query, "language")),
        since=query.get("since") or None,
        until=query.get("until") or None,
        dedup_labels=tuple(values(query, "label")),
    )
    check_known(flt, known.publications, known.languages)
    return flt


def number(query: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """An integer parameter within [low, high]; anything else is a QueryError."""
    raw = query.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise QueryError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise QueryError(f"{name} must be between {low} and {high}, not {value}")
    return value


def choice(query: Mapping[str, str], name: str, options: tuple[str, ...], default: str) -> str:
    value = query.get(name) or default
    if value not in options:
        raise QueryError(f"{name} must be one of {', '.join(options)}, not {value!r}")
    return value


def flag(query: Mapping[str, str], name: str) -> bool:
    return query.get(name, "") in ("1", "on", "true", "yes")


def with_changes(query: Any, **changes: Any) -> str:
    """The query string with some parameters replaced (page links, sort links, downloads)."""
    items = [(k, v) for k, v in query.items() if k not in changes]
    items += [(k, str(v)) for k, v in changes.items() if v not in (None, "")]
    return "?" + urlencode(items)


def filter_form(query: Any, known: KnownValues) -> dict[str, Any]:
    """What the filter form shows: the choices and the current values."""
    return {
        "publications": known.publications,
        "languages": known.languages,
        "labels": DEDUP_LABELS,
        "chosen": {key: values(query, key) for key in FILTER_KEYS},
    }
