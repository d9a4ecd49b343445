"""Cape Times: everything is in publications/capetimes.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class CapetimesSpider(PublicationSpider):
    name = "capetimes"
