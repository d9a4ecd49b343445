"""DispatchLIVE (Daily Dispatch): everything is in publications/dispatchlive.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class DispatchLiveSpider(PublicationSpider):
    name = "dispatchlive"
