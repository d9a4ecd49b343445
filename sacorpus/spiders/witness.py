"""The Witness: everything is in publications/witness.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class WitnessSpider(PublicationSpider):
    name = "witness"
