"""``scrapy stats``: the command is :class:`sacorpus.corpus.commands.stats.Stats` (also run by ``sacorpus stats``)."""

from sacorpus.corpus.commands.stats import Stats
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Stats, ScrapyAdapter):
    """Scrapy's command line for :class:`Stats`."""
