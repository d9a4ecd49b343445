"""The publications and languages a filter may name: those in the store and in the publication files.

Why both: a publication whose file exists but which was never crawled is a valid (empty) choice, and a
store may hold publications whose files were removed since; anything else is a typo to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sacorpus.corpus.filters import ArticleFilter, check_known
from sacorpus.storage.base import ArticleStore


@dataclass(frozen=True)
class KnownValues:
    publications: tuple[str, ...]
    languages: tuple[str, ...]


def file_values(settings: Any) -> KnownValues:
    """The publications and languages of the publication files (shipped and SACORPUS_PUBLICATIONS_DIR)."""
    from sacorpus.publications import PublicationError, load_all  # only when a filter names one

    try:
        files = load_all(settings.get("SACORPUS_PUBLICATIONS_DIR") or None)
    except PublicationError:  # a broken file is reported by `scrapy check-publications`, not here
        files = {}
    languages = {code for publication in files.values() for code in publication.languages}
    return KnownValues(tuple(sorted(files)), tuple(sorted(languages)))


def known_values(store: ArticleStore, settings: Any, files: KnownValues | None = None) -> KnownValues:
    """Sorted publications and languages of the store and of the publication files.

    ``files`` (from :func:`file_values`) spares a long-running caller re-reading the files each time.
    """
    files = files or file_values(settings)
    publications = store.distinct_values("publication") | set(files.publications)
    languages = store.distinct_values("language") | set(files.languages)
    return KnownValues(tuple(sorted(publications)), tuple(sorted(languages)))


def check_filter_values(flt: ArticleFilter, store: ArticleStore, settings: Any) -> None:
    """Raise FilterError when the filter names a publication or language nothing has."""
    if flt.publications or flt.languages:
        stored = store.distinct_values("publication"), store.distinct_values("language")
        if set(flt.publications) <= stored[0] and set(flt.languages) <= stored[1]:
            return  # the corpus holds them: no need to read (and compile) every publication file
        known = known_values(store, settings)
        check_known(flt, known.publications, known.languages)
