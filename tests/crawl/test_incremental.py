"""Incremental runs (issue 3, item 4) against the demo site served by a SiteServer the test watches.

Across runs the store decides what is fetched again (not Scrapy's seen file); feeds and sitemaps
are fetched with conditional GET from per-source poll state in the store, and a 304 reaches the
spider as "nothing new"; ``refetch=1`` fetches every article again, once per run, although the
RSS feed, the Atom feed, the sitemaps and the news sitemap all list it.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from sacorpus.demo.server import SiteServer
from sacorpus.demo.site import build_site
from sacorpus.publications import load_publication
from sacorpus.sources.pollstate import MAX_INTERVAL, MIN_INTERVAL
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow
ARTICLE = re.compile(load_publication("demo").urls.article[0])


def article_gets(server: SiteServer, start: int) -> Counter:
    return Counter(p for m, p in server.requests[start:] if m == "GET" and ARTICLE.search(p.split("?")[0]))


def stat(log: str, name: str) -> int:
    m = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(m.group(1)) if m else 0


def test_incremental_runs_conditional_get_and_refetch(crawl, tmp_path):
    pub = load_publication("demo")
    with SiteServer(build_site()) as server:
        base = ["-a", f"base_url={server.base_url}", "-s", "ROBOTSTXT_OBEY=False"]
        first = crawl("demo", *base)
        assert first.returncode == 0, first.log[-3000:]
        n_articles = len(first.items)
        assert n_articles >= 25
        fetched_first = article_gets(server, 0)
        assert max(fetched_first.values()) == 1, "one fetch per article although several sources list it"

        with SQLiteStore(str(tmp_path / "corpus.sqlite")) as store:
            feed_state = store.get_state(f"poll:{pub.sources.feeds[0]}")
            sitemap_state = store.get_state(f"poll:{pub.sources.sitemaps[0]}")
        assert feed_state and feed_state["etag"] and len(feed_state["seen"]) >= 5 and feed_state["history"]
        assert sitemap_state and sitemap_state["etag"]

        mark = len(server.requests)
        second = crawl("demo", *base)
        assert second.returncode == 0, second.log[-3000:]
        assert second.items == [] and not article_gets(server, mark), "nothing stored is fetched again"
        # every feed and sitemap answered 304 to the validators of the first run
        assert stat(second.log, "sacorpus/source/feed/not_modified") == len(pub.sources.feeds)
        assert stat(second.log, "sacorpus/source/sitemap/not_modified") >= 1
        assert stat(second.log, "sacorpus/source/news_sitemap/not_modified") == len(pub.sources.news_sitemaps)
        proposed = [int(s) for s in re.findall(r"next poll proposed in (\d+) s", second.log)]
        assert proposed and all(MIN_INTERVAL <= s <= MAX_INTERVAL for s in proposed)
        with SQLiteStore(str(tmp_path / "corpus.sqlite")) as store:
            again = store.get_state(f"poll:{pub.sources.feeds[0]}")
        assert (
            again["empty_polls"] == feed_state["empty_polls"] + 1
            and again["last_poll"] > feed_state["last_poll"]
        )

        mark = len(server.requests)
        third = crawl("demo", *base, "-a", "refetch=1")
        assert third.returncode == 0, third.log[-3000:]
        refetched = article_gets(server, mark)
        assert set(refetched) == set(fetched_first) and max(refetched.values()) == 1
        assert len(third.items) == n_articles

    with SQLiteStore(str(tmp_path / "corpus.sqlite")) as store:
        assert store.count() == n_articles
