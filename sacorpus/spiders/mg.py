"""Mail & Guardian: everything is in publications/mg.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class MgSpider(PublicationSpider):
    name = "mg"
