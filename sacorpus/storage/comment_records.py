"""What both comment stores share: when a polled comment changed, and how spilled comments come back.

Why one place: a comment seen again must never become a second record, and the SQLite and MongoDB
stores must agree on what counts as a change; a comment spilled during an outage must come back under
the same rules as an article (the spill importer's), so the importer sees a comment store through
:class:`CommentSpillView`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Self

from sacorpus.storage.base import ArticleStorage, CommentStorage

#: what a re-poll compares: a comment whose fields here differ from the stored ones was edited,
#: deleted, moderated or voted on, and is updated in place
COMMENT_CHANGES = (
    "raw_message",
    "message",
    "is_deleted",
    "is_spam",
    "is_approved",
    "is_edited",
    "likes",
    "dislikes",
    "points",
    "parent",
    "author_name",
)


def comment_spill_path(spill_path: str | None) -> str | None:
    """The spill file of a store's comments, beside its articles' (``<name>.comments.jsonl``)."""
    if not spill_path:
        return None
    stem = spill_path[: -len(".jsonl")] if spill_path.endswith(".jsonl") else spill_path
    return stem + ".comments.jsonl"


def merge_comment(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The record to store for ``new`` and what it is: ``new`` | ``updated`` | ``unchanged``.

    Why one function for both backends: a comment seen again must never become a second record, and
    both stores must agree on what counts as a change. The first time the comment was seen is kept
    (``first_seen_at``); an unchanged comment keeps its stored text fields untouched.
    """
    record = dict(new)
    if old is None:
        record.setdefault("first_seen_at", record.get("fetched_at"))
        return record, "new"
    record["first_seen_at"] = old.get("first_seen_at") or old.get("fetched_at")
    same = all(old.get(name) == new.get(name) for name in COMMENT_CHANGES)
    if not same:
        record["updated_at"] = new.get("fetched_at")
    elif old.get("updated_at"):
        record["updated_at"] = old["updated_at"]
    return record, "unchanged" if same else "updated"


class CommentSpillView(ArticleStorage):
    """A comment store seen through the article methods the spill importer calls: the importer's rules
    (claimed by renaming, resumed after a crash, a newer fetch wins, a rejected record set aside)
    apply to spilled comments unchanged."""

    def __init__(self, store: CommentStorage) -> None:
        self.comments = store

    @classmethod
    def from_settings(cls, settings: Any) -> Self:
        raise NotImplementedError("a view of an open store")

    def open(self) -> None:
        """The store it shows is already open."""

    def close(self) -> None:
        """The store it shows closes itself."""

    def upsert_articles(self, records: list[dict[str, Any]]) -> None:
        self.comments.upsert_comments(records)

    def get(self, url: str) -> dict[str, Any] | None:
        return self.comments.get_comment(url)

    def has_urls(self, urls: Iterable[str]) -> set[str]:
        return self.comments.has_comments(urls)

    def count(self, publication: str | None = None) -> int:
        return self.comments.count_comments(publication)

    def iter_articles(
        self, publication: str | None = None, fields: Iterable[str] | None = None, batch_size: int = 500
    ) -> Iterator[dict[str, Any]]:
        return self.comments.iter_comments(publication, fields, batch_size)

    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:
        old = self.comments.get_comment(url)
        if old is None:
            return False
        self.comments.upsert_comments([{**old, **fields}])
        return True

    def unlabelled_urls(self) -> list[str]:
        return []  # comments are not deduplicated


__all__ = ["COMMENT_CHANGES", "CommentSpillView", "comment_spill_path", "merge_comment"]
