"""Stage 400: the language of each article and of each paragraph (sacorpus.text.langid).

Why per paragraph: South African articles mix languages (an isiZulu story quoting English, an
English story with an Afrikaans paragraph). The item gets ``language``, ``language_prob``,
``paragraph_languages`` ([{lang, prob, start, end}] over the lines of ``text``) and ``mixed_language``.
Pages without text get ``und``. CPU only; stats ``sacorpus/language/<code>``, ``.../mixed``,
``.../errors``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from itemadapter import ItemAdapter

from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.text.langid import UNDETERMINED, identify_paragraphs

logger = logging.getLogger(__name__)

#: Paragraphs beyond this many are not identified one by one (bounded time on huge pages).
MAX_PARAGRAPHS = 400


def note(item: Any, problem: str) -> None:
    """Record a problem on the item whether it is an Article or a plain dict."""
    if hasattr(item, "note"):
        item.note(problem)
        return
    problems = ItemAdapter(item).get("problems")
    if isinstance(problems, list) and problem not in problems:
        problems.append(problem)


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the non-blank lines (paragraphs) of ``text``, without surrounding whitespace."""
    spans = []
    for match in re.finditer(r"[^\n]+", text):
        segment = match.group()
        stripped = segment.strip()
        if stripped:
            start = match.start() + (len(segment) - len(segment.lstrip()))
            spans.append((start, start + len(stripped)))
    return spans


class LanguagePipeline:
    def __init__(self, stats: Any = None, max_paragraphs: int = MAX_PARAGRAPHS) -> None:
        self.count = Counter(stats, "sacorpus/language")
        self.max_paragraphs = max_paragraphs

    @classmethod
    def from_crawler(cls, crawler: Any) -> LanguagePipeline:
        require_enabled(crawler, "language")
        return cls(stats=crawler.stats)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        text = adapter.get("text") or ""
        try:
            spans = paragraph_spans(text)
            if not spans:
                adapter["language"] = UNDETERMINED
                adapter["language_prob"] = 0.0
                adapter["paragraph_languages"] = []
                adapter["mixed_language"] = False
                self.count.inc("und")
                return item
            spans = spans[: self.max_paragraphs]
            result = identify_paragraphs([text[a:b] for a, b in spans])
            adapter["language"] = result.language
            adapter["language_prob"] = result.probability
            adapter["paragraph_languages"] = [
                {"lang": lang, "prob": prob, "start": a, "end": b}
                for (lang, prob), (a, b) in zip(result.paragraphs, spans, strict=True)
            ]
            adapter["mixed_language"] = result.mixed
            self.count.inc(result.language)
            if result.mixed:
                self.count.inc("mixed")
        except Exception:  # a bug here must not lose the article
            logger.exception("language identification failed for %s", adapter.get("url"))
            adapter["language"] = UNDETERMINED
            adapter["language_prob"] = 0.0
            note(item, "language:error")
            self.count.inc("errors")
        return item
