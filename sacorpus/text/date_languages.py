"""htmldate's page-wide date search, with dateparser asked only in the languages a date's words belong to.

Why: the last resort for a page's date is htmldate's page-wide search, which hands a date written in
words that it cannot read itself to dateparser with every language allowed. dateparser then tries
language after language in its fixed order and keeps each one it has loaded; htmldate's test for a
month word loads all of them at once. In a crawl of real pages that grew the process by about 40 MB
(the languages' dictionaries and patterns, 245 data modules) and cost seconds of CPU, in every
process that extracts (the crawl, each page worker, each `scrapy evaluate` worker).

dateparser reads a string in the first language, in its order, that knows every word of it. So the
languages worth asking are those that know the string's words: a table shipped with sacorpus
(``sacorpus/models/date_words.json.gz``, made from dateparser's own language data by
``scripts/build_date_words.py``) says which languages know each word, and dateparser is asked, in its
own order, in English and in the languages that know every word of the string some language knows
(time zone names and the words every language's dictionary holds aside; in Chinese and Japanese,
written without spaces, the words found inside a run of letters). The language that would have read
the string is among them, so the date is the one htmldate finds with every language
(``python benchmarks/date_languages.py`` compares both on every real page in ``../shared/data``); only
the languages a page's dates are written in are loaded. htmldate's month-word test gets the same month
words from the table.

This holds while :func:`find_page_date` runs; outside it htmldate is unchanged (trafilatura's own
metadata, and the bare trafilatura baseline of `scrapy evaluate`). htmldate's cache of the strings it
read is emptied as such a call starts and as it ends, so neither sees the other's answers. A table made
from another dateparser version than the installed one is not used (one warning; every language is
asked, as htmldate does).
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

TABLE = Path(__file__).resolve().parent.parent / "models" / "date_words.json.gz"
#: The settings htmldate 1.11 gives its own dateparser (``htmldate.extractors.get_external_parser``).
DATEPARSER_SETTINGS = {
    "NORMALIZE": True,
    "PARSERS": ["custom-formats", "absolute-time"],
    "PREFER_DATES_FROM": "past",
    "PREFER_LOCALE_DATE_ORDER": True,
    "RETURN_AS_TIMEZONE_AWARE": False,
    "STRICT_PARSING": True,
}
#: dateparser's own first language, which it always tries first
FIRST = "en"
#: the locale entries that are not words a date string can hold
_NOT_WORDS = ("name", "date_order", "locale_specific", "sentence_splitter_group")
_RUN = re.compile(r"[^\W\d_]+")
_ACTIVE: ContextVar[bool] = ContextVar("sacorpus_date_languages", default=False)
_install_lock = threading.Lock()
_asking = threading.Lock()
#: htmldate's own functions, once replaced
_originals: dict[str, Any] = {}


def fold(text: str) -> str:
    """Lower case without accents (dateparser's NORMALIZE), the Turkish dotless i as htmldate folds it."""
    text = text.replace("ı", "i").replace("İ", "i").lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def build_table() -> dict[str, Any]:
    """The table from the installed dateparser (loads every language: for the build script and tests)."""
    from dateparser.conf import settings
    from dateparser.data.languages_info import language_order
    from dateparser.languages.dictionary import PARSER_KNOWN_TOKENS
    from dateparser.languages.loader import default_loader
    from dateparser.timezones import timezone_info_list
    from htmldate.extractors import MONTH_KEYS, WORD, _fold_month_name

    position = {language: i for i, language in enumerate(language_order)}
    words: dict[str, set[int]] = {}
    unspaced: dict[str, set[str]] = {}
    months: set[str] = set()
    for locale in default_loader.get_locales(languages=language_order):
        spaced = str(locale.info.get("no_word_spacing", "")).lower() not in ("true", "1", "yes")
        for key, value in locale.info.items():
            if key in _NOT_WORDS:
                continue
            for string in _strings(value):
                for word in _RUN.findall(fold(string)):
                    words.setdefault(word, set()).add(position[locale.shortname])
                    if not spaced and not word.isascii():  # its own script's words, not "am"
                        unspaced.setdefault(locale.shortname, set()).add(word)
                if key in MONTH_KEYS and WORD.fullmatch(string):
                    months.add(_fold_month_name(string))
    # words every language's dictionary holds (dateparser adds them to each) and time zone names (stripped
    # before it looks): neither says which language a string is in
    everywhere = {fold(t) for t in [*PARSER_KNOWN_TOKENS, *settings.SKIP_TOKENS] if _RUN.fullmatch(t)}
    zones = {
        w for info in timezone_info_list for name, _ in info["timezones"] for w in _RUN.findall(fold(name))
    }
    return {
        "dateparser": metadata.version("dateparser"),
        "languages": list(language_order),
        "words": {word: sorted(langs) for word, langs in sorted(words.items())},
        "unspaced": {language: sorted(found) for language, found in sorted(unspaced.items())},
        "months": sorted(months),
        "neutral": sorted(everywhere | zones),
    }


class DateWords:
    """Which languages know each word of a date, read from the shipped table."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.languages: list[str] = table["languages"]
        # a word's languages as the bits of one int (bit i: the i-th language of dateparser's order)
        self.words: dict[str, int] = {w: sum(1 << i for i in v) for w, v in table["words"].items()}
        # languages written without spaces between words: dateparser finds their words inside a run
        self.unspaced: list[tuple[int, list[str]]] = [
            (1 << self.languages.index(lang), v) for lang, v in table["unspaced"].items()
        ]
        self.months = frozenset(table["months"])
        self.neutral = frozenset(table["neutral"])
        self.first = 1 << self.languages.index(FIRST)

    def _bits(self, word: str) -> int:
        if word in self.neutral:
            return 0
        bits = self.words.get(word)
        if bits is not None:
            return bits
        return sum(bit for bit, words in self.unspaced if any(w in word for w in words))

    def languages_for(self, string: str) -> tuple[str, ...]:
        """English, then the languages that know every word of ``string`` some language knows, in
        dateparser's order (those that know any of them when no language knows all)."""
        every, some = -1, 0
        for word in _RUN.findall(fold(string)):
            bits = self._bits(word)
            if bits:
                every &= bits
                some |= bits
        chosen = (every if every > 0 else some) | self.first
        return tuple(language for i, language in enumerate(self.languages) if chosen >> i & 1)


@lru_cache(maxsize=1)
def date_words() -> DateWords | None:
    """The shipped table (once a process)."""
    return load_date_words(TABLE)


def load_date_words(path: Path) -> DateWords | None:
    """The table at ``path``, or None when it was made from another dateparser than the installed one."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        table = json.load(f)
    installed = metadata.version("dateparser")
    if table["dateparser"] != installed:
        logger.warning(
            "%s was made from dateparser %s, %s is installed: dates in words are read in every language "
            "(rebuild it with scripts/build_date_words.py)",
            path.name,
            table["dateparser"],
            installed,
        )
        return None
    return DateWords(table)


@lru_cache(maxsize=64)
def _parser(languages: tuple[str, ...]) -> Any:
    from dateparser import DateDataParser

    return DateDataParser(languages=list(languages), settings=dict(DATEPARSER_SETTINGS))


_REPLACED = ("_external_date", "month_words", "try_date_expr")


@lru_cache(maxsize=1)
def _htmldate_fits() -> bool:
    """Whether htmldate has the functions this replaces (another version: it is left as it is, one warning)."""
    import htmldate.extractors as extractors

    missing = [name for name in _REPLACED if not hasattr(extractors, name)]
    if missing:
        logger.warning(
            "htmldate %s has no %s: dates in words are read in every language",
            metadata.version("htmldate"),
            ", ".join(missing),
        )
    return not missing


def _install() -> Any:
    """Let htmldate's dateparser and month words follow the words while :func:`find_page_date` runs;
    None where htmldate does not fit (:func:`_htmldate_fits`)."""
    import htmldate.extractors as extractors

    if not _htmldate_fits():
        return None
    with _install_lock:
        if not _originals:
            external_date, month_words = extractors._external_date, extractors.month_words
            _originals.update(external_date=external_date, month_words=month_words)

            def _external_date(string: str) -> Any:
                table = date_words() if _ACTIVE.get() else None
                if table is None:
                    return external_date(string)
                try:
                    return _parser(table.languages_for(string)).get_date_data(string)["date_obj"]
                except (OverflowError, ValueError):  # as htmldate: a string dateparser cannot read
                    return None

            def _month_words() -> frozenset[str]:
                table = date_words() if _ACTIVE.get() else None
                return month_words() if table is None else table.months

            extractors._external_date = _external_date
            extractors.month_words = _month_words  # type: ignore[assignment]
    return extractors


@contextmanager
def asked_by_words() -> Iterator[None]:
    """While inside, htmldate asks dateparser in the languages of each string's words only."""
    extractors = _install()
    if extractors is None:
        yield
        return
    with _asking:  # one such call at a time: htmldate's cache is the whole process's
        extractors.try_date_expr.cache_clear()
        token = _ACTIVE.set(True)
        try:
            yield
        finally:
            _ACTIVE.reset(token)
            extractors.try_date_expr.cache_clear()


def find_page_date(root: Any, url: str | None) -> str | None:
    """htmldate's page-wide search (original date, extensive), dates in words read as described above."""
    from htmldate import find_date

    with asked_by_words():
        found = find_date(root, url=url, original_date=True, extensive_search=True)
    return found if isinstance(found, str) else None


__all__ = [
    "DATEPARSER_SETTINGS",
    "DateWords",
    "asked_by_words",
    "build_table",
    "date_words",
    "find_page_date",
    "load_date_words",
]
