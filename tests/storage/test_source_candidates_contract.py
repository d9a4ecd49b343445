"""The source-candidate contract both backends pass: sightings merge (counts add, first/last seen widen,
publications collect), two handles merging at once lose nothing, and the listing sorts as asked."""

from __future__ import annotations

import threading

import pytest
from test_run_records_contract import other_handle

from sacorpus.storage.base import ArticleStore


def sighting(url: str, day: int, count: int = 1, publication: str = "citizen") -> dict:
    host = url.split("/")[2].removeprefix("www.")
    when = f"2026-11-{day:02d}T10:00:00Z"
    return {
        "url": url,
        "kind": "sitemap" if "sitemap" in url else "feed",
        "host": host,
        "count": count,
        "first_seen": when,
        "last_seen": when,
        "seen_on": f"https://www.citizen.co.za/news/story-{day}/",
        "publication": publication,
    }


FEED = "https://www.otherpaper.co.za/feed/"
MAP = "https://zulupaper.co.za/sitemap.xml"


def test_sightings_merge_into_counts_and_seen_dates(store: ArticleStore) -> None:
    store.add_source_candidates([sighting(FEED, 5, 2), sighting(MAP, 3)])
    store.add_source_candidates([sighting(FEED, 2, 1, "mg"), sighting(FEED, 9, 1)])
    store.add_source_candidates([])
    got = {c["url"]: c for c in store.source_candidates()}
    feed = got[FEED]
    assert feed["count"] == 4 and feed["kind"] == "feed" and feed["host"] == "otherpaper.co.za"
    assert feed["first_seen"] == "2026-11-02T10:00:00Z" and feed["last_seen"] == "2026-11-09T10:00:00Z"
    assert feed["publications"] == ["citizen", "mg"]
    assert feed["seen_on"] == "https://www.citizen.co.za/news/story-5/"  # the first page that linked it
    assert got[MAP]["count"] == 1 and got[MAP]["kind"] == "sitemap"


def test_candidates_sort_by_count_recency_or_host(store: ArticleStore) -> None:
    store.add_source_candidates(
        [sighting(FEED, 1, 1), sighting(MAP, 4, 7), sighting("https://a-news.co.za/rss", 2, 3)]
    )
    assert [c["url"] for c in store.source_candidates()] == [MAP, "https://a-news.co.za/rss", FEED]
    assert [c["url"] for c in store.source_candidates("last_seen", limit=2)] == [
        MAP,
        "https://a-news.co.za/rss",
    ]
    assert [c["host"] for c in store.source_candidates("host")] == [
        "a-news.co.za",
        "otherpaper.co.za",
        "zulupaper.co.za",
    ]
    with pytest.raises(KeyError):
        store.source_candidates("nonsense")


def test_two_handles_merging_at_once_lose_no_count(store: ArticleStore) -> None:
    other = other_handle(store)
    with other:
        handles = [store, other]

        def add(handle: ArticleStore) -> None:
            for day in range(1, 11):
                handle.add_source_candidates([sighting(FEED, day)])

        threads = [threading.Thread(target=add, args=(h,)) for h in handles]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    (feed,) = store.source_candidates()
    assert feed["count"] == 20
    assert (feed["first_seen"], feed["last_seen"]) == ("2026-11-01T10:00:00Z", "2026-11-10T10:00:00Z")
