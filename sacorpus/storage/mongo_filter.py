"""One MongoDB query for a ``StoreFilter``, over article documents and over the kept group totals
(which name the same fields shorter): the two must select the same articles, so they share the code.
"""

from __future__ import annotations

from typing import Any

from sacorpus.storage.counts import StoreFilter

#: the article fields a filter names, as ``mongo_where`` reads them from article documents
ARTICLE_FIELDS = ("publication", "language", "dedup_label", "published_at")


def mongo_where(where: StoreFilter, fields: tuple[str, str, str, str] = ARTICLE_FIELDS) -> dict[str, Any]:
    """The query for a filter over documents naming (publication, language, label, date) ``fields``
    (articles by default; the kept group totals name them shorter). The date bounds compare ISO
    prefixes as strings."""
    publication, language, label, date = fields
    query: dict[str, Any] = {}
    if where.publications:
        query[publication] = {"$in": list(where.publications)}
    if where.languages:
        query[language] = {"$in": list(where.languages)}
    if where.exclude_duplicates:
        query[label] = {"$ne": "duplicate"}
    dates: dict[str, str] = {}
    if where.since:
        dates["$gte"] = where.since
    if where.until:
        dates["$lte"] = where.until + "~"  # "~" sorts after every character of an ISO date
    if dates:
        query[date] = dates
    return query
