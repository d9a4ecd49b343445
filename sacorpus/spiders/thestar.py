"""The Star: everything is in publications/thestar.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class ThestarSpider(PublicationSpider):
    name = "thestar"
