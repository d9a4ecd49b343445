"""Ilanga (isiZulu): everything is in publications/ilanga.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class IlangaSpider(PublicationSpider):
    name = "ilanga"
