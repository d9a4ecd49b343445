"""HeraldLIVE (The Herald): everything is in publications/heraldlive.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class HeraldLiveSpider(PublicationSpider):
    name = "heraldlive"
