"""Boilerplate by repetition: lines that recur on many pages of one publication.

Why: a generic line filter cannot tell a site's "Sign up for our newsletter" from a sentence of the
story, and every guess loses someone's text. Repetition across pages is evidence that holds on any
site in any language: a line found on several different pages of the same publication is its page
furniture. :class:`LineHistory` remembers hashes of the lines of the pages it has seen (bounded, least
recently seen forgotten first); the page core drops a line once it has been seen on ``min_pages`` other
pages, and only short lines (a repeated paragraph is more likely a syndicated copy than furniture).
The same evidence serves titles: a ``<title>`` segment or a whole "headline" that other pages of the
publication state too is its name or a section label (:mod:`sacorpus.text.title_choice`).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable

MIN_PAGES = 3  # a line on this many other pages of the publication is boilerplate
MIN_CHARS = 12  # shorter lines ("Share", "Home") say too little to count
MAX_CHARS = 160  # longer lines are reporting, however often they recur (syndication, follow-ups)
MAX_SHARE = 0.3  # a page that would lose more of its lines than this is a copy, not furniture


def _key(line: str) -> bytes:
    return hashlib.blake2b(" ".join(line.split()).casefold().encode("utf-8"), digest_size=8).digest()


class LineHistory:
    """Line hashes of the pages of one publication, with the number of pages each was seen on."""

    def __init__(self, min_pages: int = MIN_PAGES, max_lines: int = 100_000) -> None:
        self.min_pages = min_pages
        self.max_lines = max_lines
        self._pages: OrderedDict[bytes, int] = OrderedDict()
        # title strings (whole candidates and their separator segments) -> the pages (URL keys) stating them,
        # at most min_pages + 1 of them: a tuple (a set of four weighs 216 bytes, a tuple 88, and a
        # publication's history holds up to max_lines of them)
        self._titles: OrderedDict[bytes, tuple[bytes, ...]] = OrderedDict()

    def is_repeated_title(self, text: str, url: str | None) -> bool:
        """True when ``text`` is a title (or a segment of one) that other pages of the publication state too:
        the site's name, a section label, a CMS default ("Article"), never one story's headline."""
        return self.title_repeated(_key(text), _key(url or ""))

    def title_repeated(self, key: bytes, page: bytes) -> bool:
        """:meth:`is_repeated_title` by hashes: a page worker's answers are checked against them."""
        pages = self._titles.get(key, ())
        return sum(1 for seen in pages if seen != page) >= self.min_pages

    def observe_titles(self, texts: Iterable[str], url: str | None) -> None:
        """Count one page's title strings; a page fetched again (same URL) counts once."""
        self.observe_title_keys([_key(t) for t in texts if t and t.strip()], _key(url or ""))

    def observe_title_keys(self, keys: list[bytes], page: bytes) -> None:
        """:meth:`observe_titles` by hashes, in the order the page first states each (not a set's order,
        which follows the process's hash seed: a page worker's replica must forget what the crawl's
        history forgets)."""
        for key in dict.fromkeys(keys):
            pages = self._titles.get(key, ())
            if len(pages) <= self.min_pages and page not in pages:  # enough to decide; bounded memory
                pages += (page,)
            self._titles[key] = pages
            self._titles.move_to_end(key)
        while len(self._titles) > self.max_lines:
            self._titles.popitem(last=False)

    def keeps_titles_when_told(self, keys: Iterable[bytes]) -> bool:
        """Whether :meth:`observe_title_keys` of ``keys`` would forget no title string (the table has
        room for the new ones): then every other answer of :meth:`title_repeated` stays as it is."""
        return len(self._titles) + sum(1 for k in set(keys) if k not in self._titles) <= self.max_lines

    def candidates(self, lines: Iterable[str]) -> set[bytes]:
        return set(self.candidate_keys(lines))

    def candidate_keys(self, lines: Iterable[str]) -> list[bytes]:
        return [_key(line) for line in lines if MIN_CHARS <= len(line) <= MAX_CHARS]

    def observe(self, lines: Iterable[str]) -> None:
        """Count one page's distinct candidate lines (call once per page, after filtering it)."""
        self.observe_keys(self.candidate_keys(lines))

    def observe_keys(self, keys: list[bytes]) -> None:
        """:meth:`observe` by hashes, in line order (see :meth:`observe_title_keys`)."""
        for key in dict.fromkeys(keys):
            self._pages[key] = self._pages.get(key, 0) + 1
            self._pages.move_to_end(key)
        while len(self._pages) > self.max_lines:
            self._pages.popitem(last=False)

    def is_boilerplate(self, line: str) -> bool:
        if not MIN_CHARS <= len(line) <= MAX_CHARS:
            return False
        return self.line_repeated(_key(line))

    def line_repeated(self, key: bytes) -> bool:
        """:meth:`is_boilerplate` by hash, for a line of candidate length."""
        return self._pages.get(key, 0) >= self.min_pages

    def drop_repeated(self, text: str) -> str:
        """``text`` without the lines seen on other pages, then the page is counted; whole pages that
        repeat (syndicated copies) keep their lines."""
        lines = text.split("\n")
        doomed = [i for i, line in enumerate(lines) if self.is_boilerplate(line)]
        self.observe(lines)
        if not doomed or len(doomed) > MAX_SHARE * len(lines):
            return text
        gone = set(doomed)
        return "\n".join(line for i, line in enumerate(lines) if i not in gone)


class PublicationHistories:
    """One :class:`LineHistory` per publication, learnt from its pages in the order they are processed.

    The crawl's page stage keeps one, and ``scrapy reextract`` keeps one over the stored pages in the
    order they were fetched, so a re-extracted corpus drops the same repeated lines and learns the same
    title segments as the crawl that stored it (pages of different publications never share evidence).
    """

    def __init__(self) -> None:
        self._by_publication: dict[str, LineHistory] = {}

    def of(self, publication: str | None) -> LineHistory:
        return self._by_publication.setdefault(publication or "", LineHistory())


__all__ = ["LineHistory", "PublicationHistories"]
