"""Punkt's orthographic table held in flat arrays, and the bundled model data let go once it is read.

Why: a Punkt model's ``ortho_context`` maps every word type of its training text to a few flag bits
(20,000 types for English, 60,000 for German, 80,000 for Finnish). As a dict of strings each entry
costs about 100 bytes, and the ``punkt`` package keeps a second copy of the whole model in the module
it was read from: about 6 MB of every crawl process for each language whose pages it has split, for
as long as the process lives. :class:`OrthoTable` answers the same lookups from a sorted array of the
types' hashes, their flags and their UTF-8 spellings in one byte string (about 23 bytes an entry), and
:func:`release_bundled` drops the package's copy of a model already read (the package imports it again
when someone asks for it again).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import accumulate
from typing import Any


class OrthoTable(Mapping[str, int]):
    """An immutable ``{word type: flags}`` that keeps no string object per entry.

    A lookup hashes the word, finds the run of equal hashes by binary search and compares the spelling
    held for each, so the answer is exact: a word is found only when it is one of the entries.
    """

    def __init__(self, entries: Mapping[str, int], hasher: Callable[[str], int] = hash) -> None:
        self._hasher = hasher
        words = list(entries)
        hashes = list(map(hasher, words))
        order = sorted(range(len(words)), key=hashes.__getitem__)
        self._hashes = array("q", [hashes[i] for i in order])
        try:
            self._flags = array("B", [entries[words[i]] for i in order])
        except OverflowError:
            raise ValueError("orthographic flags outside 0-255") from None
        spelled = [words[i].encode("utf-8", "surrogatepass") for i in order]
        self._starts = array("I", [0, *accumulate(map(len, spelled))])
        self._blob = b"".join(spelled)

    def _index(self, word: str) -> int:
        if not isinstance(word, str):
            return -1
        h = self._hasher(word)
        i = bisect_left(self._hashes, h)
        encoded: bytes | None = None
        while i < len(self._hashes) and self._hashes[i] == h:
            if encoded is None:
                encoded = word.encode("utf-8", "surrogatepass")
            if self._blob[self._starts[i] : self._starts[i + 1]] == encoded:
                return i
            i += 1
        return -1

    def __getitem__(self, word: str) -> int:
        i = self._index(word)
        if i < 0:
            raise KeyError(word)
        return self._flags[i]

    def get(self, word: str, default: int | None = None) -> int | None:  # type: ignore[override]
        i = self._index(word)
        return default if i < 0 else self._flags[i]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._index(word) >= 0

    def __iter__(self) -> Iterator[str]:
        for i in range(len(self._flags)):
            yield self._blob[self._starts[i] : self._starts[i + 1]].decode("utf-8", "surrogatepass")

    def __len__(self) -> int:
        return len(self._flags)

    def nbytes(self) -> int:
        """The bytes its arrays and spellings hold."""
        arrays = (self._hashes, self._flags, self._starts)
        return len(self._blob) + sum(a.itemsize * len(a) for a in arrays)


def release_bundled(model: str) -> bool:
    """Let go of the ``punkt`` package's module for a bundled model that has been read (its cache,
    ``sys.modules`` and the package's attribute); True when there was one. A package that keeps its
    models elsewhere is left as it is."""
    package = sys.modules.get("punkt.data")
    name = f"punkt.data.{model}"
    cache = getattr(package, "_MODULE_CACHE", None)
    found = sys.modules.pop(name, None) is not None
    if isinstance(cache, dict):
        found = cache.pop(model, None) is not None or found
    if package is not None and isinstance(getattr(package, model, None), type(sys)):
        delattr(package, model)
    return found


def punkt_parameters(model: str, english_prefixes: bool, abbreviations: Iterable[str] = ()) -> Any:
    """A bundled model's parameters as punkt gives them (its orthographic table a dict), with its own
    non-breaking prefixes and, when asked, the English ones and ``abbreviations``."""
    import punkt

    params = punkt.load_model(model)
    if punkt.has_prefixes(model):
        params = punkt.with_nonbreaking_prefixes(params, model)
    if english_prefixes:
        params = punkt.with_nonbreaking_prefixes(params, "english")
        params.abbrev_types.update(abbreviations)
    return params


def compact_splitter(model: str, english_prefixes: bool, abbreviations: Iterable[str] = ()) -> Any:
    """A splitter of :func:`punkt_parameters` with its orthographic table an :class:`OrthoTable`;
    punkt's own cache and module of the bundled model are let go after."""
    import punkt

    params = punkt_parameters(model, english_prefixes, abbreviations)
    params.ortho_context = OrthoTable(params.ortho_context)
    punkt.clear_cache()
    release_bundled(model)
    return punkt.PunktSentenceTokenizer(params, line_breaks="always")


__all__ = ["OrthoTable", "compact_splitter", "punkt_parameters", "release_bundled"]
