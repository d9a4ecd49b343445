"""BusinessLIVE (Business Day): everything is in publications/businesslive.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class BusinessLiveSpider(PublicationSpider):
    name = "businesslive"
