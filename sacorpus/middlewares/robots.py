"""RobotsTxtMiddleware that enforces robots.txt for *every* request waiting on the robots fetch.

Scrapy 2.19's RobotsTxtMiddleware (since scrapy/scrapy#6802) lets requests that arrive while
robots.txt is still downloading await the same Deferred via ``maybe_deferred_to_future``; under
the asyncio reactor that is ``Deferred.asFuture``, which *consumes* the result, so the first waiter
gets the parser and every later waiter gets ``None`` - "no robots.txt", i.e. allowed. With a
start list of many URLs on one host, all but two bypass robots.txt. This subclass gives each
waiter its own Deferred that is fired with the parser, leaving the shared result intact.
(Reproduced by tests/middlewares: three concurrent requests, the third one was fetched although
robots.txt disallowed it.)

Scrapy also logs a robots.txt that could not be downloaded (an offline run, a refused connection)
with a full traceback; :class:`OneLineErrors` keeps it to its one line.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxtMiddleware
from scrapy.robotstxt import RobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred


class OneLineErrors(logging.Filter):
    """Drop the traceback from Scrapy's "Error downloading <robots.txt>" line: the error says it all."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Error downloading"):
            record.exc_info = record.exc_text = None
        return True


class RobotsTxtMiddleware(ScrapyRobotsTxtMiddleware):
    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        scrapy_logger = logging.getLogger(ScrapyRobotsTxtMiddleware.__module__)
        if not any(isinstance(f, OneLineErrors) for f in scrapy_logger.filters):
            scrapy_logger.addFilter(OneLineErrors())

    async def robot_parser(self, request: Request) -> RobotParser | None:
        pending = self._parsers.get(urlparse_cached(request).netloc)
        if isinstance(pending, Deferred):
            waiter: Deferred[RobotParser | None] = Deferred()

            def relay(result: RobotParser | None) -> RobotParser | None:
                waiter.callback(result)
                return result  # keep the result for the next waiter

            pending.addCallback(relay)
            return await maybe_deferred_to_future(waiter)
        return await super().robot_parser(request)
