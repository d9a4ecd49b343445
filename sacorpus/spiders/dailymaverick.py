"""Daily Maverick: everything is in publications/dailymaverick.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class DailyMaverickSpider(PublicationSpider):
    name = "dailymaverick"
