"""News24: everything is in publications/news24.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class News24Spider(PublicationSpider):
    name = "news24"
