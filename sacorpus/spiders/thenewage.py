"""The New Age (Wayback only): everything is in publications/thenewage.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class TheNewAgeSpider(PublicationSpider):
    name = "thenewage"
