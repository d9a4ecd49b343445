"""Pretoria News: everything is in publications/pretorianews.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class PretorianewsSpider(PublicationSpider):
    name = "pretorianews"
