"""trafilatura's last fallback (justext) with the stop words of every language held once.

Why: for a page whose language it is not told, trafilatura builds a tuple of the stop words of every
justext language (about 154,000 strings, 13 MB), and justext's classifier keeps a lower-cased frozenset of
that tuple in its cache (16 MB), keyed by the tuple: every process that extracts (the crawl, each page
worker, ``scrapy evaluate``) holds the words twice, and every fallback hashes the 154,000-item key again.
:class:`AllStoplists` stands in for the tuple: justext reads the words from it once to build its set
(the same set: the words are lower-cased either way), the cache key is hashed by identity, and no
second copy of the words is kept.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

logger = logging.getLogger(__name__)


class AllStoplists:
    """Every justext stop list, read when iterated (justext builds its frozenset from this once)."""

    def __iter__(self) -> Iterator[str]:
        from justext.utils import get_stoplist, get_stoplists

        for language in sorted(get_stoplists()):
            yield from get_stoplist(language)

    def __repr__(self) -> str:
        return "AllStoplists()"


_INSTALLED = AllStoplists()
_MISSING = object()


def install() -> bool:
    """Hand trafilatura :class:`AllStoplists` in place of its tuple; False where trafilatura has no
    such stop list (another version): it then keeps its own, nothing else changes."""
    try:
        import trafilatura.external as external
    except ImportError:  # pragma: no cover - trafilatura is a dependency
        return False
    current = getattr(external, "JT_STOPLIST", _MISSING)
    if current is _INSTALLED:
        return True
    if current is not None and not isinstance(current, tuple):
        logger.debug("trafilatura's JT_STOPLIST is a %s; left as it is", type(current).__name__)
        return False
    external.JT_STOPLIST = _INSTALLED  # type: ignore[assignment]  # typed None there until the tuple is built
    return True


__all__ = ["AllStoplists", "install"]
