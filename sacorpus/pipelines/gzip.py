"""Stage 100: undo content codings the download layer left (mislabelled, double, truncated gzip, bombs)."""

from __future__ import annotations

from typing import Any

from sacorpus.items import Article
from sacorpus.pipelines._common import Counter, require_enabled
from sacorpus.text.compression import decompress


class GzipPipeline:
    """Replaces ``item.body`` with the decompressed bytes; sets ``item.content_encoding``.

    Problems (``truncated``, ``bomb``, ``corrupt``, ``too-many-layers``) are noted on the item as
    ``gzip:<problem>`` and counted as ``sacorpus/gzip/<problem>``; the item always goes on.
    """

    def __init__(self, max_bytes: int = 50_000_000, stats: Any = None) -> None:
        self.max_bytes = max_bytes
        self.count = Counter(stats, "sacorpus/gzip")

    @classmethod
    def from_crawler(cls, crawler: Any) -> GzipPipeline:
        require_enabled(crawler, "gzip")
        return cls(crawler.settings.getint("SACORPUS_GZIP_MAX_BYTES", 50_000_000), crawler.stats)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article) or not item.body:
            return item
        label = next((v for k, v in (item.headers or {}).items() if str(k).lower() == "content-encoding"), None)
        result = decompress(item.body, label, max_bytes=self.max_bytes)
        item.body = result.data
        if result.applied:
            item.content_encoding = result.content_encoding
            for kind in result.applied:
                self.count.inc(f"applied/{kind}")
        if result.problem:
            item.note(f"gzip:{result.problem}")
            self.count.inc(result.problem)
        return item
