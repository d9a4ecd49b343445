"""The South African: everything is in publications/thesouthafrican.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class TheSouthAfricanSpider(PublicationSpider):
    name = "thesouthafrican"
