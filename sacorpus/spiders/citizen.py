"""The Citizen: everything is in publications/citizen.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class CitizenSpider(PublicationSpider):
    name = "citizen"
