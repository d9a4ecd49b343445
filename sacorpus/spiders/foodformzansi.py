"""Food For Mzansi: everything is in publications/foodformzansi.toml."""

from __future__ import annotations

from sacorpus.spiders.base import PublicationSpider


class FoodformzansiSpider(PublicationSpider):
    name = "foodformzansi"
