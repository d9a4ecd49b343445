"""What every corpus command shares: filter options, streaming from the store with progress, output.

Why here and not in sacorpus/commands/: Scrapy turns every ScrapyCommand subclass found in the
commands package into a command, so the shared plumbing - including the :class:`CorpusCommand` base
class - lives here and the command modules keep only what is their own. Nothing here imports Scrapy
(see :mod:`sacorpus.corpus.command`): the ``sacorpus`` command line runs these without it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from sacorpus.corpus.command import Command, UsageError
from sacorpus.corpus.comments import ARTICLES, COMMENTS, add_register_options, register_of, register_readers
from sacorpus.corpus.filters import ArticleFilter, FilterError, fields_with_filter
from sacorpus.corpus.gzip_output import ThreadedGzipWriter
from sacorpus.corpus.known import check_filter_values
from sacorpus.storage.base import ArticleStore, StorageError


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
    substrings: Sequence[str] = (),
    tokens: Sequence[str] = (),
    register: str = ARTICLES,
) -> Generator[dict[str, Any], None, None]:
    """Stream the records passing ``flt`` with a tqdm bar on stderr (total: the store's count).

    Memory stays bounded by the store's batch size: records are yielded one at a time. Closing the
    generator early (a ``--limit`` reached) closes the bar and the store cursor. The store applies
    the filter in its query and narrows by its search index to the articles containing every one of
    ``substrings`` and ``tokens``; each record is still checked here, so the result is that of a full
    scan. ``register`` reads the articles or the readers' comments (:mod:`sacorpus.corpus.comments`),
    which have no search index and are read whole, publication-narrowed.
    """
    from tqdm import tqdm

    counts = counts if counts is not None else ScanCounts()
    publication = flt.store_publication
    count, read = register_readers(store, register)
    indexed = register == ARTICLES
    total = count(publication) if progress and not (indexed and (substrings or tokens)) else None
    with tqdm(
        total=total,
        desc=desc,
        unit=" art",
        disable=not progress,
        file=sys.stderr,
        mininterval=0.5,
        leave=False,
    ) as bar:
        records = (
            store.query_articles(
                flt.store_filter(),
                fields_with_filter(fields),
                substrings=substrings,
                tokens=tokens,
                batch_size=batch_size,
            )
            if indexed
            else read(publication=publication, fields=fields_with_filter(fields), batch_size=batch_size)
        )
        for record in records:
            counts.scanned += 1
            bar.update(1)
            if flt.matches(record):
                counts.matched += 1
                yield record


def report_scan(flt: ArticleFilter, counts: ScanCounts, what: str = "articles") -> None:
    """One line on stderr: what was read, what matched, and why the rest was skipped."""
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(flt.rejected.items()))
    described = flt.describe().replace("articles", "comments") if "comments" in what else flt.describe()
    line = f"{counts.matched} {what} of {counts.scanned} read ({described})"
    if skipped:
        line += f"; skipped by filter: {skipped}"
    print(line, file=sys.stderr)


class TextSink(Protocol):
    """Where a command writes its text (stdout, a file, a gzip file)."""

    def write(self, text: str, /) -> int: ...


@contextlib.contextmanager
def open_text_output(path: str | None) -> Iterator[TextSink]:
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
            # level 6 (the gzip tool's default): ~3x faster than Python's default 9, a few % larger;
            # compressed on a thread of its own, beside the formatting (sacorpus.corpus.gzip_output)
            with ThreadedGzipWriter(partial, level=6) as gz:
                yield gz
        else:
            with partial.open("w", encoding="utf-8", newline="\n") as fh:
                yield fh
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)


def check_store_exists(store: ArticleStore) -> None:
    """Refuse to read an SQLite file that does not exist (opening would create an empty one)."""
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
    from sacorpus.storage.base import setting, store_from_settings

    if hasattr(settings, "copy") and settings.get("SACORPUS_CORPUS_SQLITE_CACHE_MB") is not None:
        # a read streams rows once: a small page cache and memory map keep the resident memory low
        # (the crawl's larger cache serves the dedup index's random lookups)
        settings = settings.copy()
        settings.set(
            "SACORPUS_SQLITE_CACHE_MB", settings.getint("SACORPUS_CORPUS_SQLITE_CACHE_MB"), priority=50
        )
    uri = setting(settings, "MONGO_URI")
    if uri:  # a MongoDB store without TLS: pymongo need not import pyOpenSSL (mongo_tls)
        from sacorpus.storage.mongo_tls import skip_pyopenssl

        skip_pyopenssl(str(uri))
    store = store_from_settings(settings)
    check_store_exists(store)
    with store:
        yield store


class CorpusCommand(Command):
    """Template for the read-only corpus commands (export, search, kwic, wordlist, collocations, stats).

    Why a template: each of them checks its arguments, parses the article filter (a bad filter is a
    usage error), streams the store inside :func:`quiet_broken_pipe`, turns a storage failure into a
    message and exit code 1, and ends with :func:`report_scan`. A subclass fills the hooks:

    - :meth:`add_command_options` - its own options (the filter options are added after them);
    - :meth:`check_args` - positional arguments and option checks made before the filter is parsed;
    - :meth:`prepare` - state built from the options and the filter; the exception types in
      :attr:`option_errors` it raises become usage errors, like a bad filter;
    - :meth:`scan` - read the records (use :meth:`records`) and write the output;
    - :meth:`summarize` - lines on stderr after the scan report.

    The command's name (its module's name, as Scrapy names it) prefixes error messages and labels
    the progress bar.
    """

    #: the fields :meth:`records` reads from the store (None: all)
    fields: Sequence[str] | None = None
    #: what the scan report calls the articles that passed the filter
    scan_what: ClassVar[str] = "articles counted"
    #: option parsing errors (besides FilterError) reported as usage errors
    option_errors: ClassVar[tuple[type[Exception], ...]] = ()
    #: True when the command writes ``opts.output``: an OSError then means "cannot write"
    writes_output: ClassVar[bool] = False

    @property
    def name(self) -> str:
        return type(self).__module__.rsplit(".", 1)[-1]

    def add_command_line(self, parser: argparse.ArgumentParser) -> None:
        self.add_command_options(parser)
        add_register_options(parser)
        add_filter_options(parser)

    def add_command_options(self, parser: argparse.ArgumentParser) -> None:
        """The command's own options."""

    def check_args(self, args: list[str], opts: argparse.Namespace) -> None:
        """Raise UsageError for bad arguments; the default takes no positional arguments."""
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)}")

    def prepare(self, args: list[str], opts: argparse.Namespace, flt: ArticleFilter) -> None:
        """Build what :meth:`scan` needs; may raise UsageError or one of :attr:`option_errors`."""

    def scan(
        self, store: ArticleStore, flt: ArticleFilter, opts: argparse.Namespace, counts: ScanCounts
    ) -> None:
        raise NotImplementedError

    def summarize(self, opts: argparse.Namespace, flt: ArticleFilter) -> None:
        """Lines on stderr after the scan report; may set ``self.exitcode``."""

    def records(
        self,
        store: ArticleStore,
        flt: ArticleFilter,
        opts: argparse.Namespace,
        counts: ScanCounts,
        substrings: Sequence[str] = (),
        tokens: Sequence[str] = (),
    ) -> Generator[dict[str, Any], None, None]:
        """The filtered record stream of :attr:`fields`, with the progress bar unless --no-progress;
        narrowed by the store's index to articles containing every one of ``substrings`` (in the
        title or text) and ``tokens`` (whole tokens)."""
        return iter_store(
            store,
            flt,
            self.fields,
            progress=not opts.no_progress,
            desc=self.name,
            counts=counts,
            substrings=substrings,
            tokens=tokens,
            register=register_of(opts),
        )

    def fail(self, message: str) -> None:
        print(f"{self.name}: {message}", file=sys.stderr)
        self.exitcode = 1

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        self.check_args(args, opts)
        try:
            flt = ArticleFilter.from_options(opts)
            self.prepare(args, opts, flt)
        except (FilterError, *self.option_errors) as exc:  # type: ignore[misc]  # a tuple of classes
            raise UsageError(str(exc), print_help=False) from exc
        counts = ScanCounts()
        try:
            with quiet_broken_pipe(), open_corpus(self.settings) as store:
                check_filter_values(flt, store, self.settings)
                self.scan(store, flt, opts, counts)
        except FilterError as exc:  # a publication or language the corpus does not know
            raise UsageError(str(exc), print_help=False) from exc
        except StorageError as exc:
            self.fail(str(exc))
            return
        except OSError as exc:
            if not self.writes_output:
                raise
            self.fail(f"cannot write {opts.output}: {exc}")
            return
        except KeyboardInterrupt:
            unwritten = self.writes_output and getattr(opts, "output", "-") not in (None, "-")
            self.fail("interrupted (Ctrl-C)" + (f"; {opts.output} was not written" if unwritten else ""))
            self.exitcode = 130
            return
        comments = register_of(opts) == COMMENTS
        report_scan(
            flt, counts, self.scan_what.replace("articles", "comments") if comments else self.scan_what
        )
        self.summarize(opts, flt)
