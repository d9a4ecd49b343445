"""JSONL export and the field lists every export format reads from the store.

Why explicit field lists: asking the store for all fields would also read and decompress the raw
``body`` of every article, which the export never writes; the HTML is large too, so it is only read
when ``--html`` asks for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields as dataclass_fields
from typing import Any

from sacorpus.corpus.documents import DOCUMENT_FIELDS
from sacorpus.corpus.parquet import PARQUET_FIELDS
from sacorpus.items import Article

#: every Article field except the raw body, in declaration order
ARTICLE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclass_fields(Article) if f.name != "body")

#: what the one-field-a-line variant (``--format blocks``) writes (H only with --html)
LINEFORMAT_FIELDS: tuple[str, ...] = (
    "url",
    "published_at",
    "title",
    "title_clean",
    "title_tokens",
    "text",
    "links",
    "quotes",
)


#: what the seed's one-line-an-article format (``--format lines``) writes; H is part of it
SEED_FIELDS: tuple[str, ...] = (
    "url",
    "published_at",
    "title",
    "title_tokens",
    "text",
    "tokens",
    "token_offsets",
    "html",
    "links",
    "quotes",
    "language",
    "language_prob",
    "paragraph_languages",
)

#: fields of the formats whose fields are fixed (``--fields`` applies to jsonl only)
FIXED_FIELDS: dict[str, tuple[str, ...]] = {
    "blocks": LINEFORMAT_FIELDS,
    "lines": SEED_FIELDS,
    "vrt": DOCUMENT_FIELDS,
    "conllu": DOCUMENT_FIELDS,
    "parquet": tuple(dict.fromkeys([*PARQUET_FIELDS, *DOCUMENT_FIELDS])),
}


class ExportFieldError(ValueError):
    """--fields named something that is not an Article field."""


def export_fields(
    fmt: str, requested: Sequence[str] | None = None, *, with_html: bool = False
) -> tuple[str, ...]:
    """The fields to read and write for a format; ``url`` always first, ``body`` never."""
    if requested:
        names = [n.strip() for item in requested for n in item.split(",") if n.strip()]
        unknown = [n for n in names if n not in ARTICLE_FIELDS]
        if unknown:
            raise ExportFieldError(
                f"unknown field(s) {', '.join(unknown)}; known: {', '.join(ARTICLE_FIELDS)}"
            )
        base: Sequence[str] = names
    elif fmt in FIXED_FIELDS:
        base = FIXED_FIELDS[fmt]
    else:
        base = [n for n in ARTICLE_FIELDS if n != "html"]
    out = list(dict.fromkeys(["url", *base]))
    if with_html and "html" not in out:
        out.append("html")
    return tuple(out)


def jsonl_line(record: Mapping[str, Any], fields: Sequence[str]) -> str:
    """One article as one JSON line with exactly ``fields`` (missing ones as null)."""
    doc = {name: record.get(name) for name in fields if name != "body"}
    return json.dumps(doc, ensure_ascii=False, default=str) + "\n"
