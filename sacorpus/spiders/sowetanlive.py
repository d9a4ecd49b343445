"""Sowetan LIVE: everything is in publications/sowetanlive.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class SowetanLiveSpider(PublicationSpider):
    name = "sowetanlive"
