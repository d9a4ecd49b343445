"""Run the dedup (600) and store (900) pipelines in a real Scrapy crawl, offline.

Usage: python pipeline_crawl.py ARTICLES.json STATS.json [-s NAME=VALUE ...]
The spider yields Article items straight from ``start()`` (no network); the script writes the
crawl's stats as JSON. Run as a subprocess: a Twisted reactor cannot be restarted in one process.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from typing import Any

from scrapy import Spider
from scrapy.crawler import CrawlerProcess

from sacorpus.items import Article, Comment


class FixtureSpider(Spider):
    """Yields the articles; with ``lock_after=N`` and ``lock_db=PATH`` it causes a storage outage.

    After N articles are stored it takes an exclusive lock on the SQLite file (as another writer would)
    and holds it until the spider closes, after the stages' last writes: every later write fails with
    "database is locked", a real fault of a real store.
    """

    name = "fixture"
    articles_path = ""
    lock_after = ""
    lock_db = ""
    _lock: sqlite3.Connection | None = None

    async def start(self) -> Any:
        with open(self.articles_path, encoding="utf-8") as fh:
            records = json.load(fh)
        for n, record in enumerate(records):
            if self.lock_after and n == int(self.lock_after):
                await self._take_lock(n)
            if "article_url" in record:  # a reader comment
                yield Comment(**record)
                continue
            body = record.pop("body", None)
            yield Article(**record, body=body.encode("utf-8") if body is not None else None)

    async def _take_lock(self, stored: int) -> None:
        for _ in range(400):  # the store stage writes in the background: wait until it has
            stats = self.crawler.stats
            done = (stats.get_value("sacorpus/store/stored") or 0) + (
                stats.get_value("sacorpus/comments/store/stored") or 0
            )
            if done >= stored:
                break
            await asyncio.sleep(0.025)
        self._lock = sqlite3.connect(self.lock_db, isolation_level=None)
        self._lock.execute("BEGIN EXCLUSIVE")

    def closed(self, reason: str) -> None:
        if self._lock is not None:
            self._lock.execute("ROLLBACK")
            self._lock.close()


def main(argv: list[str]) -> int:
    articles, stats_out, *rest = argv
    settings: dict[str, Any] = {
        "ITEM_PIPELINES": {
            "sacorpus.pipelines.dedup.DedupPipeline": 600,
            "sacorpus.pipelines.store.StorePipeline": 900,
            "sacorpus.pipelines.comments.CommentStorePipeline": 890,
        },
        "EXTENSIONS": {"sacorpus.storage.shared.SharedStore": 100},
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }
    spider_args: dict[str, str] = {}
    for i, arg in enumerate(rest):
        if arg in ("-s", "-a"):
            name, _, value = rest[i + 1].partition("=")
            (settings if arg == "-s" else spider_args)[name] = value
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(FixtureSpider)
    process.crawl(crawler, articles_path=articles, **spider_args)
    process.start()
    with open(stats_out, "w", encoding="utf-8") as fh:
        json.dump(crawler.stats.get_stats(), fh, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
