"""Stage 200: choose the dated rule set for the item; the pre-cleaning itself runs inside extraction.

Why not rewrite ``item.html`` here: H must stay the page as published. Why not pass a cleaned HTML
string to stage 300: serialising and re-parsing costs about a fifth of the whole extraction budget.
So this stage decides *which rules* clean the page (a Wayback capture from 2014 gets the 2014
rules, recorded in ``item.rule_version``) and the extract stage applies them to the tree it parses
once, when ``SACORPUS_PRECLEAN_ENABLED`` is true. Switching this stage off switches pre-cleaning off.
"""

from __future__ import annotations

from typing import Any

from sacorpus.items import Article
from sacorpus.pipelines._common import Counter, publication_of, require_enabled, rules_for_item


class PrecleanPipeline:
    def __init__(self, crawler: Any = None) -> None:
        self.crawler = crawler
        self.count = Counter(getattr(crawler, "stats", None), "sacorpus/preclean")

    @classmethod
    def from_crawler(cls, crawler: Any) -> PrecleanPipeline:
        require_enabled(crawler, "preclean")
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article) or item.html is None:
            return item
        rules = rules_for_item(publication_of(self.crawler), item)
        item.rule_version = rules.version
        self.count.inc(f"rules/{rules.version}")
        return item
