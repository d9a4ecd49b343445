"""Stage 550 (optional): UPOS tags and lemmas of the tokens (sacorpus.text.tagging), before dedup.

Why optional: tagging costs CPU on every article, and only corpora meant for linguistic queries
need it; ``SACORPUS_ANNOTATE_ENABLED = True`` turns it on (``scrapy annotate`` tags what is already
stored). The item gets ``upos``, ``lemmas`` and ``pos_model`` (see sacorpus.text.tagging.annotate);
English and Afrikaans sentences are tagged, others get ``_``. Stats ``sacorpus/annotate/items``,
``.../tagged`` (articles with a model's language), ``.../tokens`` (tokens tagged), ``.../errors``.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter

from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, note, require_enabled
from sacorpus.text.tagging.annotate import READS, UNTAGGED, annotation_fields

logger = logging.getLogger(__name__)


class AnnotatePipeline:
    def __init__(self, stats: Any = None) -> None:
        self.count = Counter(stats, "sacorpus/annotate")
        self.models: dict[str, Any] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> AnnotatePipeline:
        require_enabled(crawler, "annotate")
        return cls(stats=crawler.stats)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        if isinstance(item, Comment):  # a reader's comment: its record keeps no tags
            return item
        try:
            # only what tagging reads: a copy of the whole item would copy its raw body too
            fields = annotation_fields({name: adapter.get(name) for name in READS}, self.models)
        except Exception:  # a bug here must not lose the article
            logger.exception("POS tagging failed for %s", adapter.get("url"))
            note(item, "annotate:error")
            self.count.inc("errors")
            return item
        for name, value in fields.items():
            adapter[name] = value
        self.count.inc("items")
        if fields["pos_model"]:
            self.count.inc("tagged")
            self.count.inc("tokens", sum(1 for tag in fields["upos"].split(" ") if tag != UNTAGGED))
        return item
