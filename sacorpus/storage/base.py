"""The storage protocol every backend implements, and the parts they share.

Why one protocol: the pipelines and corpus commands must not care whether articles live in an
embedded SQLite file or a MongoDB server; the backend is chosen by the import-path setting
``SACORPUS_STORE`` and both backends pass the same contract tests (tests/storage/).

Backends are synchronous plain Python (no Scrapy, no Twisted); pipelines call them off the reactor
thread. Every method may raise :class:`StorageError` (the one documented exception type) when the
database cannot be reached or refuses a write; callers count it and retry or spill.

Records are ``dataclasses.asdict(Article)`` dicts including ``body`` (raw bytes or None), which the
backends keep compressed (sacorpus.storage.layout) and restore on read.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Self

from sacorpus import settings as defaults
from sacorpus.storage.counts import StoreFilter
from sacorpus.storage.dedup_index import DedupIndex
from sacorpus.storage.queries import CorpusQueries
from sacorpus.storage.relabels import Relabels

logger = logging.getLogger(__name__)

DEFAULT_STORE = "sacorpus.storage.sqlite.SQLiteStore"
MONGO_STORE = "sacorpus.storage.mongo.MongoStore"
# the fallbacks for settings given as a plain dict are the settings module's own defaults (one place)
DEFAULT_SQLITE_PATH: str = defaults.SACORPUS_SQLITE_PATH
DEFAULT_SPILL_DIR: str = defaults.SACORPUS_STORE_SPILL_DIR  # one spill file per store in here
DEFAULT_MONGO_DATABASE: str = defaults.MONGO_DATABASE
#: what a relabel reads of a stored article (:meth:`DedupIndex.dedup_labels`)
LABEL_FIELDS = ("text_hash", "dedup_label", "dedup_evidence")

#: fields with real columns / indexes in both backends (the ones queried)
INDEXED_FIELDS: tuple[str, ...] = ("url", "publication", "published_at", "fetched_at", "language")
INDEXED_FIELDS += ("dedup_label", "text_hash", "canonical_url", "page_type")


# ``scrapy sources --candidates --sort``: key -> (field, descending)
CANDIDATE_SORTS = {
    "count": ("count", True),
    "last_seen": ("last_seen", True),
    "first_seen": ("first_seen", True),
    "host": ("host", False),
}


class StorageError(Exception):
    """The store could not read or write (server down, disk full, bad record).

    The message is kept to one short line: drivers describe a failed connection at length (pymongo's
    whole topology), and that must not fill every log line of an outage.
    """

    def __init__(self, message: object = "") -> None:
        text = str(message)
        for cut in (" Topology Description:", ", Timeout:", "\n"):
            text = text.split(cut, 1)[0]
        super().__init__(text[:300])


def setting(settings: Any, name: str, default: Any = None) -> Any:
    """Read a setting from scrapy Settings or a plain dict; None/"" mean "not set"."""
    value = settings.get(name, default) if settings is not None and hasattr(settings, "get") else default
    return default if value is None or value == "" else value


def load_store_class(path: str) -> type[ArticleStore]:
    """Import a store class from its dotted path (the SACORPUS_STORE setting)."""
    module_name, _, cls_name = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise StorageError(f"SACORPUS_STORE={path!r} cannot be imported: {exc}") from exc
    if not (isinstance(cls, type) and issubclass(cls, ArticleStore)):
        raise StorageError(f"SACORPUS_STORE={path!r} is not an ArticleStore subclass")
    return cls


def spill_path_for(settings: Any, store_key: str) -> str:
    """The spill file of one store: ``SACORPUS_STORE_SPILL_PATH`` if set, else
    ``<SACORPUS_STORE_SPILL_DIR>/<store key>.jsonl``.

    Why one file per store: a spill belongs to the store it was meant for; a shared file was re-imported
    by whichever store opened next (MongoDB-bound articles ended up in SQLite). The directory can be on
    another disk than the store, so a full disk does not take the spill down with the store.
    """
    explicit = setting(settings, "SACORPUS_STORE_SPILL_PATH")
    if explicit:
        return str(explicit)
    key = re.sub(r"[^A-Za-z0-9._-]+", "-", store_key).strip("-")[:120]
    return os.path.join(str(setting(settings, "SACORPUS_STORE_SPILL_DIR", DEFAULT_SPILL_DIR)), f"{key}.jsonl")


def store_path(settings: Any) -> str:
    """The import path of the store the settings select: ``SACORPUS_STORE`` when given, else MongoDB
    when the ``MONGO_URI`` setting is set, else SQLite.

    Why here and not in the settings module: a choice made when that module is imported sees only the
    environment, so ``-s MONGO_URI=...`` and scrapyd's ``setting=MONGO_URI=...`` were ignored and the
    articles went to SQLite. The crawl and every corpus command resolve it here, from final settings.
    """
    chosen = setting(settings, "SACORPUS_STORE")
    if chosen:
        return str(chosen)
    return MONGO_STORE if setting(settings, "MONGO_URI") else DEFAULT_STORE


def store_from_settings(settings: Any) -> ArticleStore:
    """Build (not open) the store the settings select (see :func:`store_path`)."""
    return load_store_class(store_path(settings)).from_settings(settings)


class Connection(ABC):
    """Lifecycle: ``open()`` connects and creates tables/indexes (idempotent) and re-imports a spill
    file left by an earlier outage; ``close()`` releases the connection. Also a context manager."""

    @classmethod
    @abstractmethod
    def from_settings(cls, settings: Any) -> Self: ...

    # --- lifecycle -------------------------------------------------------------------------------

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ArticleStorage(CorpusQueries, Connection):
    """Articles by URL, and the spill file that keeps them through an outage."""

    spill_path: str | None = None

    @abstractmethod
    def upsert_articles(self, records: list[dict[str, Any]]) -> None:
        """Insert or replace each record by ``url`` (one write; a URL crawled twice stays one record)."""

    @abstractmethod
    def get(self, url: str) -> dict[str, Any] | None:
        """The stored record (``body`` as bytes again) or None."""

    def batched(self) -> AbstractContextManager[None]:
        """Writes made inside go to the store as one transaction where the backend has them (SQLite).

        Why: ``scrapy dedup --rebuild`` writes an index entry and a label per article; one commit per
        article wrote the same index pages to the journal again and again. Elsewhere: no grouping.
        """
        return nullcontext()

    @abstractmethod
    def has_urls(self, urls: Iterable[str]) -> set[str]:
        """The subset of ``urls`` already stored (incremental crawls skip them)."""

    @abstractmethod
    def count(self, publication: str | None = None) -> int: ...

    def iter_articles(
        self,
        publication: str | None = None,
        fields: Iterable[str] | None = None,
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """All records in (fetched_at, url) order, fetched ``batch_size`` at a time (bounded memory).

        ``fields`` restricts the keys returned (``url`` always included); ``body`` is only read
        when asked for. Safe to call ``update_fields`` on yielded records while iterating.
        """
        where = StoreFilter(publications=(publication,) if publication is not None else ())
        return self.query_articles(where, fields, batch_size=batch_size)

    @abstractmethod
    def update_fields(self, url: str, fields: Mapping[str, Any]) -> bool:
        """Set some fields of a stored record; False when the URL is not stored."""

    @abstractmethod
    def unlabelled_urls(self) -> list[str]:
        """URLs of records with text but no dedup label, in (fetched_at, url) order.

        Written during a dedup outage or re-imported from a spill file: the dedup stage labels and
        fingerprints them when the index can be reached again.
        """

    def distinct_values(self, field: str) -> set[str]:
        """The non-empty values one of :data:`INDEXED_FIELDS` takes (the known publications, languages).

        This default reads the field of every record; the backends answer from their index.
        """
        if field not in INDEXED_FIELDS:
            raise ValueError(f"{field!r} is not an indexed field")
        return {str(r[field]) for r in self.iter_articles(fields=[field]) if r.get(field) not in (None, "")}

    # --- spill files -----------------------------------------------------------------------------

    def import_spill(self) -> int:
        """Re-import the spill file left by an outage; renames it ``*.imported-<ts>`` when done."""
        from sacorpus.storage.spill import import_spill_file  # the spill module builds on this one

        restored = import_spill_file(self, self.spill_path)
        if isinstance(self, CommentStorage):
            restored += self.import_comment_spill()
        return restored


class RunState(Connection):
    """The state of runs: a small key/value state (feed poll state, Wayback windows done, ...), one
    health record per publication and run (``scrapy health`` reads them), and the lock that keeps two
    runs of one spider off the same store."""

    @abstractmethod
    def get_state(self, key: str) -> dict[str, Any] | None: ...

    @abstractmethod
    def set_state(self, key: str, value: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def add_run_record(self, record: Mapping[str, Any]) -> None:
        """Append a run's health record (plain JSON values; ``publication`` and ``finished_at`` set)."""

    @abstractmethod
    def run_records(self, publication: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """The newest ``limit`` health records (of one publication), newest ``finished_at`` first."""

    @abstractmethod
    def add_source_candidates(self, sightings: list[Mapping[str, Any]]) -> None:
        """Merge a run's sightings of other sites' feeds and sitemaps (``scrapy sources --candidates``).

        Each sighting: ``url``, ``kind``, ``host``, ``count``, ``first_seen``, ``last_seen`` (stored UTC
        form), ``seen_on`` (a page that links it) and ``publication``. Counts add up, first/last seen
        widen, publications collect; two runs merging at once lose no count.
        """

    @abstractmethod
    def source_candidates(self, sort: str = "count", limit: int = 100) -> list[dict[str, Any]]:
        """Recorded candidates, sorted by one of :data:`CANDIDATE_SORTS` (count: most seen first)."""

    @abstractmethod
    def acquire_run_lock(self, name: str, holder: str, seconds: float) -> str | None:
        """Take the lock ``name`` for ``holder``: None when taken (or already ours), else who holds it.

        A lock of a process that died must not stay stuck: it ends with the process, or after
        ``seconds`` unless :meth:`renew_run_lock` extends it.
        """

    @abstractmethod
    def renew_run_lock(self, name: str, holder: str, seconds: float) -> bool:
        """Extend ``holder``'s lock by ``seconds`` from now; False when it is no longer ours."""

    @abstractmethod
    def release_run_lock(self, name: str, holder: str) -> None:
        """Give the lock up (nothing happens when ``holder`` does not hold it)."""


class CommentStorage(Connection):
    """Reader comments by ``url`` (their permalink), and the poll state of their threads.

    Kept apart from the articles (their own table or collection): the corpus commands read one register
    or the other (``--comments`` / ``--articles``) and never mix their counts.
    """

    spill_path: str | None = None

    @abstractmethod
    def upsert_comments(self, records: list[dict[str, Any]]) -> dict[str, int]:
        """Insert or update each record by ``url`` (see ``comment_records.merge_comment``); returns how many were
        ``new``, ``updated`` and ``unchanged``."""

    @abstractmethod
    def get_comment(self, url: str) -> dict[str, Any] | None: ...

    @abstractmethod
    def has_comments(self, urls: Iterable[str]) -> set[str]:
        """The subset of comment ``urls`` already stored."""

    @abstractmethod
    def count_comments(self, publication: str | None = None) -> int: ...

    @abstractmethod
    def iter_comments(
        self,
        publication: str | None = None,
        fields: Iterable[str] | None = None,
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """All comments grouped by article, oldest first within a thread, ``batch_size`` at a time."""

    @abstractmethod
    def get_thread(self, key: str) -> dict[str, Any] | None:
        """The poll state of one thread (see :mod:`sacorpus.sources.comment_threads`)."""

    @abstractmethod
    def set_thread(self, record: Mapping[str, Any]) -> None:
        """Insert or replace a thread's poll state by ``key`` (``publication``, ``article_url``,
        ``done`` and ``next_poll`` are queried)."""

    @abstractmethod
    def due_threads(self, publication: str, now: str, limit: int = 1000) -> list[dict[str, Any]]:
        """Threads of ``publication`` not done whose ``next_poll`` is at or before ``now``, oldest due first."""

    @abstractmethod
    def articles_with_threads(self, article_urls: Iterable[str]) -> set[str]:
        """The subset of ``article_urls`` whose comment threads are known (found once already)."""

    def import_comment_spill(self) -> int:
        """Re-import the comments spilled during an outage, exactly as spilled (the spill module's rules)."""
        from sacorpus.storage.comment_records import CommentSpillView, comment_spill_path
        from sacorpus.storage.spill import import_spill_file

        return import_spill_file(CommentSpillView(self), comment_spill_path(self.spill_path))


class ArticleStore(ArticleStorage, RunState, DedupIndex, CommentStorage, Relabels):
    """A storage backend: articles, run state, the dedup index and reader comments behind one connection.

    Components depend on the part they use (:class:`ArticleStorage`, :class:`RunState`,
    :class:`DedupIndex`); a backend implements all three and passes the one contract suite.
    """
