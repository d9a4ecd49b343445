"""The MongoDB store's kept word counts: one document per count key and word bucket, words as fields.

Why not a document per (key, word): at 10,000 articles that is 3.6 million documents, written one
upsert each (most of a store's build time on SecantusDB, hours at 100,000 articles), and a word list
of one publication over two years read several hundred thousand of them. Here a key's words are
spread over ``BUCKETS`` documents by a stable hash of the word, each holding ``{word: count}`` in
``c``: a batch of writes changes each touched document with one ``$inc`` of many fields (atomic per
document, so two crawlers adding at once lose nothing), and a word list reads ``BUCKETS`` documents a
key. 32 buckets keep a document under MongoDB's 16 MiB up to about 20 million distinct words in one
key. A field name cannot hold ``.`` or start with ``$``: words are escaped (``%`` codes), reversibly.

A count that falls to 0 is removed from its document by one pipeline update per lowered document.
Stores written with the older layout (``word_counts``, a document per word) are converted when the
store opens: the counts are marked not ready, converted, marked ready, and the old collection dropped
last, so a conversion cut short is started again from the old collection at the next open.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pymongo import ASCENDING, DeleteOne, UpdateMany, UpdateOne

from sacorpus.storage.counts import CountDelta, CountKey

logger = logging.getLogger(__name__)

#: documents a count key's words are spread over
BUCKETS = 32
#: the collection of the word count documents (``word_counts`` held the older layout)
WORDS = "key_words"
LEGACY = "word_counts"
KEY_FIELDS = ("p", "m", "l", "d")
#: Count changes are written at most this many a request. A batch of 500 articles changes tens of
#: thousands of counts; in one request a single-threaded server (SecantusDB) is busy long enough to miss
#: the client's heartbeat, and the client then cancels the write as if the server had gone.
COUNT_OPS_PER_REQUEST = 5000
#: word count documents a read asks for by id at once: SecantusDB answers ``$in`` in time growing
#: faster than the list (a publication's word list over two years, 1,000 articles: 1.0 s of server
#: CPU in requests of 100 ids, 0.68 s in requests of 25, 2.7 s in requests of 400)
IDS_PER_REQUEST = 25


def escape(word: str) -> str:
    """A word as a field name: ``%``, ``.`` and ``$`` written as ``%25``, ``%2E``, ``%24``."""
    if "%" in word or "." in word or "$" in word:
        return word.replace("%", "%25").replace(".", "%2E").replace("$", "%24")
    return word


def unescape(name: str) -> str:
    if "%" not in name:
        return name
    # every "%" starts a code of three characters: "%25" last, so "%252E" is the word "%2E"
    return name.replace("%2E", ".").replace("%24", "$").replace("%25", "%")


def bucket(word: str) -> int:
    return zlib.crc32(word.encode("utf-8", "surrogatepass")) % BUCKETS


def key_id(key: Sequence[Any]) -> str:
    return "\x1f".join(map(str, key))


def create_word_indexes(db: Any) -> None:
    db[WORDS].create_index([(k, ASCENDING) for k in KEY_FIELDS])


def in_requests(
    collection: Any, ops: Sequence[UpdateOne | UpdateMany | DeleteOne], sizes: Sequence[int]
) -> None:
    """``ops`` (independent of each other: unordered) in requests of at most COUNT_OPS_PER_REQUEST
    count changes (``sizes``: the changes of each op, none above the bound)."""
    start, changes = 0, 0
    for i, size in enumerate(sizes):
        if i > start and changes + size > COUNT_OPS_PER_REQUEST:
            collection.bulk_write(ops[start:i], ordered=False)
            start, changes = i, 0
        changes += size
    if start < len(ops):
        collection.bulk_write(ops[start:], ordered=False)


def _by_document(
    changes: Iterator[tuple[CountKey, str, int]],
) -> tuple[dict[tuple[Any, ...], dict[str, int]], set[tuple[Any, ...]]]:
    """The changes summed per word count document (key and bucket), and the documents lowered."""
    incs: dict[tuple[Any, ...], dict[str, int]] = {}
    lowered: set[tuple[Any, ...]] = set()
    for key, word, n in changes:
        doc_key = (*key, bucket(word))
        fields = incs.get(doc_key)
        if fields is None:
            fields = incs[doc_key] = {}
        name = "c." + escape(word)
        fields[name] = fields.get(name, 0) + n
        if n < 0:
            lowered.add(doc_key)
    return incs, lowered


def insert_word_counts(db: Any, changes: Iterator[tuple[CountKey, str, int]]) -> None:
    """Write the counts of a store that has none yet as whole documents (a bulk load: ``insert_many``
    instead of an ``$inc`` a field)."""
    incs, _lowered = _by_document(changes)
    docs = []
    for doc_key, fields in incs.items():
        counts = {name[2:]: n for name, n in fields.items() if n > 0}
        docs.append(
            {"_id": key_id(doc_key), **dict(zip((*KEY_FIELDS, "b"), doc_key, strict=True)), "c": counts}
        )
    for start in range(0, len(docs), 100):
        db[WORDS].insert_many(docs[start : start + 100], ordered=False)


def write_word_changes(db: Any, changes: Iterator[tuple[CountKey, str, int]]) -> None:
    """Add each (key, word, change) to the word count documents; then drop the counts that fell to 0."""
    incs, lowered = _by_document(changes)
    ops, sizes = [], []
    for doc_key, fields in incs.items():
        names = dict(zip((*KEY_FIELDS, "b"), doc_key, strict=True))
        changed = [(name, n) for name, n in fields.items() if n]
        for start in range(0, len(changed), COUNT_OPS_PER_REQUEST):  # no request above the bound
            part = dict(changed[start : start + COUNT_OPS_PER_REQUEST])
            ops.append(UpdateOne({"_id": key_id(doc_key)}, {"$inc": part, "$set": names}, upsert=True))
            sizes.append(len(part))
    in_requests(db[WORDS], ops, sizes)
    positive = {"$filter": {"input": {"$objectToArray": "$c"}, "cond": {"$gt": ["$$this.v", 0]}}}
    tidy = [UpdateOne({"_id": key_id(k)}, [{"$set": {"c": {"$arrayToObject": positive}}}]) for k in lowered]
    in_requests(db[WORDS], tidy, [1] * len(tidy))


def read_words(db: Any, query: Mapping[str, Any]) -> Iterator[tuple[CountKey, dict[str, int]]]:
    """(key, {word: count}) of each word count document matching ``query`` (a key may come again)."""
    for doc in db[WORDS].find(query, {"c": 1, "p": 1, "m": 1, "l": 1, "d": 1, "_id": 0}):
        key = (doc["p"], doc["m"], doc["l"], doc["d"])
        yield key, {unescape(name): int(n) for name, n in (doc.get("c") or {}).items() if n > 0}


def read_words_of_keys(db: Any, keys: Sequence[Sequence[Any]]) -> Iterator[dict[str, int]]:
    """{word: count} of each word count document of these keys, looked up by document id.

    Why by id and not by the key fields: SecantusDB narrows a query on the key fields by its first
    field only (a publication over two years read every month of it); an ``_id`` is a point lookup.
    """
    ids = [key_id((*key, b)) for key in keys for b in range(BUCKETS)]
    for start in range(0, len(ids), IDS_PER_REQUEST):
        part = ids[start : start + IDS_PER_REQUEST]
        for doc in db[WORDS].find({"_id": {"$in": part}}, {"c": 1, "_id": 0}):
            yield {unescape(name): int(n) for name, n in (doc.get("c") or {}).items() if n > 0}


def convert_legacy(db: Any, ready_key: str) -> None:
    """Move the counts of the older document-per-word layout into the word count documents (once)."""
    if LEGACY not in db.list_collection_names():
        return
    logger.info("moving the kept word counts to one document per key and word bucket (once per store)")
    was_ready = db.state.find_one({"_id": ready_key}) is not None
    db.state.delete_one({"_id": ready_key})
    db[WORDS].delete_many({})
    delta = CountDelta()
    for doc in db[LEGACY].find({}, {"_id": 0}):
        delta.words[((doc["p"], doc["m"], doc["l"], doc["d"]), doc["w"])] += int(doc["n"])
        if len(delta.words) >= 100_000:
            write_word_changes(db, delta.changes())
            delta = CountDelta()
    write_word_changes(db, delta.changes())
    if was_ready:
        db.state.update_one({"_id": ready_key}, {"$set": {"value": True}}, upsert=True)
    db.drop_collection(LEGACY)
