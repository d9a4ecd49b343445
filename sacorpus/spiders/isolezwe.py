"""Isolezwe (isiZulu): everything is in publications/isolezwe.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class IsolezweSpider(PublicationSpider):
    name = "isolezwe"
