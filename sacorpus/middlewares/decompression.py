"""HTTP content codings undone in the download layer with the page core's own inflater.

Why not Scrapy's HttpCompressionMiddleware: it trusts ``Content-Encoding``. Brotli labelled gzip, zlib
labelled br or raw deflate labelled gzip raise there, and the page is dropped before any item pipeline
sees it; a truncated gzip stream is silently cut short, so a truncated decompression bomb became an
empty article with nothing in its problems. This middleware undoes codings with
:func:`sacorpus.text.compression.decompress` - the same inflater the page core uses - which sniffs the
real coding from magic bytes (gzip bodies served without the header, gzip inside gzip), tries the other
codings when a label is wrong, and caps output at ``DOWNLOAD_MAXSIZE``. A body it cannot undo cleanly
(truncated, a bomb, corrupt) is passed on exactly as it came, header included: feeds and sitemaps have
their own capped readers, and an article's page core records the fault in ``problems``.

Counters (``sacorpus/fetch/<publication>/...``): ``gzip_undeclared`` (inflated without a header),
``undecoded_<problem>`` (left to the page core). ``SACORPUS_GZIP_SNIFF_ENABLED = False`` undoes only
labelled codings.
"""

from __future__ import annotations

import logging

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.responsetypes import responsetypes

from sacorpus import settings as defaults
from sacorpus.middlewares.stats import count
from sacorpus.text.compression import GZIP_MAGIC, decompress

log = logging.getLogger(__name__)

ACCEPT_ENCODING = b"gzip, deflate, br"


class DecompressionMiddleware:
    def __init__(self, crawler: Crawler, max_size: int, sniff: bool = True) -> None:
        self.crawler = crawler
        self.max_size = max_size
        self.sniff = sniff

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DecompressionMiddleware:
        settings = crawler.settings
        if not settings.getbool("COMPRESSION_ENABLED", True):
            raise NotConfigured("COMPRESSION_ENABLED is off")
        # DOWNLOAD_MAXSIZE = 0 means no download limit: the decompression-bomb cap still applies
        max_size = settings.getint("DOWNLOAD_MAXSIZE", 0) or settings.getint(
            "SACORPUS_GZIP_MAX_BYTES", defaults.SACORPUS_GZIP_MAX_BYTES
        )
        return cls(
            crawler,
            max_size,
            settings.getbool("SACORPUS_GZIP_SNIFF_ENABLED", defaults.SACORPUS_GZIP_SNIFF_ENABLED),
        )

    def process_request(self, request: Request) -> None:
        request.headers.setdefault("Accept-Encoding", ACCEPT_ENCODING)

    def process_response(self, request: Request, response: Response) -> Response:
        if request.method == "HEAD" or not response.body:
            return response
        label = (response.headers.get(b"Content-Encoding") or b"").decode("latin-1").strip() or None
        if label is None and not (self.sniff and response.body[:2] == GZIP_MAGIC):
            return response
        result = decompress(response.body, label, max_bytes=self.max_size)
        if result.problem:
            count(self.crawler, request, f"undecoded_{result.problem}")
            log.info(
                "content coding of %s not undone (%s): passed on as it came", response.url, result.problem
            )
            return response
        if not result.applied:
            return response  # labelled, but not compressed after all (a proxy already decoded it)
        if label is None:
            count(self.crawler, request, "gzip_undeclared")
        headers = response.headers.copy()
        headers.pop(b"Content-Encoding", None)
        headers.pop(b"Content-Length", None)
        url = response.url
        url_for_type = url[:-3] if url.lower().endswith(".gz") else url
        cls = responsetypes.from_args(headers=headers, url=url_for_type, body=result.data)
        return response.replace(cls=cls, body=result.data, headers=headers)
