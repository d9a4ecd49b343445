"""Inflate gzip bodies served without ``Content-Encoding`` (and doubly-gzipped ones).

Some CMSs and CDNs send pre-compressed files as ``text/html`` with no ``Content-Encoding`` header,
or compress twice; Scrapy's HttpCompressionMiddleware only undoes declared encodings, so the
pipeline would receive binary garbage. This middleware runs after it (priority below 590) and
inflates any body that still starts with the gzip magic bytes, with a size cap against bombs.
"""

from __future__ import annotations

import logging

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.responsetypes import responsetypes

from sacorpus.middlewares.stats import count
from sacorpus.sources.sitemaps import gunzip_capped

log = logging.getLogger(__name__)


class GzipSniffMiddleware:
    def __init__(self, crawler: Crawler, max_size: int) -> None:
        self.crawler = crawler
        self.max_size = max_size

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GzipSniffMiddleware:
        settings = crawler.settings
        if not settings.getbool("SACORPUS_GZIP_SNIFF_ENABLED", True):
            raise NotConfigured("SACORPUS_GZIP_SNIFF_ENABLED is off")
        max_size = settings.getint("SACORPUS_GZIP_SNIFF_MAXSIZE", 0) or settings.getint("DOWNLOAD_MAXSIZE", 0)
        return cls(crawler, max_size or 64 * 1024 * 1024)

    def process_response(self, request: Request, response: Response) -> Response:
        if response.body[:2] != b"\x1f\x8b" or request.meta.get("sacorpus_keep_gzip"):
            return response
        body, problem = gunzip_capped(response.body, self.max_size)
        if problem:
            count(self.crawler, request, "gzip_" + ("too_large" if "over" in problem else "broken"))
            log.warning("undeclared gzip body of %s: %s", response.url, problem)
            if not body:
                return response
        count(self.crawler, request, "gzip_undeclared")
        headers = response.headers.copy()
        headers.pop(b"Content-Encoding", None)
        headers.pop(b"Content-Length", None)
        url = response.url
        url_for_type = url[:-3] if url.lower().endswith(".gz") else url
        cls = responsetypes.from_args(headers=headers, url=url_for_type, body=body)
        return response.replace(cls=cls, body=body, headers=headers)
