"""``scrapy search``: the command is :class:`sacorpus.corpus.commands.search.Search` (also run by ``sacorpus search``)."""

from sacorpus.corpus.commands.search import Search
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Search, ScrapyAdapter):
    """Scrapy's command line for :class:`Search`."""
