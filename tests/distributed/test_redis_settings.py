"""The one switch: SACORPUS_REDIS_URL (or env REDIS_URL) turns a crawl into a worker on a Redis frontier."""

from __future__ import annotations

import pytest
from scrapy.http import Request
from scrapy.settings import Settings
from scrapy.utils.project import get_project_settings

from sacorpus.distributed import (
    RedisDupeFilter,
    RedisFrontierAddon,
    redis_settings,
    redis_url,
    seen_fingerprint,
)
from sacorpus.spiders.demo import DemoSpider

ADDON = "sacorpus.distributed.RedisFrontierAddon"
URL = "redis://10.0.0.5:6379/2"


@pytest.fixture(autouse=True)
def _no_redis_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SACORPUS_REDIS_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)


def spider_settings(**cmdline: object) -> Settings:
    """Project settings as a crawl of the demo spider sees them before add-ons run."""
    settings = get_project_settings().copy()
    settings.setdict(cmdline, priority="cmdline")
    DemoSpider.update_settings(settings)
    return settings


def test_redis_settings_use_a_persistent_shared_frontier_keyed_per_spider():
    s = redis_settings(URL, prefix="corp")
    assert s["REDIS_URL"] == URL
    assert s["SCHEDULER"] == "sacorpus.distributed.RedisScheduler"
    assert s["DUPEFILTER_CLASS"] == "sacorpus.distributed.RedisDupeFilter"
    assert s["SCHEDULER_PERSIST"] is True and s["SCHEDULER_FLUSH_ON_START"] is False
    assert s["SCHEDULER_QUEUE_KEY"] % {"spider": "iol"} == "corp:iol:requests"
    assert s["SCHEDULER_DUPEFILTER_KEY"] % {"spider": "iol"} == "corp:iol:seen"
    assert s["JOBDIR"] is None


def test_project_settings_enable_the_addon():
    assert ADDON in get_project_settings().getdict("ADDONS"), "settings.py must list the add-on in ADDONS"


def test_addon_switches_scheduler_and_drops_the_spider_jobdir(redis_server):
    settings = spider_settings(SACORPUS_REDIS_URL=redis_server.url)
    assert settings["JOBDIR"], "PublicationSpider gives every spider a JOBDIR"
    RedisFrontierAddon().update_settings(settings)
    assert settings["SCHEDULER"] == "sacorpus.distributed.RedisScheduler"
    assert settings["DUPEFILTER_CLASS"] == "sacorpus.distributed.RedisDupeFilter"
    assert settings["REDIS_URL"] == redis_server.url
    assert settings["JOBDIR"] is None


def test_addon_does_nothing_without_a_redis_url():
    settings = spider_settings()
    before = (settings["SCHEDULER"], settings["DUPEFILTER_CLASS"], settings["JOBDIR"])
    RedisFrontierAddon().update_settings(settings)
    assert (settings["SCHEDULER"], settings["DUPEFILTER_CLASS"], settings["JOBDIR"]) == before
    assert "RedisScheduler" not in str(settings["SCHEDULER"])


def test_env_redis_url_is_the_fallback(monkeypatch: pytest.MonkeyPatch, redis_server):
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    assert redis_url(Settings()) == redis_server.url
    assert redis_url({"SACORPUS_REDIS_URL": "redis://other:1/0"}) == "redis://other:1/0"
    settings = spider_settings()
    RedisFrontierAddon().update_settings(settings)
    assert settings["REDIS_URL"] == redis_server.url and settings["JOBDIR"] is None


def test_command_line_values_win_over_the_addon(redis_server):
    settings = spider_settings(SACORPUS_REDIS_URL=redis_server.url, SCHEDULER_PERSIST=False)
    RedisFrontierAddon().update_settings(settings)
    assert settings.getbool("SCHEDULER_PERSIST") is False
    assert settings["SCHEDULER"] == "sacorpus.distributed.RedisScheduler"


def test_seen_key_names_the_article_not_the_fetched_url():
    a = Request("http://127.0.0.1:1/news/a-1", meta={"sacorpus_seen_key": "http://x.invalid/news/a-1"})
    b = Request(
        "http://web.archive.org/web/2014id_/x", meta={"sacorpus_seen_key": "http://x.invalid/news/a-1"}
    )
    c = Request("http://127.0.0.1:1/news/a-1")
    assert seen_fingerprint(a) == seen_fingerprint(b) != seen_fingerprint(c)
    redirected = a.replace(url="http://127.0.0.1:1/news/a-1-new", meta={**a.meta, "redirect_urls": [a.url]})
    assert seen_fingerprint(redirected) != seen_fingerprint(a)


def test_seen_set_is_shared_between_workers_and_survives_close(redis_db):
    key = "sacorpus:demo:seen"
    one = RedisDupeFilter(redis_db.client(), key)
    two = RedisDupeFilter(redis_db.client(), key)
    first = Request("http://127.0.0.1:1/a", meta={"sacorpus_seen_key": "http://x.invalid/a"})
    again = Request("http://127.0.0.1:2/a", meta={"sacorpus_seen_key": "http://x.invalid/a"})
    assert one.request_seen(first) is False
    assert two.request_seen(again) is True, "the second worker must see the first worker's request"
    assert two.request_seen(Request("http://127.0.0.1:1/b")) is False
    one.close("finished")
    assert redis_db.client().scard(key) == 2, "one worker closing must not delete the shared seen-set"


def test_unreachable_redis_is_a_clear_error_before_the_crawl(monkeypatch: pytest.MonkeyPatch):
    from crawlkit import free_port

    from sacorpus.distributed import DistributedCrawlError

    dead = f"redis://127.0.0.1:{free_port()}/0"
    settings = spider_settings(SACORPUS_REDIS_URL=dead)
    with pytest.raises(DistributedCrawlError, match=r"not reachable.*SACORPUS_REDIS_URL"):
        RedisFrontierAddon().update_settings(settings)
