"""Cape Argus: everything is in publications/capeargus.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class CapeargusSpider(PublicationSpider):
    name = "capeargus"
