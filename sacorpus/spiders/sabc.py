"""SABC News: everything is in publications/sabc.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class SabcSpider(PublicationSpider):
    name = "sabc"
