"""Corpus analysis over stored articles: pure functions, no Scrapy.

Why a separate package: the ``scrapy export|search|kwic|wordlist|collocations|stats`` commands are
thin wrappers; linguists can import these functions in a notebook and run them over any iterable of
article records (``dataclasses.asdict(Article)`` dicts, as the store yields them).

Modules: filters (which articles), lineformat (the U/D/T/F/C/L/Q line format), exporting (JSONL),
search, kwic, wordlist, collocations, stats, plot (matplotlib, Agg), cli (argparse helpers).
"""

from __future__ import annotations
