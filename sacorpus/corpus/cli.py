"""What every corpus command shares: filter options, streaming from the store with progress, output.

Why here and not in sacorpus/commands/: Scrapy turns every ScrapyCommand subclass found in the
commands package into a command, so shared plumbing lives in this Scrapy-free module (argparse,
tqdm, the storage protocol) and the command classes stay thin.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from sacorpus.corpus.filters import ArticleFilter, fields_with_filter
from sacorpus.storage.base import ArticleStore


def add_filter_options(parser: argparse.ArgumentParser) -> None:
    """--publication, --language, --since, --until, --exclude-duplicates, --no-progress."""
    group = parser.add_argument_group("Article filters")
    group.add_argument(
        "--publication",
        action="append",
        metavar="SLUG",
        help="only these publications (repeat or comma-separate)",
    )
    group.add_argument(
        "--language",
        action="append",
        metavar="CODE",
        help="only these languages, e.g. en, af, zu (repeat or comma-separate)",
    )
    group.add_argument("--since", metavar="DATE", help="published on/after (YYYY[-MM[-DD]], UTC)")
    group.add_argument("--until", metavar="DATE", help="published on/before (YYYY[-MM[-DD]], UTC, inclusive)")
    group.add_argument(
        "--exclude-duplicates",
        action="store_true",
        help='skip articles labelled dedup_label == "duplicate"',
    )
    group.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


@dataclass
class ScanCounts:
    """How many records a command read and how many passed the filter (shown on stderr at the end)."""

    scanned: int = 0
    matched: int = 0


def iter_store(
    store: ArticleStore,
    flt: ArticleFilter,
    fields: Sequence[str] | None,
    *,
    progress: bool = True,
    desc: str = "articles",
    counts: ScanCounts | None = None,
    batch_size: int = 500,
) -> Iterator[dict[str, Any]]:
    """Stream the records passing ``flt`` with a tqdm bar on stderr (total: the store's count).

    Memory stays bounded by the store's batch size: records are yielded one at a time. Closing the
    generator early (a ``--limit`` reached) closes the bar and the store cursor.
    """
    counts = counts if counts is not None else ScanCounts()
    publication = flt.store_publication
    total = store.count(publication) if progress else None
    with tqdm(
        total=total,
        desc=desc,
        unit=" art",
        disable=not progress,
        file=sys.stderr,
        mininterval=0.5,
        leave=False,
    ) as bar:
        for record in store.iter_articles(
            publication=publication, fields=fields_with_filter(fields), batch_size=batch_size
        ):
            counts.scanned += 1
            bar.update(1)
            if flt.matches(record):
                counts.matched += 1
                yield record


def report_scan(flt: ArticleFilter, counts: ScanCounts, what: str = "articles") -> None:
    """One line on stderr: what was read, what matched, and why the rest was skipped."""
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(flt.rejected.items()))
    line = f"{counts.matched} {what} of {counts.scanned} read ({flt.describe()})"
    if skipped:
        line += f"; skipped by filter: {skipped}"
    print(line, file=sys.stderr)


@contextlib.contextmanager
def open_text_output(path: str | None) -> Iterator[TextIO]:
    """A text stream for ``path``: stdout for None or "-", gzip when the name ends with .gz.

    A file is written as ``<name>.part`` and renamed when complete, so an interrupted export never
    leaves a truncated file under the final name.
    """
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    try:
        if target.suffix == ".gz":
            # level 6 (the gzip tool's default): ~3x faster than Python's default 9, a few % larger
            with gzip.open(partial, "wt", compresslevel=6, encoding="utf-8", newline="\n") as fh:
                yield fh
        else:
            with partial.open("w", encoding="utf-8", newline="\n") as fh:
                yield fh
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)


def check_store_exists(store: ArticleStore) -> None:
    """Refuse to read an SQLite file that does not exist (opening would create an empty one)."""
    from sacorpus.storage.base import StorageError
    from sacorpus.storage.sqlite import SQLiteStore

    if isinstance(store, SQLiteStore) and store.path != ":memory:" and not Path(store.path).exists():
        raise StorageError(f"no corpus at {store.path} (set SACORPUS_SQLITE_PATH, or MONGO_URI for MongoDB)")


@contextlib.contextmanager
def quiet_broken_pipe() -> Iterator[None]:
    """``scrapy kwic x | head`` closes stdout early: stop quietly instead of a traceback."""
    try:
        yield
    except BrokenPipeError:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


@contextlib.contextmanager
def open_corpus(settings: Any) -> Iterator[ArticleStore]:
    """The configured store (SACORPUS_STORE), opened for reading; raises StorageError."""
    from sacorpus.storage.base import store_from_settings

    store = store_from_settings(settings)
    check_store_exists(store)
    with store:
        yield store
