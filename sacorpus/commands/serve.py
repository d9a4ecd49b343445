"""``scrapy serve``: the command is :class:`sacorpus.corpus.commands.serve.Serve` (also run by ``sacorpus serve``)."""

from sacorpus.corpus.commands.serve import Serve
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Serve, ScrapyAdapter):
    """Scrapy's command line for :class:`Serve`."""
