"""TimesLIVE: everything is in publications/timeslive.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class TimesLiveSpider(PublicationSpider):
    name = "timeslive"
