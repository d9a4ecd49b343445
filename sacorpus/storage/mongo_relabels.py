"""The MongoDB store's relabels in bulk: ``update_labels`` and ``relabelling`` (see ``relabels.py``).

Why: ``scrapy dedup --rebuild`` wrote one ``update_one`` per relabelled article, read its stored tokens
and wrote its count move as one more bulk request, article by article. Here a batch of labels is one
unordered ``bulk_write`` of ``UpdateOne`` (after one read of the batch's count-key fields, no tokens);
inside :meth:`MongoRelabels.relabelling` the count key each article had before its first relabel is
noted, and on the way out only the articles whose key really changed are read (their tokens, in
chunks) and moved, the moves summed into one write of the counts. MongoDB has no transaction here:
the notes live in the process, and the counts are settled even when the relabelling fails; a process
killed in between leaves the counts of its relabels unmoved (``scrapy wordlist --check`` names them,
``--rebuild-counts`` repairs them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pymongo import UpdateOne
from pymongo.errors import PyMongoError

from sacorpus.storage.base import LABEL_FIELDS, StorageError
from sacorpus.storage.counts import CountDelta, CountKey, count_key
from sacorpus.storage.mongo_dedup import IN_CHUNK
from sacorpus.storage.mongo_index import COUNTS_READY

#: the count key's fields, read before a batch of labels is written
_KEY_FIELDS = ("url", "publication", "published_at", "language", "dedup_label")
#: label updates per bulk request
LABEL_OPS_PER_REQUEST = 1000


class MongoRelabels:
    """Mixin of MongoStore: labels in bulk, count moves settled once per :meth:`relabelling`."""

    _moves: dict[str, CountKey] | None = None
    _ready: dict[str, bool]
    # provided by MongoStore and its mixins (annotations: nothing here shadows them)
    db: Any
    _failure: Callable[..., StorageError]
    _apply_delta: Callable[[CountDelta], None]
    _previous: Callable[[list[str]], dict[str, dict[str, Any]]]
    update_fields: Callable[[str, Mapping[str, Any]], bool]

    @contextmanager
    def relabelling(self) -> Iterator[None]:
        if self._moves is not None:
            yield
            return
        self._moves = {}
        try:
            yield
        finally:
            moves, self._moves = self._moves, None
            self._settle_moves(moves)

    def update_labels(self, labels: Mapping[str, Mapping[str, Any]]) -> int:
        if any(set(fields) - set(LABEL_FIELDS) for fields in labels.values()):
            return sum(1 for url, fields in labels.items() if self.update_fields(url, fields))
        urls = list(labels)
        stored = 0
        with self.relabelling():
            assert self._moves is not None
            try:
                for start in range(0, len(urls), LABEL_OPS_PER_REQUEST):
                    chunk = urls[start : start + LABEL_OPS_PER_REQUEST]
                    before = self._count_keys(chunk)
                    ops = [UpdateOne({"url": url}, {"$set": dict(labels[url])}) for url in chunk]
                    stored += self.db.articles.bulk_write(ops, ordered=False).matched_count
                    for url, (key, doc) in before.items():
                        if count_key({**doc, **labels[url]}) != key:
                            self._moves.setdefault(url, key)
            except PyMongoError as exc:
                raise self._failure(exc, f"relabel of {len(urls)} articles failed") from exc
        return stored

    def _count_keys(self, urls: list[str]) -> dict[str, tuple[CountKey, dict[str, Any]]]:
        """The count key (and its fields) of each stored article of ``urls``; none when no counts are kept."""
        if not self._ready.get(COUNTS_READY):
            return {}
        found = {}
        for start in range(0, len(urls), IN_CHUNK):
            query = {"url": {"$in": urls[start : start + IN_CHUNK]}}
            for doc in self.db.articles.find(query, dict.fromkeys(_KEY_FIELDS, 1)):
                found[doc["url"]] = (count_key(doc), doc)
        return found

    def _settle_noted(self, urls: Iterable[str]) -> None:
        """Articles about to be written whole or relabelled one at a time: their noted moves first
        (their counts are under the noted key, where the write would not look)."""
        if self._moves:
            noted = {url: self._moves.pop(url) for url in urls if url in self._moves}
            if noted:
                self._settle_moves(noted)

    def _settle_moves(self, moves: dict[str, CountKey]) -> None:
        """Move the counts of the noted articles whose key changed, summed into one write."""
        delta = CountDelta()
        urls = list(moves)
        try:
            for start in range(0, len(urls), IN_CHUNK):
                for url, record in self._previous(urls[start : start + IN_CHUNK]).items():
                    now = count_key(record)
                    if now != moves[url]:
                        tokens = record.get("tokens")
                        delta.move(tokens if isinstance(tokens, list) else [], moves[url], now)
            self._apply_delta(delta)
        except PyMongoError as exc:
            raise self._failure(
                exc, f"the word counts of {len(moves)} relabelled articles were not moved (--rebuild-counts)"
            ) from exc


__all__ = ["LABEL_OPS_PER_REQUEST", "MongoRelabels"]
