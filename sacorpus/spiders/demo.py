"""The offline demo publication: crawls the synthetic site the project ships, served on 127.0.0.1.

With no ``-a base_url=...`` the spider starts the demo site itself on a free loopback port, so
``scrapy crawl demo`` needs no internet and no other process.

The site server (aiohttp, about 10 MB of modules) is imported when the demo spider starts it: Scrapy's
spider loader imports every spider module, so an import here would weigh on every publication's crawl.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from scrapy.http import Request

from sacorpus.spiders.base import PublicationSpider

if TYPE_CHECKING:
    from sacorpus.demo.server import SiteServer

logger = logging.getLogger(__name__)


class DemoSpider(PublicationSpider):
    name = "demo"
    # The demo site is our own loopback server: no need to be gentle with it.
    custom_settings: dict[str, Any] | None = {"AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._server: SiteServer | None = None
        self._comment_api: str | None = None  # the demo site's own Disqus-style API

    async def start(self) -> AsyncIterator[Request]:
        if not self.source_base:
            from sacorpus.demo.comments import demo_replay
            from sacorpus.demo.server import SiteServer
            from sacorpus.demo.site import build_site

            self._server = SiteServer(build_site())
            self._server.start()
            self._comment_api = demo_replay().install(self._server, "/disqus")
            self.base_url_arg = self._server.base_url
            logger.info("demo site served at %s", self._server.base_url)
        async for request in super().start():
            yield request

    @property
    def comment_api_base(self) -> str | None:
        """The demo site answers the Disqus API itself when the spider serves it."""
        return self._comment_api or super().comment_api_base

    def closed(self, reason: str) -> None:
        super().closed(reason)
        if self._server is not None:
            self._server.stop()
