"""Which stored articles a corpus command reads: publication, language, date range, duplicates.

Why client-side: the store protocol (``ArticleStore.iter_articles``) can only narrow by publication,
and the MongoDB-wire server has no text index, so every command streams the (publication-narrowed)
records and applies the rest of the filter here. The same code then serves SQLite and MongoDB.

Dates are compared as prefixes of the UTC ISO ``published_at`` string (read in the one stored form,
whichever form the version that wrote the row used), so ``--since 2024-03`` means
"from the first of March 2024" and ``--until 2024-03`` means "to the end of March 2024" (inclusive).
An article without ``published_at`` never passes a date filter (it is counted, not guessed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sacorpus.sources.dates import stored_utc
from sacorpus.storage.counts import StoreFilter

#: fields the filter reads; commands add them to the fields they fetch
FILTER_FIELDS = ("publication", "language", "published_at", "dedup_label")

_DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2})?)?)?)?)?$")


#: the labels the dedup stage writes, and ``none`` for an article it has not labelled
DEDUP_LABELS = ("unique", "similar", "duplicate", "none")


class FilterError(ValueError):
    """A filter value the user gave cannot be understood (the command shows the message)."""


def normalise_date_bound(value: str | None) -> str | None:
    """Check a --since/--until value and bring it to the stored form (``T`` between date and time)."""
    if value is None or value == "":
        return None
    value = value.strip().rstrip("Z")
    if not _DATE_RE.match(value):
        raise FilterError(f"date {value!r} is not YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH[:MM[:SS]] (UTC)")
    return value.replace(" ", "T")


def _split_values(values: Iterable[str] | str | None) -> tuple[str, ...]:
    """``--publication a,b --publication c`` -> ("a", "b", "c")."""
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for value in values:
        out.extend(v.strip() for v in str(value).split(",") if v.strip())
    return tuple(dict.fromkeys(out))


@dataclass
class ArticleFilter:
    """A conjunction of simple conditions on an article record; empty means "everything"."""

    publications: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    exclude_duplicates: bool = False
    #: only these dedup labels (``unique``, ``similar``, ``duplicate``; ``none`` for unlabelled)
    dedup_labels: tuple[str, ...] = ()
    #: why records were skipped, e.g. {"language": 3, "no-date": 1}; filled by :meth:`matches`
    rejected: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.publications = _split_values(self.publications)
        self.languages = _split_values(self.languages)
        self.dedup_labels = _split_values(self.dedup_labels)
        unknown = [label for label in self.dedup_labels if label not in DEDUP_LABELS]
        if unknown:
            raise FilterError(f"unknown dedup label {', '.join(unknown)}; known: {', '.join(DEDUP_LABELS)}")
        self.since = normalise_date_bound(self.since)
        self.until = normalise_date_bound(self.until)
        if self.since and self.until and self.since[: len(self.until)] > self.until:
            raise FilterError(f"--since {self.since} is after --until {self.until}")

    @classmethod
    def from_options(cls, opts: Any) -> ArticleFilter:
        """Build from the argparse namespace made by :func:`sacorpus.corpus.cli.add_filter_options`."""
        return cls(
            publications=getattr(opts, "publication", None) or (),
            languages=getattr(opts, "language", None) or (),
            since=getattr(opts, "since", None),
            until=getattr(opts, "until", None),
            exclude_duplicates=bool(getattr(opts, "exclude_duplicates", False)),
            dedup_labels=getattr(opts, "dedup_label", None) or (),
        )

    @property
    def store_publication(self) -> str | None:
        """The one publication the store can narrow by itself (None: read all publications)."""
        return self.publications[0] if len(self.publications) == 1 else None

    def store_filter(self) -> StoreFilter:
        """The conditions the store applies in its own query (its indexes narrow the read)."""
        return StoreFilter(
            publications=self.publications,
            languages=self.languages,
            since=self.since,
            until=self.until,
            exclude_duplicates=self.exclude_duplicates,
        )

    def describe(self) -> str:
        parts = []
        if self.publications:
            parts.append("publication=" + ",".join(self.publications))
        if self.languages:
            parts.append("language=" + ",".join(self.languages))
        if self.since:
            parts.append(f"since={self.since}")
        if self.until:
            parts.append(f"until={self.until}")
        if self.exclude_duplicates:
            parts.append("without duplicates")
        if self.dedup_labels:
            parts.append("dedup_label=" + ",".join(self.dedup_labels))
        return " ".join(parts) or "all articles"

    def matches(self, record: dict[str, Any]) -> bool:
        """True when the record passes every condition; counts the first failed one in ``rejected``."""
        if self.publications and record.get("publication") not in self.publications:
            self.rejected["publication"] += 1
            return False
        if self.languages and record.get("language") not in self.languages:
            self.rejected["language"] += 1
            return False
        if self.exclude_duplicates and record.get("dedup_label") == "duplicate":
            self.rejected["duplicate"] += 1
            return False
        if self.dedup_labels and (record.get("dedup_label") or "none") not in self.dedup_labels:
            self.rejected["dedup-label"] += 1
            return False
        if self.since or self.until:
            published = record.get("published_at")
            if not isinstance(published, str) or not published:
                self.rejected["no-date"] += 1
                return False
            published = str(stored_utc(published.replace(" ", "T")))  # rows of any version
            if self.since and published[: len(self.since)] < self.since:
                self.rejected["date"] += 1
                return False
            if self.until and published[: len(self.until)] > self.until:
                self.rejected["date"] += 1
                return False
        return True


def check_known(flt: ArticleFilter, publications: Iterable[str], languages: Iterable[str]) -> None:
    """Raise FilterError naming a publication or language that nothing has, with the known values.

    Why: a misspelt slug (``--publication mg_``) or code (``--language afr``) matches no article, and
    0 rows would read as "the corpus has none" instead of "you asked for something that does not exist".
    """
    for what, given, known in (
        ("publication", flt.publications, set(publications)),
        ("language", flt.languages, set(languages)),
    ):
        unknown = [value for value in given if value not in known]
        if unknown:
            listed = ", ".join(sorted(known)) or "(none)"
            raise FilterError(f"unknown {what} {', '.join(unknown)}; known: {listed}")


def fields_with_filter(fields: Sequence[str] | None) -> list[str] | None:
    """The fields to fetch from the store: what the command needs plus what the filter reads."""
    if fields is None:
        return None
    return list(dict.fromkeys([*fields, *FILTER_FIELDS]))
