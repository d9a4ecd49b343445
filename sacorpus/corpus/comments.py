"""The two registers of a corpus, articles and readers' comments, as the corpus commands read them.

Why one switch for every command: comments are a register of their own (readers, not journalists);
a word list, a concordance or a count that mixed them into the articles' would misreport both. Each
corpus command reads one register (``--articles``, the default, or ``--comments``) from its own table
or collection, so their counts never mix.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sacorpus.corpus.exporting import ExportFieldError
from sacorpus.items import Comment
from sacorpus.storage.base import ArticleStore

ARTICLES, COMMENTS = "articles", "comments"
#: every field of a stored comment (the record's own and what the store adds)
COMMENT_FIELDS: tuple[str, ...] = (
    *(f.name for f in dataclasses.fields(Comment)),
    "first_seen_at",
    "updated_at",
)


def add_register_options(parser: argparse.ArgumentParser) -> None:
    """--articles (the default) | --comments."""
    group = parser.add_argument_group("Register").add_mutually_exclusive_group()
    group.add_argument(
        "--articles",
        dest="register",
        action="store_const",
        const=ARTICLES,
        help="read the articles (default)",
    )
    group.add_argument(
        "--comments",
        dest="register",
        action="store_const",
        const=COMMENTS,
        help="read the readers' comments instead (their own table, their own counts)",
    )
    parser.set_defaults(register=ARTICLES)


def register_of(opts: argparse.Namespace) -> str:
    return str(getattr(opts, "register", None) or ARTICLES)


def register_readers(
    store: ArticleStore, register: str
) -> tuple[Callable[[str | None], int], Callable[..., Iterator[dict[str, Any]]]]:
    """The count and the record stream of one register of ``store``."""
    if register == COMMENTS:
        return store.count_comments, store.iter_comments
    return store.count, store.iter_articles


def comment_export_fields(requested: Sequence[str] | None) -> tuple[str, ...]:
    """The comment fields an export writes: those asked for (checked), else all; ``url`` first."""
    if not requested:
        return COMMENT_FIELDS
    names = [n.strip() for item in requested for n in item.split(",") if n.strip()]
    unknown = [n for n in names if n not in COMMENT_FIELDS]
    if unknown:
        raise ExportFieldError(
            f"unknown comment field(s) {', '.join(unknown)}; known: {', '.join(COMMENT_FIELDS)}"
        )
    return tuple(dict.fromkeys(["url", *names]))


__all__ = [
    "ARTICLES",
    "COMMENTS",
    "COMMENT_FIELDS",
    "add_register_options",
    "comment_export_fields",
    "register_of",
    "register_readers",
]
