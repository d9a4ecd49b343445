"""RedisScheduler against a real redis-server: when a crawl generation ends, and bad queue entries."""

from __future__ import annotations

from scrapy import Spider
from scrapy.http import Request
from scrapy_redis.queue import PriorityQueue

from sacorpus.distributed import RedisDupeFilter, RedisScheduler, workers_key

QUEUE = "sacorpus:demo:requests"
SEEN = "sacorpus:demo:seen"
WORKERS = workers_key("sacorpus", "demo")


def scheduler(redis_db) -> RedisScheduler:
    """A worker's scheduler with its queue and seen-set bound, as ``open()`` leaves them."""
    client = redis_db.client()
    sched = RedisScheduler(client, dupefilter=RedisDupeFilter(client, SEEN), persist=True)
    sched.spider = Spider(name="demo")
    sched.queue = PriorityQueue(client, sched.spider, QUEUE)
    sched.workers_key = WORKERS
    sched._beat_once()
    return sched


def redis_now(client) -> float:
    seconds, micros = client.time()
    return seconds + micros / 1e6


def test_last_worker_finishing_with_an_empty_queue_ends_the_generation(redis_db):
    sched = scheduler(redis_db)
    assert sched.enqueue_request(Request("http://127.0.0.1:1/a"))
    assert sched.next_request().url == "http://127.0.0.1:1/a"
    client = redis_db.client()
    client.zadd(WORKERS, {"ghost:1": redis_now(client) - 10 * sched.heartbeat})  # died long ago
    sched.close("finished")
    assert not client.exists(SEEN)
    assert client.zrange(WORKERS, 0, -1) == [b"ghost:1"]


def test_generation_stays_open_while_another_worker_lives(redis_db):
    sched = scheduler(redis_db)
    sched.enqueue_request(Request("http://127.0.0.1:1/a"))
    sched.next_request()
    client = redis_db.client()
    client.zadd(WORKERS, {"other:2": redis_now(client)})
    assert sched.live_workers() == ["other:2"]
    sched.close("finished")
    assert client.sismember(SEEN, sched.df.request_fingerprint(Request("http://127.0.0.1:1/a")))


def test_a_stopped_worker_keeps_queue_and_seen_set(redis_db):
    sched = scheduler(redis_db)
    sched.enqueue_request(Request("http://127.0.0.1:1/a"))
    sched.close("shutdown")
    client = redis_db.client()
    assert client.zcard(QUEUE) == 1 and client.scard(SEEN) == 1
    assert not client.zscore(WORKERS, sched.worker_id)
    again = scheduler(redis_db)
    assert not again.enqueue_request(Request("http://127.0.0.1:1/a")), "seen in the earlier run"
    assert again.has_pending_requests() and again.next_request().url == "http://127.0.0.1:1/a"
    again.close("finished")
    assert not client.exists(SEEN)


def test_an_undecodable_queue_entry_is_skipped_not_fatal(redis_db):
    sched = scheduler(redis_db)
    client = redis_db.client()
    client.zadd(QUEUE, {b"not a pickled request": -100})
    sched.enqueue_request(Request("http://127.0.0.1:1/b"))
    assert sched.next_request() is None
    assert sched.next_request().url == "http://127.0.0.1:1/b"
    assert client.zcard(QUEUE) == 0
