"""Many relabels at once: what ``scrapy dedup --rebuild`` asks of a store, with defaults for any store.

Why apart from the article protocol: a rebuild relabels most articles of a stale store. One write per
article, each moving the article's word counts between the duplicate and non-duplicate keys on its
own, was most of its time; a backend writes a batch of labels in one request
(:meth:`Relabels.update_labels`) and moves the counts of the articles relabelled inside
:meth:`Relabels.relabelling` once, at the end, for the articles whose count key really changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any


class Relabels:
    """Defaults: one :meth:`update_fields` per article, counts moved as each one is written."""

    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:  # the article protocol's
        raise NotImplementedError

    def relabelling(self) -> AbstractContextManager[None]:
        """Relabels made inside may move their word counts at the end, summed: the counts are right
        when it exits (also on an error), not in between."""
        return nullcontext()

    def update_labels(self, labels: Mapping[str, Mapping[str, Any]]) -> int:
        """Set the label fields (``dedup_label``, ``dedup_evidence``, ``text_hash``) of many stored
        articles (url -> fields); returns how many were stored."""
        return sum(1 for url, fields in labels.items() if self.update_fields(url, fields))


__all__ = ["Relabels"]
