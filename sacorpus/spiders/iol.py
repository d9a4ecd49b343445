"""IOL: everything is in publications/iol.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class IolSpider(PublicationSpider):
    name = "iol"
