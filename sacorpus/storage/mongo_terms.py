"""The MongoDB store's search terms: what an article is posted under (``mongo_postings``), the
vocabulary of every term stored, and how a search's substrings narrow the articles by them.

Why runs as well as tokens: a substring search ("water", the literal parts of a regex) matches
inside words and across the tokenizer's splits ("cannot" is the tokens ``can`` ``not``), so whole
tokens cannot narrow it. Every case-insensitive match of an ASCII substring lies in the article's
title and text folded as ``re.IGNORECASE`` folds them (:func:`fold`), and each run of letters and
digits of the substring lies inside one run of letters and digits of that folded text. So the terms
hold the article's casefolded word tokens (KWIC and collocations look whole tokens up) and the runs
of its folded title and text; a search looks up the vocabulary for the terms containing one run of
the substring (the run with the fewest) and reads the articles holding any of them. The vocabulary
is one document per word bucket (terms as fields, as the kept counts); a term once stored stays in
it (a term without articles finds none), and a process writes only the terms it has not written.

Stores whose terms were written before the runs (no ``index:terms-runs`` state) are not narrowed
for substrings: the search reads every article, as before; ``scrapy compact`` rewrites them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pymongo import UpdateOne

from sacorpus.storage.counts import index_text, is_word
from sacorpus.storage.mongo_counts import bucket, escape, in_requests, unescape
from sacorpus.storage.mongo_postings import posted_keys

VOCABULARY = "term_vocabulary"
RUNS_READY = "index:terms-runs"
#: a run found in more vocabulary terms than this does not narrow (most articles would match)
MAX_NARROWING_TERMS = 400
#: the characters ``re.IGNORECASE`` matches to an ASCII letter that ``str.lower`` does not make one
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_RUN = re.compile(r"[^\W_]+")
_ASCII_RUN = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    return text.translate(_FOLD).lower()


def search_terms(record: Mapping[str, Any]) -> list[str]:
    """The distinct casefolded word tokens of an article and the runs of letters and digits of its
    folded title and text."""
    tokens = record.get("tokens") or []
    terms = {t.casefold() for t in tokens if isinstance(t, str) and is_word(t)}
    terms.update(_RUN.findall(fold(index_text(record))))
    return sorted(terms)


class TermVocabulary:
    """The stored terms of a database: written once a process, read whole by a search."""

    def __init__(self) -> None:
        self.written: set[str] = set()

    def add(self, db: Any, term_lists: Iterable[Iterable[str]]) -> None:
        """Add the terms of each article (each list: an article's :func:`search_terms`)."""
        fields: dict[int, dict[str, int]] = {}
        for terms in term_lists:
            for term in terms:
                if term not in self.written:
                    fields.setdefault(bucket(term), {})["t." + escape(term)] = 1
        ops, sizes = [], []
        for b, names in fields.items():
            ops.append(UpdateOne({"_id": b}, {"$set": names}, upsert=True))
            sizes.append(len(names))
        in_requests(db[VOCABULARY], ops, sizes)
        for names in fields.values():
            self.written.update(unescape(name[2:]) for name in names)

    @staticmethod
    def terms(db: Any) -> list[str]:
        return [unescape(name) for doc in db[VOCABULARY].find({}, {"t": 1}) for name in doc.get("t") or {}]


def narrowing_terms(db: Any, substrings: Sequence[str]) -> list[str] | None:
    """The terms an article must hold one of to contain every one of ``substrings`` (ignoring case):
    those of the most selective run; None when no run narrows well (the caller reads every article)."""
    runs = {run for s in substrings if s.isascii() for run in _ASCII_RUN.findall(s.lower())}
    if not runs:
        return None
    vocabulary = TermVocabulary.terms(db)
    best: list[str] | None = None
    for run in sorted(runs, key=len, reverse=True):
        found = [term for term in vocabulary if run in term]
        if best is None or len(found) < len(best):
            best = found
    return best if best is not None and len(best) <= MAX_NARROWING_TERMS else None


def narrowed_keys(db: Any, substrings: Iterable[str], tokens: Iterable[str]) -> list[str] | None:
    """The keys of the articles posted under the longest of ``tokens`` (likely the rarest), else
    under one of the terms holding a run of the substrings; None when nothing narrows (the caller
    reads every article). Why one term and never all: the caller checks every record, so the rest
    of the tokens need not narrow, and each term more is a read of its postings."""
    whole = sorted({t.casefold() for t in tokens}, key=lambda t: (-len(t), t))
    if whole:
        return posted_keys(db, whole[:1])
    substrings = list(substrings)
    inner = narrowing_terms(db, substrings) if substrings else None
    return posted_keys(db, inner) if inner is not None else None
