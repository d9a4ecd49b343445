"""Every request is checked before it is sent: the publication's own hosts, public addresses, http(s).

Why here: redirects, ``Sitemap:`` lines in robots.txt, sitemap-index entries and Wayback captures all
become requests that pass through the downloader middlewares, so one check in front of the download
covers them all, whatever source made the request. Two questions, in order:

1. **Scope**: is the host the publication's (its domains), a host its own file names for a source, the
   run's mirror (``base_url``) or Wayback service, or allowed by ``SACORPUS_ALLOWED_HOSTS``? A URL on
   any other host came from content (a redirect, a sitemap entry): it is recorded as a candidate
   (log line, ``sacorpus/guard/offsite_candidates``), not fetched. The Disqus API (the run's
   ``SACORPUS_DISQUS_API_BASE``) is in scope for the comment requests of a publication whose file
   declares its Disqus forum, and for nothing else.
2. **Address**: do all addresses of the host lie in public space? Loopback, private, link-local,
   multicast and reserved addresses are refused and counted (``sacorpus/guard/internal_address``),
   except for netlocs allowed explicitly: the run's own mirror and replay servers allow themselves.

Resolution runs in a worker thread and is cached per host; ``SACORPUS_HOSTS`` answers first (like
/etc/hosts), and with ``SACORPUS_HOSTS_ONLY`` nothing else resolves (tests: no DNS query leaves).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.defer import deferred_to_future
from twisted.internet.threads import deferToThread

from sacorpus.sources.addresses import (
    ALLOWED_SCHEMES,
    netloc_key,
    system_resolver,
    table_resolver,
    url_problem,
)

logger = logging.getLogger(__name__)

_CACHE_SIZE = 4096
_LOGGED_CANDIDATES = 20  # candidate URLs logged one by one per run; the rest are counted


class AddressGuardMiddleware:
    def __init__(self, crawler: Crawler, resolve: Any, allowed_hosts: list[str]) -> None:
        self.crawler = crawler
        self.resolve = resolve
        allowed = [h.lower() for h in allowed_hosts]
        self.allowed_netlocs = frozenset(h for h in allowed if ":" in h)  # host:port, exactly
        self.allowed_hosts = tuple(h for h in allowed if ":" not in h)  # hosts and their subdomains
        self._verdicts: OrderedDict[str, str | None] = OrderedDict()
        self._candidates = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> AddressGuardMiddleware:
        s = crawler.settings
        if not s.getbool("SACORPUS_ADDRESS_GUARD_ENABLED"):
            raise NotConfigured("SACORPUS_ADDRESS_GUARD_ENABLED is off")
        fallback = None if s.getbool("SACORPUS_HOSTS_ONLY") else system_resolver
        resolve = table_resolver(s.getdict("SACORPUS_HOSTS"), fallback=fallback)
        return cls(crawler, resolve, s.getlist("SACORPUS_ALLOWED_HOSTS"))

    # --- what the run trusts ----------------------------------------------------------------------

    def trusted_netlocs(self) -> frozenset[str]:
        """Servers the run itself points at: its mirror, its Wayback and Splash services, allowed netlocs."""
        spider: Any = self.crawler.spider
        s = self.crawler.settings
        bases = [getattr(spider, "source_base", None), s.get("SACORPUS_WAYBACK_BASE"), s.get("SPLASH_URL")]
        return frozenset(netloc_key(b) for b in bases if b) | self.allowed_netlocs

    def in_scope(self, url: str) -> bool:
        host = (urlsplit(url).hostname or "").lower()
        if netloc_key(url) in self.trusted_netlocs():
            return True
        if any(host == h or host.endswith("." + h) for h in self.allowed_hosts):
            return True
        spider: Any = self.crawler.spider
        publication = getattr(spider, "publication", None)
        if publication is None:
            return True  # not a publication crawl: only the address check applies
        if publication.owns(host):
            return True
        source_hosts = getattr(spider, "source_hosts", None) or getattr(spider, "_source_hosts", None)
        return bool(source_hosts and urlsplit(url).netloc.lower() in {h.lower() for h in source_hosts()})

    def comment_api(self, request: Request) -> bool:
        """A comment request to the Disqus API of a publication that declares its forum."""
        base = getattr(self.crawler.spider, "comment_api_base", None)
        if not (base and request.meta.get("sacorpus_comments_api")):
            return False
        return netloc_key(request.url) == netloc_key(base) and request.url.startswith(base.rstrip("/") + "/")

    # --- the check --------------------------------------------------------------------------------

    async def process_request(self, request: Request) -> None:
        url = request.url
        scheme = urlsplit(url).scheme.lower()
        if scheme not in ALLOWED_SCHEMES:
            self._refuse(request, "scheme", f"scheme {scheme or 'none'!r} is not fetched")
        if not self.in_scope(url) and not self.comment_api(request):
            self._candidate(request)
        problem = await self.address_problem(url)
        if problem:
            self._refuse(request, "internal_address", problem)

    async def address_problem(self, url: str) -> str | None:
        """Why the host's addresses may not be fetched (None: public, or named by the run), cached per
        host; also asked by the browser for what a rendered page loads (sacorpus.rendering.browser)."""
        key = netloc_key(url)
        if key in self._verdicts:
            self._verdicts.move_to_end(key)
            return self._verdicts[key]
        # the run names its Disqus API (a loopback replay in tests); only comment requests get this far
        api = getattr(self.crawler.spider, "comment_api_base", None)
        trusted = self.trusted_netlocs() | ({netloc_key(api)} if api else set())
        problem = await deferred_to_future(deferToThread(url_problem, url, self.resolve, trusted))
        self._verdicts[key] = problem
        if len(self._verdicts) > _CACHE_SIZE:
            self._verdicts.popitem(last=False)
        return problem

    def _refuse(self, request: Request, kind: str, why: str) -> None:
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(f"sacorpus/guard/{kind}")
        logger.warning("refused %s: %s", request.url, why)
        raise IgnoreRequest(f"address guard: {why}")

    def _candidate(self, request: Request) -> None:
        """A URL on another host, found in content: recorded, not fetched."""
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value("sacorpus/guard/offsite_candidates")
        self._candidates += 1
        origin = (request.meta.get("redirect_urls") or [None])[0] or request.meta.get("sacorpus_source_url")
        if self._candidates <= _LOGGED_CANDIDATES:
            logger.info("candidate on another host, not fetched: %s (from %s)", request.url, origin or "?")
        raise IgnoreRequest("address guard: not one of the publication's hosts")


__all__ = ["AddressGuardMiddleware"]
