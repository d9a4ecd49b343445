"""``scrapy wordlist``: the command is :class:`sacorpus.corpus.commands.wordlist.Wordlist` (also run by ``sacorpus wordlist``)."""

from sacorpus.corpus.commands.wordlist import Wordlist
from sacorpus.corpus.scrapy_adapter import ScrapyAdapter


class Command(Wordlist, ScrapyAdapter):
    """Scrapy's command line for :class:`Wordlist`."""
