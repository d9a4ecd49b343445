"""Daily Sun: everything is in publications/dailysun.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class DailysunSpider(PublicationSpider):
    name = "dailysun"
