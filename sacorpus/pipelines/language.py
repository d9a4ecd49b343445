"""Stage 400: the language of each article and of each paragraph (sacorpus.text.analysis).

Why per paragraph: South African articles mix languages (an isiZulu story quoting English, an
English story with an Afrikaans paragraph). The item gets ``language``, ``language_prob``,
``paragraph_languages`` ([{lang, prob, start, end}] over the lines of ``text``) and ``mixed_language``.
Pages without text get ``und``. CPU only; stats ``sacorpus/language/<code>``, ``.../mixed``,
``.../errors``.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter

from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, note, require_enabled
from sacorpus.precomputed import Precomputed, precomputed_or
from sacorpus.text.analysis import MAX_PARAGRAPHS, language_fields
from sacorpus.text.langid import UNDETERMINED

logger = logging.getLogger(__name__)


class LanguagePipeline:
    def __init__(
        self, stats: Any = None, max_paragraphs: int = MAX_PARAGRAPHS, precomputed: Precomputed | None = None
    ) -> None:
        self.count = Counter(stats, "sacorpus/language")
        self.comment_count = Counter(stats, "sacorpus/comments/language")  # comments counted apart
        self.max_paragraphs = max_paragraphs
        self.precomputed = precomputed or Precomputed()  # a page worker's result (SACORPUS_PAGE_WORKERS)

    @classmethod
    def from_crawler(cls, crawler: Any) -> LanguagePipeline:
        require_enabled(crawler, "language")
        return cls(stats=crawler.stats, precomputed=Precomputed.of(crawler))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        count = self.comment_count if isinstance(item, Comment) else self.count
        text = adapter.get("text") or ""
        try:
            fields = precomputed_or(
                self.precomputed.language(item, text), lambda: language_fields(text, self.max_paragraphs)
            )
        except Exception:  # a bug here must not lose the article
            logger.exception("language identification failed for %s", adapter.get("url"))
            fields = {"language": UNDETERMINED, "language_prob": 0.0}
            note(item, "language:error")
            count.inc("errors")
        for name, value in fields.items():
            adapter[name] = value
        count.inc(fields["language"])
        if fields.get("mixed_language"):
            count.inc("mixed")
        return item
