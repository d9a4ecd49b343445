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
from sacorpus.precomputed import Precomputed, precomputed_or
from sacorpus.text.analysis import token_fields
from sacorpus.text.page_work import token_inputs

logger = logging.getLogger(__name__)


class TokenizePipeline:
    def __init__(self, stats: Any = None, precomputed: Precomputed | None = None) -> None:
        self.count = Counter(stats, "sacorpus/tokenize")
        self.comment_count = Counter(stats, "sacorpus/comments/tokenize")  # comment tokens counted apart
        self.precomputed = precomputed or Precomputed()  # a page worker's result (SACORPUS_PAGE_WORKERS)

    @classmethod
    def from_crawler(cls, crawler: Any) -> TokenizePipeline:
        require_enabled(crawler, "tokenize")
        return cls(stats=crawler.stats, precomputed=Precomputed.of(crawler))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        comment = isinstance(item, Comment)
        count = self.comment_count if comment else self.count
        inputs = token_inputs(adapter.get)
        try:
            fields, problems = precomputed_or(
                self.precomputed.tokens(item, inputs), lambda: token_fields(*inputs)
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
