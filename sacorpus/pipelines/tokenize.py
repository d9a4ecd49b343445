"""Stage 500: sentences, tokens with offsets, counts, title tokens, links and quotes (sacorpus.text.analysis).

Why here, once: word lists, collocations and KWIC read stored tokens instead of re-tokenizing.
The item gets ``sentences``, ``tokens``, ``token_offsets``, ``token_count``, ``word_count``,
``title_tokens`` (F, from ``title_clean`` or ``title``), ``quotes`` (Q) and ``links`` (L). Links come
from ``item.fallback["anchors"]`` ([anchor text, href] pairs) when the page stage gives them, else
from the ``<a>`` elements inside the page's ``<article>`` (or ``<main>``), plus URLs in the text.
CPU only; stats ``sacorpus/tokenize/items``, ``.../tokens``, ``.../words``, ``.../errors``.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter

from sacorpus.items import Comment
from sacorpus.pipelines._common import Counter, note, require_enabled
from sacorpus.text.analysis import token_fields

logger = logging.getLogger(__name__)


class TokenizePipeline:
    def __init__(self, stats: Any = None) -> None:
        self.count = Counter(stats, "sacorpus/tokenize")
        self.comment_count = Counter(stats, "sacorpus/comments/tokenize")  # comment tokens counted apart

    @classmethod
    def from_crawler(cls, crawler: Any) -> TokenizePipeline:
        require_enabled(crawler, "tokenize")
        return cls(stats=crawler.stats)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        comment = isinstance(item, Comment)
        count = self.comment_count if comment else self.count
        fallback = adapter.get("fallback") or {}
        try:
            fields, problems = token_fields(
                adapter.get("text") or "",
                adapter.get("language"),
                adapter.get("title_clean") or adapter.get("title"),
                fallback.get("anchors") if isinstance(fallback, dict) else None,
                adapter.get("html"),
                adapter.get("final_url") or adapter.get("url"),
            )
        except Exception:  # a bug here must not lose the article
            logger.exception("tokenization failed for %s", adapter.get("url"))
            note(item, "tokenize:error")
            count.inc("errors")
            return item
        for name, value in fields.items():
            if not (comment and name == "title_tokens"):  # a comment has no title
                adapter[name] = value
        for problem in problems:
            note(item, problem)
        count.inc("items")
        count.inc("tokens", fields["token_count"])
        count.inc("words", fields["word_count"])
        return item
