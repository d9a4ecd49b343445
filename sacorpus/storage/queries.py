"""The corpus queries of the storage protocol: filtered reads narrowed by a search index, grouped
sums, kept word counts, and the steps of rebuilding those indexes.

Why defaults here: a backend without an index still answers every query correctly by reading the
articles (the defaults below); SQLite and MongoDB override them with their indexes, and both pass the
contract tests in tests/storage/. Why a mixin of its own: the protocol module stays small.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from sacorpus.storage.counts import CountDelta, KeptCount, StoreFilter, WordCounts

#: what :meth:`CorpusQueries.group_counts` reads of an article
GROUP_FIELDS = (
    "url",
    "publication",
    "published_at",
    "language",
    "dedup_label",
    "page_type",
    "token_count",
    "word_count",
)


class CorpusQueries:
    """Mixin of :class:`sacorpus.storage.base.ArticleStorage`."""

    def iter_articles(
        self, publication: str | None = None, fields: Iterable[str] | None = None, batch_size: int = 500
    ) -> Iterator[dict[str, Any]]:
        raise NotImplementedError

    def query_articles(
        self,
        where: StoreFilter,
        fields: Iterable[str] | None = None,
        *,
        substrings: Iterable[str] = (),
        tokens: Iterable[str] = (),
        batch_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """Records passing ``where`` in (fetched_at, url) order, possibly narrowed to those whose title
        or text contain every one of ``substrings`` (case-insensitive) and whose tokens include every
        one of ``tokens`` (casefolded).

        A superset: callers check each record themselves (dates in older forms, short substrings).
        """
        single = where.publications[0] if len(where.publications) == 1 else None
        return self.iter_articles(publication=single, fields=fields, batch_size=batch_size)

    def group_counts(self, where: StoreFilter, period: int = 7) -> list[tuple[Any, ...]]:
        """Articles, tokens and words per (publication, month, language, dedup_label, page_type) of
        the articles passing ``where``: rows of those five values then the three sums; the month is
        the first seven characters of ``published_at`` (the caller checks it is one); ``period=10``
        groups by day instead (the browser's daily chart)."""
        groups: dict[tuple[Any, ...], list[int]] = {}
        for record in self.query_articles(where, GROUP_FIELDS):
            published = record.get("published_at")
            key = (
                record.get("publication"),
                published[:period] if isinstance(published, str) else None,
                record.get("language"),
                record.get("dedup_label"),
                record.get("page_type"),
            )
            totals = groups.setdefault(key, [0, 0, 0])
            totals[0] += 1
            totals[1] += int(record.get("token_count") or 0)
            totals[2] += int(record.get("word_count") or 0)
        return [(*k, *v) for k, v in groups.items()]

    def word_counts(self, where: StoreFilter) -> WordCounts | None:
        """The word list of the articles passing ``where`` from kept counts; None when the counts are
        not built or cannot answer the filter (a date bound finer than a month)."""
        return None

    def index_ready(self, name: str) -> bool:
        """True when the index ``name`` (``index:fts``, ``index:word_counts``) covers every article."""
        return False

    def iter_kept_counts(self) -> Iterator[KeptCount]:
        """Every kept count, streamed: ``(key, word, (n,))`` a word, ``(key, None, (articles, tokens,
        words))`` a key's totals (compared with a recount by ``scrapy wordlist --check``)."""
        raise NotImplementedError

    def kept_counts(self) -> CountDelta:
        """Every kept count in memory (small stores and tests; the check streams them)."""
        delta = CountDelta()
        for key, word, values in self.iter_kept_counts():
            if word is None:
                delta.totals[key] = list(values)
            else:
                delta.words[(key, word)] = values[0]
        return delta

    def _reset_indexes(self, names: Iterable[str]) -> None:
        """Empty these indexes and mark them not ready (before a rebuild)."""
        raise NotImplementedError

    def _index_batch(self, records: Sequence[Mapping[str, Any]], names: Iterable[str]) -> None:
        """Add a batch of stored articles to these indexes (being rebuilt)."""
        raise NotImplementedError

    def _mark_ready(self, names: Iterable[str]) -> None:
        raise NotImplementedError

    def reclaim_space(self) -> None:
        """Give the space freed by rewrites back to the file system (SQLite VACUUM; a no-op elsewhere)."""
