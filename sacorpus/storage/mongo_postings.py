"""The MongoDB store's postings: for each search term, the keys (``_order``) of the articles holding it.

Why not an array of terms in each article: SecantusDB (a MongoDB-wire server in Python) decodes a
candidate document whole before it projects or filters it, and an article's terms (its distinct
tokens and the runs of its text, about a thousand strings) were most of what every read of an
article decoded, for every command, and most of the writing of its multikey index. Here a term's
articles are a few small documents: one per term and generation, ``{t: term, g: generation, k:
[article keys]}``. A generation is ``GENERATION_SIZE`` articles posted in turn (a counter in the
state, taken with one atomic ``$inc`` a write, so crawlers writing at once share it), so no
document grows with the corpus and a write appends to the documents of the newest generation only.
A search reads the documents of its term (an indexed equality on ``t``) and asks for the articles
by their keys, in order, a page at a time: it reads no article without the term.

An article rewritten is posted under the terms it gains, and its key is pulled from the terms it
lost after the article is written (a search never misses an article that holds its term); one
moved to another key (a new ``fetched_at``) is posted whole under the new key. A rewrite with the
same terms (``scrapy compact``) writes no postings. ``scrapy compact`` rebuilds them when the search
index is not ready.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pymongo import ASCENDING, ReturnDocument, UpdateMany, UpdateOne

from sacorpus.storage.mongo_counts import in_requests

logger = logging.getLogger(__name__)

POSTINGS = "postings"
#: the state document counting the articles posted (its value picks a write's generation)
POSTED_STATE = "postings:posted"
#: articles a generation: a term's document holds at most this many keys (more if a write straddles)
GENERATION_SIZE = 2000
#: terms a lookup request (SecantusDB answers ``$in`` in time growing faster than the list)
TERMS_PER_REQUEST = 100


def order_key(record: Mapping[str, Any]) -> str:
    """An article's ``_order``: one indexed key for (fetched_at, url) order, unique as the URL."""
    return f"{record.get('fetched_at') or ''}\t{record['url']}"


def create_posting_indexes(db: Any) -> None:
    db[POSTINGS].create_index([("t", ASCENDING)])


def post(db: Any, entries: Sequence[tuple[str, Iterable[str]]]) -> None:
    """Add each (article key, its terms) to the postings of the current generation."""
    if not entries:
        return
    state = db.state.find_one_and_update(
        {"_id": POSTED_STATE},
        {"$inc": {"value": len(entries)}},
        upsert=True,
        return_document=ReturnDocument.AFTER,
    )
    generation = (int(state["value"]) - len(entries)) // GENERATION_SIZE
    keys_of: dict[str, list[str]] = {}
    for key, terms in entries:
        for term in terms:
            keys = keys_of.get(term)
            if keys is None:
                keys_of[term] = [key]
            else:
                keys.append(key)
    ops = [
        UpdateOne(
            {"_id": f"{generation}\x1f{term}"},
            {"$push": {"k": {"$each": keys}}, "$setOnInsert": {"t": term, "g": generation}},
            upsert=True,
        )
        for term, keys in keys_of.items()
    ]
    in_requests(db[POSTINGS], ops, [len(keys) for keys in keys_of.values()])


#: (key, terms) to post, and term -> keys to pull from it
Changes = tuple[list[tuple[str, list[str]]], dict[str, list[str]]]


def posting_changes(
    articles: Iterable[tuple[str | None, Sequence[str], str, Sequence[str]]],
) -> Changes:
    """What rewriting articles changes in the postings, from each article's (old key or None, old
    terms, key, terms): its terms not yet posted under its key, and the old terms it lost."""
    added: list[tuple[str, list[str]]] = []
    removed: dict[str, list[str]] = {}
    for old_key, old_terms, key, terms in articles:
        if old_key == key:
            had = set(old_terms)
            now = set(terms)
            new = [t for t in terms if t not in had]
            gone = [t for t in old_terms if t not in now]
        else:
            new, gone = list(terms), list(old_terms)
        if new:
            added.append((key, new))
        if old_key is not None:
            for term in gone:
                removed.setdefault(term, []).append(old_key)
    return added, removed


def pull(db: Any, removed: Mapping[str, list[str]]) -> None:
    """Take the keys off the postings of each term (every generation of it)."""
    ops = [UpdateMany({"t": term}, {"$pull": {"k": {"$in": keys}}}) for term, keys in removed.items()]
    in_requests(db[POSTINGS], ops, [len(keys) for keys in removed.values()])


def posted_keys(db: Any, terms: Sequence[str]) -> list[str]:
    """The keys of the articles posted under any of ``terms``, sorted (``_order`` order)."""
    keys: set[str] = set()
    for start in range(0, len(terms), TERMS_PER_REQUEST):
        part = list(terms[start : start + TERMS_PER_REQUEST])
        query = {"t": part[0]} if len(part) == 1 else {"t": {"$in": part}}
        for doc in db[POSTINGS].find(query, {"k": 1, "_id": 0}):
            keys.update(doc.get("k") or ())
    return sorted(keys)


def clear_postings(db: Any) -> None:
    db[POSTINGS].delete_many({})
    db.state.delete_one({"_id": POSTED_STATE})


def convert_terms(db: Any, ready_key: str, batch_size: int = 500) -> None:
    """Move the ``terms`` arrays of articles of the older layout into the postings (once a store).

    The search index is marked not ready while it runs and ready again after (when it was), before
    the arrays are removed: a conversion cut short posts the remaining arrays at the next open (the
    postings are a superset: posting an article twice is harmless).
    """
    if db.articles.find_one({"terms": {"$exists": True}}, {"_id": 1}) is None:
        return
    logger.info("moving the search terms out of the articles into postings (once per store)")
    was_ready = db.state.find_one({"_id": ready_key}) is not None
    db.state.delete_one({"_id": ready_key})
    batch: list[tuple[str, list[str]]] = []
    for doc in db.articles.find({"terms": {"$exists": True}}, {"_order": 1, "terms": 1, "_id": 0}):
        if "_order" in doc:
            batch.append((doc["_order"], doc.get("terms") or []))
        if len(batch) >= batch_size:
            post(db, batch)
            batch = []
    post(db, batch)
    if was_ready:
        db.state.update_one({"_id": ready_key}, {"$set": {"value": True}}, upsert=True)
    db.articles.update_many({"terms": {"$exists": True}}, {"$unset": {"terms": ""}})
    if "terms_1" in db.articles.index_information():
        db.articles.drop_index("terms_1")
