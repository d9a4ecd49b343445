"""The shared frontier of a distributed crawl: the Redis scheduler and seen-set (see :mod:`sacorpus.distributed`).

Why subclasses rather than scrapy-redis as is (0.9.1 against Scrapy 2.19):

* its scheduler passes ``spider=`` to the stats collector (deprecated in Scrapy 2.19, a warning per
  request) and builds its dupefilter without the crawler;
* its dupefilter fingerprints (method, canonical URL, body) itself, ignoring Scrapy's request
  fingerprinter and the spider's ``meta["sacorpus_seen_key"]`` (one article reached through a feed,
  a sitemap and a Wayback capture must be fetched once, as with :mod:`sacorpus.frontier`);
* its dupefilter's ``close()`` deletes the shared seen-set (one process ending would let the others
  fetch everything again);
* a queued request that cannot be decoded (code changed between runs) raises inside the engine loop.

The queue classes and the Redis connection code of scrapy-redis are used unchanged.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import uuid
from typing import Any

from redis.exceptions import RedisError
from scrapy.http import Request
from scrapy.utils.misc import load_object
from scrapy_redis.connection import get_redis_from_settings
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.scheduler import Scheduler as _ScrapyRedisScheduler

from sacorpus.distributed import (
    DEFAULT_HEARTBEAT,
    DEFAULT_PREFIX,
    URL_SETTING,
    DistributedCrawlError,
    workers_key,
)
from sacorpus.queue_codec import QueueEntryRejected, RequestCodec, keyed_fingerprint
from sacorpus.redact import redact

logger = logging.getLogger(__name__)


def seen_fingerprint(request: Request, fingerprinter: Any = None) -> str:
    """The request's identity in the seen-set: ``meta["sacorpus_seen_key"]`` when the spider names one
    (not after a redirect: the target is a request of its own), else Scrapy's request fingerprint.
    Same rule as :class:`sacorpus.frontier.dupefilter.DiskDupeFilter`, so both modes schedule alike."""
    key = request.meta.get("sacorpus_seen_key")
    if key and not request.meta.get("redirect_urls"):
        return hashlib.sha1(f"key:{key}".encode()).hexdigest()
    if fingerprinter is None:
        from scrapy.utils.request import fingerprint

        return fingerprint(request).hex()
    return fingerprinter.fingerprint(request).hex()


class RedisDupeFilter(RFPDupeFilter):
    """The shared seen-set: a Redis set of fingerprints (SADD says atomically who saw a URL first)."""

    def __init__(
        self,
        server: Any,
        key: str,
        debug: bool = False,
        *,
        fingerprinter: Any = None,
        stats: Any = None,
        signing_key: str | None = None,
    ) -> None:
        super().__init__(server, key, debug)
        self.fingerprinter = fingerprinter
        self.stats = stats
        self.logdupes: bool = True
        self.signing_key = signing_key

    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisDupeFilter:
        s = crawler.settings
        name = crawler.spider.name if crawler.spider is not None else crawler.spidercls.name
        key = s.get("SCHEDULER_DUPEFILTER_KEY", f"{DEFAULT_PREFIX}:%(spider)s:seen") % {"spider": name}
        return cls(
            get_redis_from_settings(s),
            key,
            s.getbool("DUPEFILTER_DEBUG"),
            fingerprinter=crawler.request_fingerprinter,
            stats=crawler.stats,
            signing_key=s.get("SACORPUS_REDIS_SIGNING_KEY") or None,
        )

    @classmethod
    def from_spider(cls, spider: Any) -> RedisDupeFilter:
        return cls.from_crawler(spider.crawler)

    def request_fingerprint(self, request: Request) -> str:
        return keyed_fingerprint(seen_fingerprint(request, self.fingerprinter), self.signing_key)

    def open(self) -> None:
        return None

    def close(self, reason: str = "") -> None:
        """Keep the shared seen-set: other workers use it (the scheduler ends a finished generation)."""
        return None

    def log(self, request: Request, spider: Any) -> None:
        if self.stats is not None:
            self.stats.inc_value("dupefilter/filtered")
        if self.debug:
            logger.debug("Filtered duplicate request: %s", request)
        elif self.logdupes:
            logger.debug("Filtered duplicate request %s - no more duplicates will be shown", request)
            self.logdupes = False


class RedisScheduler(_ScrapyRedisScheduler):
    """scrapy-redis's scheduler made fit for Scrapy 2.19 and for several workers on one frontier.

    Adds: worker registration with heartbeats, the end of a crawl generation (see :mod:`sacorpus.distributed`),
    undecodable queued requests skipped and counted, and no ``spider=`` in stats calls."""

    def __init__(
        self,
        server: Any,
        *,
        crawler: Any = None,
        key_prefix: str = DEFAULT_PREFIX,
        heartbeat: float = DEFAULT_HEARTBEAT,
        **kwargs: Any,
    ) -> None:
        super().__init__(server, **kwargs)
        self.crawler = crawler
        self.key_prefix = key_prefix
        self.heartbeat = heartbeat
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.workers_key = ""
        self._beat: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> RedisScheduler:
        s = crawler.settings
        url = s.get("REDIS_URL")
        server = get_redis_from_settings(s)
        try:
            server.ping()
        except RedisError as exc:
            raise DistributedCrawlError(
                redact(
                    f"Redis at {url or 'REDIS_HOST/REDIS_PORT'} is not reachable ({exc}); start it or "
                    f"unset {URL_SETTING}/REDIS_URL to crawl on this machine alone"
                )
            ) from None
        kwargs: dict[str, Any] = {
            "persist": s.getbool("SCHEDULER_PERSIST", True),
            "flush_on_start": s.getbool("SCHEDULER_FLUSH_ON_START"),
            "idle_before_close": s.getint("SCHEDULER_IDLE_BEFORE_CLOSE"),
            "queue_key": s.get("SCHEDULER_QUEUE_KEY") or f"{DEFAULT_PREFIX}:%(spider)s:requests",
            "queue_cls": s.get("SCHEDULER_QUEUE_CLASS") or "scrapy_redis.queue.PriorityQueue",
            "dupefilter_key": s.get("SCHEDULER_DUPEFILTER_KEY") or f"{DEFAULT_PREFIX}:%(spider)s:seen",
            "dupefilter_cls": s.get("DUPEFILTER_CLASS") or "sacorpus.distributed.RedisDupeFilter",
        }
        # plain checked JSON, never scrapy-redis's default pickle (see sacorpus.queue_codec)
        kwargs["serializer"] = RequestCodec(s.get("SACORPUS_REDIS_SIGNING_KEY") or None)
        df_cls = load_object(kwargs["dupefilter_cls"])
        kwargs["dupefilter"] = df_cls.from_crawler(crawler)
        instance = cls(
            server,
            crawler=crawler,
            key_prefix=s.get("SACORPUS_REDIS_KEY_PREFIX") or DEFAULT_PREFIX,
            heartbeat=s.getfloat("SACORPUS_REDIS_HEARTBEAT", DEFAULT_HEARTBEAT),
            **kwargs,
        )
        instance.stats = crawler.stats
        return instance

    # --- workers ----------------------------------------------------------------------------------------

    def _redis_now(self) -> float:
        """The Redis server's clock: workers on several machines compare heartbeats on one clock."""
        seconds, micros = self.server.time()
        return float(seconds) + micros / 1e6

    def _beat_once(self) -> None:
        try:
            self.server.zadd(self.workers_key, {self.worker_id: self._redis_now()})
        except RedisError as exc:
            logger.warning("distributed crawl: heartbeat to Redis failed: %s", exc)

    def live_workers(self) -> list[str]:
        """Workers (other than this one) whose last heartbeat is recent (three periods)."""
        since = self._redis_now() - 3 * self.heartbeat
        members = self.server.zrangebyscore(self.workers_key, since, "+inf")
        mine = self.worker_id.encode()
        return [m.decode() if isinstance(m, bytes) else m for m in members if m not in (mine, self.worker_id)]

    # --- the Scrapy scheduler interface -----------------------------------------------------------------

    def open(self, spider: Any) -> None:
        spider.sacorpus_job = None  # no JOBDIR run: never "recovering" (sources use conditional GET)
        self.serializer.bind(spider)  # queued callbacks are checked against this spider's
        self.workers_key = workers_key(self.key_prefix, spider.name)
        super().open(spider)
        self._beat_once()
        from twisted.internet import task

        self._beat = task.LoopingCall(self._beat_once)
        self._beat.start(self.heartbeat, now=False)
        waiting = len(self.queue)
        if self.stats is not None:
            self.stats.set_value("sacorpus/redis/queue_at_start", waiting)
            self.stats.set_value("sacorpus/redis/other_workers_at_start", len(self.live_workers()))
        logger.info(
            "distributed crawl: worker %s on %s (%d requests queued)", self.worker_id, self.queue.key, waiting
        )

    def close(self, reason: str) -> None:
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        try:
            self.server.zrem(self.workers_key, self.worker_id)
            others = self.live_workers()
            queued = len(self.queue)
            if reason == "finished" and not others and not queued:
                self.df.clear()
                logger.info(
                    "distributed crawl: last worker finished with an empty queue; seen-set %s "
                    "cleared (the next crawl starts a new generation)",
                    self.df.key,
                )
                if self.stats is not None:
                    self.stats.set_value("sacorpus/redis/generation_finished", 1)
            else:
                logger.info(
                    "distributed crawl: stopping (%s) with %d requests queued and %d other "
                    "worker(s) live; the frontier stays in Redis",
                    reason,
                    queued,
                    len(others),
                )
        except RedisError as exc:
            logger.warning("distributed crawl: could not update Redis on close: %s", exc)
        if not self.persist:
            self.flush()

    def enqueue_request(self, request: Request) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        self.queue.push(request)
        if self.stats is not None:
            self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        try:
            request = self.queue.pop(self.idle_before_close)
        except RedisError:
            raise
        except QueueEntryRejected as exc:  # tampered, foreign or unsigned: never run, counted
            if self.stats is not None:
                self.stats.inc_value("sacorpus/redis/rejected_entries")
            logger.warning("distributed crawl: refused a queued entry: %s", exc)
            return None
        except Exception as exc:  # a queued request this code cannot rebuild (changed callbacks, pickle)
            if self.stats is not None:
                self.stats.inc_value("sacorpus/redis/undecodable_requests")
            logger.warning("distributed crawl: dropped a queued request that cannot be decoded: %s", exc)
            return None
        if request is not None and self.stats is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
