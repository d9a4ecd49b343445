"""eNCA: everything is in publications/enca.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class EncaSpider(PublicationSpider):
    name = "enca"
