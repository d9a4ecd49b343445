"""``scrapy export``: the command is :class:`sacorpus.corpus.commands.export.Export` (also run by ``sacorpus export``)."""

from sacorpus.corpus.commands.export import Export
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Export, ScrapyAdapter):
    """Scrapy's command line for :class:`Export`."""
