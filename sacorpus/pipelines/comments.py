"""Reader comments through the crawl: their text (stage 310) and their own table (stage 890).

Why these two stages only: a comment goes through the same language (400) and tokenize (500) stages as
an article, which count it apart (``sacorpus/comments/language/*``, ``sacorpus/comments/tokenize/*``);
the page stage and dedup leave it alone (it has no page to extract, and is kept by its URL, not
labelled as a copy). Its text comes from :func:`sacorpus.text.comments.comment_text`, the article's
own cleaning steps; it is stored by :class:`CommentStorePipeline`, the store stage's batching,
retries and spill file, writing to the comments table and the comments' own spill file.
Stats ``sacorpus/comments/text``, ``.../empty``, ``sacorpus/comments/store/{stored,new,updated,
unchanged,errors,spilled,lost}``.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, note, require_enabled
from sacorpus.pipelines.store import BatchedStoreStage
from sacorpus.storage.comment_records import comment_spill_path
from sacorpus.text.comments import comment_text

logger = logging.getLogger(__name__)


class CommentTextPipeline:
    """The comment's cleaned text, one paragraph a line, from its HTML (else from what its author typed)."""

    def __init__(self, stats: Any = None) -> None:
        self.count = Counter(stats, "sacorpus/comments")

    @classmethod
    def from_crawler(cls, crawler: Any) -> CommentTextPipeline:
        require_enabled(crawler, "comments")
        return cls(stats=crawler.stats)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Comment):
            return item
        try:
            item.text = comment_text(item.message, item.raw_message)
        except Exception:  # a bug here must not lose the comment
            logger.exception("comment text failed for %s", item.url)
            note(item, "comment:text-error")
            self.count.inc("errors")
            item.text = ""
        self.count.inc("text" if item.text else "empty")
        return item


class CommentStorePipeline(BatchedStoreStage):
    """The store stage for comments: upserts by the comment's URL into the comments table."""

    records = "comments"

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        require_enabled(crawler, "comments")
        pipe = super().from_crawler(crawler)
        pipe.spill_path = comment_spill_path(pipe.store.spill_path) or "data/spill/store.comments.jsonl"
        pipe.count = Counter(crawler.stats, "sacorpus/comments/store")
        return pipe

    def takes(self, item: Any) -> bool:
        return isinstance(item, Comment)

    def _upsert(self, batch: list[dict[str, Any]]) -> dict[str, int]:
        return self.store.upsert_comments(batch)

    def _total(self) -> int:
        return self.store.count_comments()


__all__ = ["CommentStorePipeline", "CommentTextPipeline"]
