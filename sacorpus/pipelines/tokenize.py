"""Stage 500: sentences, tokens with offsets, counts, title tokens, links and quotes.

Why here, once: word lists, collocations and KWIC read stored tokens instead of re-tokenizing.
The item gets ``sentences``, ``tokens``, ``token_offsets``, ``token_count``, ``word_count``,
``title_tokens`` (F, from ``title_clean`` or ``title``), ``quotes`` (Q) and ``links`` (L). Links come
from ``item.fallback["anchors"]`` ([anchor text, href] pairs) when the extract stage gives them, else
from the ``<a>`` elements inside the page's ``<article>`` (or ``<main>``), plus URLs in the text.
CPU only; stats ``sacorpus/tokenize/items``, ``.../tokens``, ``.../words``, ``.../errors``.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin

from itemadapter import ItemAdapter

from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.pipelines.language import note
from sacorpus.text.annotate import find_links, find_quotes
from sacorpus.text.tokenize import tokenize, tokenize_title

logger = logging.getLogger(__name__)

#: HTML larger than this is not parsed again for anchors (the text URLs are still found).
MAX_ANCHOR_HTML = 5_000_000
#: Text longer than this is tokenized only up to here (bounded time; counted as a problem).
MAX_TEXT_CHARS = 2_000_000


def anchors_from_html(html: str, base_url: str | None = None) -> list[tuple[str, str]]:
    """(anchor text, absolute href) of the links inside ``<article>`` or ``<main>``, in order.

    Restricted to the main content so that navigation links are never placed in the article text.
    """
    if not html or len(html) > MAX_ANCHOR_HTML:
        return []
    import lxml.html

    try:
        root = lxml.html.fromstring(html)
    except (ValueError, TypeError, lxml.etree.ParserError):
        return []
    containers = root.xpath("//article") or root.xpath("//main")
    if not containers:
        return []
    anchors: list[tuple[str, str]] = []
    for element in containers[0].iter("a"):
        href = (element.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:")):
            continue
        text = " ".join(element.text_content().split())
        anchors.append((text, urljoin(base_url, href) if base_url else href))
    return anchors


def _tokenizer_language(language: str | None) -> str:
    if not language or language == "und":
        return "en"
    return language


class TokenizePipeline:
    def __init__(self, stats: Any = None) -> None:
        self.count = Counter(stats, "sacorpus/tokenize")

    @classmethod
    def from_crawler(cls, crawler: Any) -> TokenizePipeline:
        require_enabled(crawler, "tokenize")
        return cls(stats=crawler.stats)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        lang = _tokenizer_language(adapter.get("language"))
        text = adapter.get("text") or ""
        try:
            if len(text) > MAX_TEXT_CHARS:
                note(item, "tokenize:text-truncated")
                text = text[:MAX_TEXT_CHARS]
            result = tokenize(text, lang)
            adapter["sentences"] = [list(span) for span in result.sentences]
            adapter["tokens"] = result.tokens
            adapter["token_offsets"] = [list(span) for span in result.offsets]
            adapter["token_count"] = result.token_count
            adapter["word_count"] = result.word_count
            title = adapter.get("title_clean") or adapter.get("title") or ""
            adapter["title_tokens"] = tokenize_title(title, lang)
            adapter["quotes"] = find_quotes(text)
            fallback = adapter.get("fallback") or {}
            anchors = fallback.get("anchors") if isinstance(fallback, dict) else None
            if anchors is None:
                base = adapter.get("final_url") or adapter.get("url")
                anchors = anchors_from_html(adapter.get("html") or "", base)
            pairs = [(str(a[0] or ""), str(a[1] or "")) for a in anchors if len(a) >= 2]
            adapter["links"] = find_links(text, pairs)
            self.count.inc("items")
            self.count.inc("tokens", result.token_count)
            self.count.inc("words", result.word_count)
        except Exception:  # a bug here must not lose the article
            logger.exception("tokenization failed for %s", adapter.get("url"))
            note(item, "tokenize:error")
            self.count.inc("errors")
        return item
