"""Grocott's Mail: everything is in publications/grocotts.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class GrocottsSpider(PublicationSpider):
    name = "grocotts"
