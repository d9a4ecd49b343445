"""Maroela Media: everything is in publications/maroelamedia.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class MaroelamediaSpider(PublicationSpider):
    name = "maroelamedia"
