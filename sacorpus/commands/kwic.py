"""``scrapy kwic``: the command is :class:`sacorpus.corpus.commands.kwic.Kwic` (also run by ``sacorpus kwic``)."""

from sacorpus.corpus.commands.kwic import Kwic
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Kwic, ScrapyAdapter):
    """Scrapy's command line for :class:`Kwic`."""
