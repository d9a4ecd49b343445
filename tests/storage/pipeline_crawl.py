"""Run the dedup (600) and store (900) pipelines in a real Scrapy crawl, offline.

Usage: python pipeline_crawl.py ARTICLES.json STATS.json [-s NAME=VALUE ...]
The spider yields Article items straight from ``start()`` (no network); the script writes the
crawl's stats as JSON. Run as a subprocess: a Twisted reactor cannot be restarted in one process.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from scrapy import Spider
from scrapy.crawler import CrawlerProcess

from sacorpus.items import Article


class FixtureSpider(Spider):
    name = "fixture"
    articles_path = ""

    async def start(self) -> Any:
        with open(self.articles_path, encoding="utf-8") as fh:
            records = json.load(fh)
        for record in records:
            body = record.pop("body", None)
            yield Article(**record, body=body.encode("utf-8") if body is not None else None)


def main(argv: list[str]) -> int:
    articles, stats_out, *rest = argv
    settings: dict[str, Any] = {
        "ITEM_PIPELINES": {
            "sacorpus.pipelines.dedup.DedupPipeline": 600,
            "sacorpus.pipelines.store.StorePipeline": 900,
        },
        "EXTENSIONS": {"sacorpus.storage.shared.SharedStore": 100},
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }
    for i, arg in enumerate(rest):
        if arg == "-s":
            name, _, value = rest[i + 1].partition("=")
            settings[name] = value
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(FixtureSpider)
    process.crawl(crawler, articles_path=articles)
    process.start()
    with open(stats_out, "w", encoding="utf-8") as fh:
        json.dump(crawler.stats.get_stats(), fh, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
