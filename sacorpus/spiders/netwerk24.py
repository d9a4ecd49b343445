"""Netwerk24 (Afrikaans): everything is in publications/netwerk24.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class Netwerk24Spider(PublicationSpider):
    name = "netwerk24"
