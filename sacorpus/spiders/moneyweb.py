"""Moneyweb: everything is in publications/moneyweb.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class MoneywebSpider(PublicationSpider):
    name = "moneyweb"
