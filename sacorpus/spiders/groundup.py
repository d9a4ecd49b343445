"""GroundUp: everything is in publications/groundup.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class GroundUpSpider(PublicationSpider):
    name = "groundup"
