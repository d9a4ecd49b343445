"""The check-up's fetcher: one plain HTTP GET per URL, with the crawl's address guard and host mapping.

Why not a Scrapy crawl: the check-up fetches two or three URLs per publication and must judge each one
on its own, synchronously, in a command that a daily cron runs; a crawler process per publication would
cost more than the check. What the crawl guarantees still holds: the project's User-Agent, a timeout and
a size cap, no address outside the public internet (every redirect is checked too), and with
``base_url`` the publication's hosts are fetched from a mirror or fixture site while every URL reported
stays the publication's own.
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from typing import Any

from sacorpus.health.checkup import Fetched
from sacorpus.publications import Publication
from sacorpus.sources.addresses import Resolver, system_resolver, url_problem
from sacorpus.sources.urls import MirrorMap
from sacorpus.text.compression import decompress


class _GuardedRedirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to an address the guard accepts (a redirect is content from the web)."""

    def __init__(self, problem: Any) -> None:
        self.problem = problem

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        why = self.problem(newurl)
        if why:
            raise urllib.error.URLError(f"redirect refused: {why}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Probe:
    """``probe(url) -> Fetched`` for one publication; ``logical(url)`` maps a mirror URL back."""

    def __init__(
        self,
        publication: Publication,
        *,
        user_agent: str,
        timeout: float,
        max_bytes: int,
        base_url: str | None = None,
        resolve: Resolver = system_resolver,
    ) -> None:
        self.publication = publication
        self.user_agent = user_agent
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.mirror = MirrorMap(publication, base_url)
        self.physical, self.logical = self.mirror.fetch_url, self.mirror.logical_url
        self.resolve = resolve
        base = self.mirror.base
        trusted = frozenset({base.netloc.lower()}) if base else frozenset()
        self._opener = urllib.request.build_opener(
            _GuardedRedirects(lambda u: url_problem(u, self.resolve, trusted))
        )
        self._trusted = trusted

    def __call__(self, url: str) -> Fetched:
        target = self.physical(url)
        problem = url_problem(target, self.resolve, self._trusted)
        if problem:
            return Fetched(url, error=f"refused: {problem}")
        request = urllib.request.Request(target, headers={"User-Agent": self.user_agent})
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                body = response.read(self.max_bytes + 1)
                status, headers = response.status, dict(response.headers.items())
        except urllib.error.HTTPError as exc:
            return Fetched(url, status=exc.code, headers=dict(exc.headers.items()))
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", exc)
            return Fetched(url, error=f"{type(exc).__name__}: {reason}"[:300])
        if len(body) > self.max_bytes:
            return Fetched(url, status=status, error=f"larger than {self.max_bytes} bytes")
        if body[:2] == b"\x1f\x8b":  # a .xml.gz sitemap: the page core inflates pages itself
            body = decompress(body, headers.get("Content-Encoding"), max_bytes=self.max_bytes).data
        return Fetched(url, status=status, headers=headers, body=body)


__all__ = ["Probe"]
