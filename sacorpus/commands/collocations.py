"""``scrapy collocations``: the command is :class:`sacorpus.corpus.commands.collocations.Collocations` (also run by ``sacorpus collocations``)."""

from sacorpus.corpus.commands.collocations import Collocations
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Collocations, ScrapyAdapter):
    """Scrapy's command line for :class:`Collocations`."""
