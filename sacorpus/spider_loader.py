"""The spider loader: the publication spiders of ``sacorpus.spiders``, plus one spider per publication
file in ``SACORPUS_PUBLICATIONS_DIR``.

Why: a publication is data; a user who keeps their own publication files outside the package (or a test
that writes them) should not have to write a three-line spider file for each before ``scrapy crawl`` and
``scrapy schedule`` know it.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.spiderloader import SpiderLoader

from sacorpus.publications import PublicationError, extra_slugs
from sacorpus.spiders.base import PublicationSpider

logger = logging.getLogger(__name__)


class PublicationSpiderLoader(SpiderLoader):
    def __init__(self, settings: Any) -> None:
        super().__init__(settings)
        directory = settings.get("SACORPUS_PUBLICATIONS_DIR") or None
        try:
            slugs = extra_slugs(directory)
        except PublicationError as exc:
            logger.error("publication files not loaded: %s", exc)
            return
        for slug in slugs:
            if slug in self._spiders:
                logger.warning("%s/%s.toml ignored: a shipped spider has that name", directory, slug)
                continue
            attrs = {"name": slug, "publication_dir": directory, "__module__": __name__}
            self._spiders[slug] = type(f"{slug.title().replace('_', '')}Spider", (PublicationSpider,), attrs)
