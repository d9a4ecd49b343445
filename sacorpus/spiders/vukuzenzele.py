"""Vuk'uzenzele: everything is in publications/vukuzenzele.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class VukuzenzeleSpider(PublicationSpider):
    name = "vukuzenzele"
