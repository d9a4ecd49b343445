"""Stage 150: bytes to text (encoding evidence, mojibake repair); binary bodies are labelled."""

from __future__ import annotations

from typing import Any

from sacorpus.items import Article
from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.text.decode import decode_html


class DecodePipeline:
    """Fills ``item.html`` and ``item.encoding``. Binary bodies get page_type ``binary`` and html None;
    empty bodies page_type ``empty``. Problems are noted as ``decode:<problem>`` and counted as
    ``sacorpus/decode/<problem>``."""

    def __init__(self, stats: Any = None) -> None:
        self.count = Counter(stats, "sacorpus/decode")

    @classmethod
    def from_crawler(cls, crawler: Any) -> DecodePipeline:
        require_enabled(crawler, "decode")
        return cls(crawler.stats)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article) or item.html is not None:
            return item
        decoded = decode_html(item.body or b"", item.headers)
        for problem in decoded.problems:
            item.note(f"decode:{problem}")
            self.count.inc(problem)
        if decoded.is_binary:
            item.page_type = "binary"
            item.html = None
            item.encoding = None
            self.count.inc(f"binary/{decoded.binary_kind}")
            return item
        if "empty" in decoded.problems:
            item.page_type = "empty"
        item.html = decoded.text or None
        item.encoding = decoded.encoding
        self.count.inc(f"encoding/{decoded.encoding}")
        return item
