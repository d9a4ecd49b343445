"""The Mercury: everything is in publications/mercury.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class MercurySpider(PublicationSpider):
    name = "mercury"
