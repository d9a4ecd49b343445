"""Distributed crawls: several crawler processes, on any machines, sharing one frontier in Redis.

Why: one machine (and one IP) crawls a big publication slowly; with ``SACORPUS_REDIS_URL`` set, N
``scrapy crawl <slug>`` processes share one request queue and one seen-set in Redis (scrapy-redis),
and one store (MongoDB via ``MONGO_URI``, or one SQLite file on a shared disk), so each article is
fetched by exactly one of them. Only the one setting is needed: :class:`RedisFrontierAddon` (in
``ADDONS``) applies :func:`redis_settings` when it is set and does nothing otherwise.

Redis keys, per spider (``<prefix>`` is ``SACORPUS_REDIS_KEY_PREFIX``, default ``sacorpus``):

* ``<prefix>:<spider>:requests``  the shared queue (a sorted set by priority: feeds and sitemaps first)
* ``<prefix>:<spider>:seen``      fingerprints of every request scheduled in this crawl generation
* ``<prefix>:<spider>:workers``   live processes (heartbeat times from the Redis clock)

Lifetime: the queue and seen-set persist when a process stops (Ctrl-C, ``CLOSESPIDER_*``, a crash),
so a restarted process resumes from the queue. When the *last* live worker finishes normally with
an empty queue, the seen-set is deleted: the crawl generation is complete, and the next crawl lists
its sources again with the store's already-stored check (not the seen-set) skipping saved articles,
so an article that failed in this generation is tried again in the next. Known limits: a request a
process had taken from the queue when it was killed with SIGKILL is lost for this generation (it is
in the seen-set but no longer queued); the next generation fetches it.

The scheduler and dupefilter (and their reasons) are in :mod:`sacorpus.distributed_frontier`, imported only
when a distributed crawl needs them: every crawl loads this add-on, and Redis's client is several
megabytes of modules a crawl on one machine never uses.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings

from sacorpus import settings as defaults
from sacorpus.redact import redact

logger = logging.getLogger(__name__)

URL_SETTING = "SACORPUS_REDIS_URL"
ENV_VARS = ("SACORPUS_REDIS_URL", "REDIS_URL")
DEFAULT_PREFIX: str = defaults.SACORPUS_REDIS_KEY_PREFIX
DEFAULT_HEARTBEAT: float = defaults.SACORPUS_REDIS_HEARTBEAT  # seconds between a worker's heartbeats


class DistributedCrawlError(RuntimeError):
    """Redis is configured but cannot be used (unreachable, wrong URL): the crawl does not start.

    Crawling on without the shared frontier would fetch everything the other workers fetch."""


def redis_url(settings: BaseSettings | dict[str, Any]) -> str | None:
    """The Redis URL of the run: ``SACORPUS_REDIS_URL`` setting, else that or ``REDIS_URL`` in the env."""
    value = settings.get(URL_SETTING)
    if value:
        return str(value)
    for name in ENV_VARS:
        if os.environ.get(name):
            return os.environ[name]
    return None


def redis_settings(url: str, *, prefix: str = DEFAULT_PREFIX) -> dict[str, Any]:
    """Every setting a distributed crawl needs, as one dict (apply at priority "spider" or higher).

    JOBDIR is switched off: the queue and the seen-set live in Redis, not on a local disk."""
    return {
        "REDIS_URL": url,
        "SCHEDULER": "sacorpus.distributed.RedisScheduler",
        "DUPEFILTER_CLASS": "sacorpus.distributed.RedisDupeFilter",
        "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:seen",
        "SCHEDULER_PERSIST": True,  # never flush the shared frontier when one worker stops
        "SCHEDULER_FLUSH_ON_START": False,
        "SCHEDULER_IDLE_BEFORE_CLOSE": 0,
        "JOBDIR": None,
    }


def check_reachable(url: str, timeout: float = 10.0) -> None:
    """Raise :class:`DistributedCrawlError` when Redis at ``url`` does not answer (before the crawl starts)."""
    import redis
    from redis.exceptions import RedisError

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, ValueError) as exc:
        raise DistributedCrawlError(
            redact(
                f"Redis at {url} is not reachable ({exc}); start it or unset {URL_SETTING}/REDIS_URL "
                "to crawl on this machine alone"
            )
        ) from None


def workers_key(prefix: str, spider_name: str) -> str:
    return f"{prefix}:{spider_name}:workers"


class RedisFrontierAddon:
    """Scrapy add-on: when ``SACORPUS_REDIS_URL`` (or env ``REDIS_URL``) is set, crawl distributed.

    Settings are applied at priority "spider" so they replace the project's SCHEDULER/DUPEFILTER_CLASS
    and the per-spider JOBDIR that PublicationSpider sets; a value given on the command line
    (``-s SCHEDULER=...``) still wins."""

    def update_settings(self, settings: BaseSettings) -> None:
        url = redis_url(settings)
        if not url:
            return
        check_reachable(url)
        prefix = settings.get("SACORPUS_REDIS_KEY_PREFIX") or DEFAULT_PREFIX
        spider_priority = SETTINGS_PRIORITIES["spider"]
        for name, value in redis_settings(url, prefix=prefix).items():
            current = settings.getpriority(name)
            if current is None or current <= spider_priority:
                settings.set(name, value, priority="spider")
            else:
                logger.info("distributed crawl: %s kept as given (%r)", name, settings.get(name))


#: what :mod:`sacorpus.distributed_frontier` provides under this module's name (the settings' class paths)
_FRONTIER_NAMES = ("RedisDupeFilter", "RedisScheduler", "seen_fingerprint")


def __getattr__(name: str) -> Any:
    """The frontier classes, imported on first use (``load_object("sacorpus.distributed.RedisScheduler")``)."""
    if name in _FRONTIER_NAMES:
        from sacorpus import distributed_frontier

        return getattr(distributed_frontier, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
