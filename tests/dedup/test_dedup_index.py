"""dedup_article against a real store index (both backends), and rebuild == ingest."""

from __future__ import annotations

import dataclasses
import random
import threading

from sacorpus.items import Article
from sacorpus.pipelines.dedup import apply_result
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.dedup import DedupConfig, dedup_article, hash64, normalize_text, order_key, precedes
from sacorpus.text.dedup_labels import Labeller
from sacorpus.text.dedup_rebuild import rebuild_index

SUBJECTS = [
    "The minister",
    "Residents of Soweto",
    "The city council",
    "Eskom",
    "The Springboks coach",
    "Police in Durban",
    "The reserve bank",
    "Opposition leaders",
    "Farmers in the Free State",
    "Teachers",
]
VERBS = [
    "announced",
    "rejected",
    "welcomed",
    "criticised",
    "postponed",
    "approved",
    "investigated",
    "debated",
]
OBJECTS = [
    "a new budget for clinics",
    "the load shedding schedule",
    "plans for a stadium",
    "the water tariffs",
    "a report on corruption",
    "the taxi strike",
    "the matric results",
    "a housing project in Gqeberha",
]
BOILER = "Subscribe to our newsletter for the latest news from around the country."


def story(rng: random.Random, n: int = 12) -> list[str]:
    return [
        f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} on day {rng.randint(1, 9999)}."
        for _ in range(n)
    ]


def text(sentences: list[str]) -> str:
    return "\n".join(" ".join(sentences[i : i + 3]) for i in range(0, len(sentences), 3))


def test_labels_and_evidence(index_store: ArticleStore) -> None:
    rng = random.Random(7)
    cfg = DedupConfig()
    a = story(rng)
    first = dedup_article(index_store, "https://iol.co.za/news/a-1", text(a), config=cfg)
    assert first.label == "unique" and first.evidence == []

    # syndicated elsewhere, same text: exact duplicate (across publications)
    exact = dedup_article(index_store, "https://citizen.co.za/x/9", text(a), config=cfg)
    assert exact.label == "duplicate"
    assert {k: exact.evidence[0][k] for k in ("url", "kind")} == {
        "url": "https://iol.co.za/news/a-1",
        "kind": "exact-text",
    }

    # a new lead, paragraphs re-split
    variant = ["A completely new lead sentence was written by the sub-editor today.", *a[1:]]
    near = dedup_article(index_store, "https://news24.com/n/77", "\n".join(variant), config=cfg)
    assert near.label == "duplicate"
    best = near.evidence[0]
    assert best["kind"] == "sentences" and best["url"] in {
        "https://iol.co.za/news/a-1",
        "https://citizen.co.za/x/9",
    }
    assert best["score"] == round(11 / 13, 4) and best["shared"] == 11

    # half of the story with other material: similar
    half = a[:6] + story(rng, 6)
    sim = dedup_article(index_store, "https://mg.co.za/a/5", text(half), config=cfg)
    assert sim.label == "similar"
    assert all(0.3 <= e["score"] < 0.8 for e in sim.evidence)

    # an unrelated story on the same topics (same vocabulary, different sentences)
    other = dedup_article(index_store, "https://iol.co.za/news/b-2", text(story(rng)), config=cfg)
    assert other.label == "unique"


def test_boilerplate_sentences_do_not_make_articles_similar(index_store: ArticleStore) -> None:
    rng = random.Random(3)
    cfg = DedupConfig(max_articles_per_sentence=10)
    labels = []
    for i in range(14):
        # short articles: two own sentences and the same two boilerplate sentences
        body = [*story(rng, 2), BOILER, "More to follow as this story develops further today."]
        labels.append(dedup_article(index_store, f"https://site.co.za/{i}", text(body), config=cfg).label)
    # early on the shared lines look like evidence; once in more than 10 articles they are ignored
    assert labels[-1] == "unique" and labels[-2] == "unique"
    assert index_store.dedup_counts([hash64(normalize_text(BOILER))]) == {hash64(normalize_text(BOILER)): 14}


def test_canonical_and_slug_evidence(index_store: ArticleStore) -> None:
    rng = random.Random(11)
    cfg = DedupConfig()
    dedup_article(
        index_store,
        "https://iol.co.za/news/budget-speech-leaves-many-questions-20240221",
        text(story(rng)),
        config=cfg,
    )
    slug = dedup_article(
        index_store,
        "https://iol.co.za/news/budget-speech-leaves-many-questions-20240222",
        text(story(rng)),
        config=cfg,
    )
    assert slug.label == "duplicate" and slug.evidence[0]["kind"] == "slug"
    dedup_article(index_store, "https://mg.co.za/article/1", text(story(rng)), config=cfg)
    canon = dedup_article(
        index_store,
        "https://mg.co.za/article/1?page=amp-view",
        text(story(rng)),
        canonical_url="https://www.mg.co.za/article/1/",
        config=cfg,
    )
    assert canon.label == "duplicate" and canon.evidence[0] == {
        "url": "https://mg.co.za/article/1",
        "score": 1.0,
        "shared": 12,
        "kind": "canonical",
    }


def test_reindexing_the_same_url_does_not_match_itself(index_store: ArticleStore) -> None:
    rng = random.Random(5)
    body = text(story(rng))
    dedup_article(index_store, "https://a.co.za/1", body)
    again = dedup_article(index_store, "https://a.co.za/1", body)
    assert again.label == "unique" and again.evidence == []


def _articles(n: int, seed: int) -> list[Article]:
    """A small corpus with copies, rewrites and unrelated stories, fetched in a known order."""
    rng = random.Random(seed)
    stories = [story(rng, rng.randint(6, 14)) for _ in range(n // 3)]
    out = []
    for i in range(n):
        base = rng.choice(stories)
        kind = rng.random()
        if kind < 0.3:
            sentences = base
        elif kind < 0.6:
            sentences = [s for s in base if rng.random() > 0.15] + [BOILER]
        elif kind < 0.8:
            sentences = base[: len(base) // 2] + story(rng, len(base) // 2)
        else:
            sentences = story(rng, 8)
        # publication dates out of fetch order (a feed lists copies before originals), some equal
        # to each other, some missing
        day = rng.choice([None, *range(1, 28)])
        out.append(
            Article(
                url=f"https://pub{i % 3}.co.za/story/{i}",
                publication=f"pub{i % 3}",
                fetched_at=f"2024-03-01T10:{i // 60:02d}:{i % 60:02d}Z",
                published_at=None if day is None else f"2024-02-{day:02d}T08:00:00Z",
                text=text(sentences),
                body=b"<html></html>",
            )
        )
    return out


def ingest(
    store: ArticleStore, articles: list[Article], cfg: DedupConfig, batch: int = 4, textless: bool = False
) -> int:
    """The dedup stage then the store stage, in fetch order; the store writes in batches, so some
    relabelled copies are not stored yet when their original arrives. Returns the relabel count.
    Every article gets a label, but for ``textless`` runs whose articles without text get none."""
    labeller = Labeller(store, cfg)
    buffer: list[dict] = []
    for article in articles:
        result = labeller.label(article, keep_unchanged=True)
        assert result is not None or textless
        if result is not None:
            apply_result(article, result)
        buffer.append(dataclasses.asdict(article))
        if len(buffer) >= batch:
            store.upsert_articles(buffer)
            buffer = []
    store.upsert_articles(buffer)
    labeller.flush_pending()
    assert not labeller.pending
    return labeller.relabelled


def _labels(store: ArticleStore) -> dict[str, tuple]:
    return {
        r["url"]: (r["dedup_label"], r["dedup_evidence"], r["text_hash"])
        for r in store.iter_articles(fields=["dedup_label", "dedup_evidence", "text_hash"])
    }


def test_rebuild_gives_the_ingest_labels(index_store: ArticleStore) -> None:
    cfg = DedupConfig()
    articles = _articles(45, seed=21)
    assert ingest(index_store, articles, cfg) > 0  # some originals arrived after their copies
    crawled = _labels(index_store)
    assert {label for label, _e, _h in crawled.values()} == {"duplicate", "similar", "unique"}

    for url in list(crawled)[:10]:  # scramble stored labels; the rebuild must restore them
        index_store.update_fields(url, {"dedup_label": "bogus", "dedup_evidence": []})
    counts = rebuild_index(index_store, cfg, progress=False, batch_size=7)
    assert sum(counts.values()) == 45
    assert _labels(index_store) == crawled


def test_the_earliest_published_copy_is_the_original(index_store: ArticleStore) -> None:
    """Every piece of evidence points at a copy published earlier (fetched earlier on equal or
    missing dates), so the copy published first is never labelled a copy of a later one."""
    cfg = DedupConfig()
    articles = _articles(60, seed=4)
    ingest(index_store, articles, cfg)
    key = {a.url: order_key(a.published_at, a.fetched_at, a.url) for a in articles}
    stored = {r["url"]: r for r in index_store.iter_articles(fields=["dedup_label", "dedup_evidence"])}
    for url, record in stored.items():
        assert all(key[e["url"]] < key[url] for e in record["dedup_evidence"]), url
        assert (record["dedup_label"] == "unique") == (not record["dedup_evidence"]), url


def test_an_original_fetched_after_its_copies_becomes_unique(index_store: ArticleStore) -> None:
    rng = random.Random(12)
    body = text(story(rng))
    copies = [
        Article(
            url=f"https://copy{i}.co.za/news/{i}",
            publication="copy",
            fetched_at=f"2024-05-02T09:00:0{i}Z",
            published_at="2024-05-02T06:00:00Z",
            text=body + ("\nSyndicated by the group." if i else ""),
        )
        for i in range(2)
    ]
    original = Article(
        url="https://origin.co.za/news/original",
        publication="origin",
        fetched_at="2024-05-02T09:30:00Z",
        published_at="2024-05-01T18:00:00Z",
        text=body,
    )
    cfg = DedupConfig()
    assert ingest(index_store, [*copies, original], cfg, batch=1) == 2
    got = {u: index_store.get(u) for u in (original.url, copies[0].url, copies[1].url)}
    assert got[original.url]["dedup_label"] == "unique"
    assert got[original.url]["dedup_evidence"] == []
    for copy in copies:
        record = got[copy.url]
        assert record["dedup_label"] == "duplicate"
        assert original.url in [e["url"] for e in record["dedup_evidence"]]
    # the rebuild, which replays fetch order, agrees
    before = _labels(index_store)
    rebuild_index(index_store, cfg, progress=False)
    assert _labels(index_store) == before


def test_two_writers_lose_no_index_update(index_store: ArticleStore) -> None:
    """Two crawlers (two store instances) labelling overlapping articles at once."""
    if isinstance(index_store, SQLiteStore):
        other: ArticleStore = SQLiteStore(index_store.path)
    else:
        assert isinstance(index_store, MongoStore)
        other = MongoStore(index_store.uri, index_store.database)
    other.open()
    shared = "This sentence is syndicated to every single title in the group today."
    rng = random.Random(9)
    bodies = {f"https://w{w}.co.za/{i}": text([*story(rng, 3), shared]) for w in (1, 2) for i in range(12)}
    errors: list[BaseException] = []

    def run(st: ArticleStore, w: int) -> None:
        try:
            for url, body in bodies.items():
                if url.startswith(f"https://w{w}."):
                    dedup_article(st, url, body)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s, w)) for s, w in ((index_store, 1), (other, 2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    other.close()
    assert not errors
    h = hash64(normalize_text(shared))
    assert index_store.dedup_counts([h]) == {h: 24}
    assert len(index_store.dedup_fingerprints(bodies)) == 24


def test_old_rows_with_offset_dates_keep_the_publication_order(index_store: ArticleStore) -> None:
    """Copies stored by an earlier version, whose dates carry ``+00:00`` or a local offset, are ordered
    by the instant: compared as text, "2024-05-02T01:00:00+02:00" (23:00 UTC on the 1st) would come
    after "2024-05-01T23:30:00+00:00" and the original would be labelled a copy."""
    body = text(story(random.Random(31)))
    copies = [
        Article(
            url=f"https://copy{i}.co.za/news/{i}",
            publication="copy",
            fetched_at=f"2024-05-02T09:00:0{i}+00:00",
            published_at="2024-05-01T23:30:00+00:00",
            text=body + ("\nSyndicated by the group." if i else ""),
        )
        for i in range(2)
    ]
    original = Article(
        url="https://origin.co.za/news/original",
        publication="origin",
        fetched_at="2024-05-02T09:30:00Z",
        published_at="2024-05-02T01:00:00+02:00",
        text=body,
    )
    assert order_key(original.published_at, None, "u") < order_key(copies[0].published_at, None, "u")
    assert order_key("2024-05-01T23:30:00+00:00", None, "u") == order_key("2024-05-01T23:30:00Z", None, "u")
    # keys an earlier version wrote into the index are read in the one form too
    assert precedes("2024-05-01T23:00:00Z\t\tb", "2024-05-02T01:30:00+02:00\t\ta")
    assert not precedes("2024-05-01T21:30:00-03:00\t\ta", "2024-05-02T00:00:00Z\t\tb")
    cfg = DedupConfig()
    assert ingest(index_store, [*copies, original], cfg, batch=1) == 2
    assert index_store.get(original.url)["dedup_label"] == "unique"
    for copy in copies:
        record = index_store.get(copy.url)
        assert record["dedup_label"] == "duplicate"
        assert original.url in [e["url"] for e in record["dedup_evidence"]]


def test_ids_with_escaped_characters_are_counted_once(index_store: ArticleStore) -> None:
    """The stored id lists are read without parsing where they can be: URLs JSON escapes (non-ASCII,
    quotes, backslashes) are still found, counted once and listed whole."""
    urls = ['https://a.co.za/ü"1', "https://a.co.za/\\2", "https://a.co.za/3, 4"]
    for url in [*urls, *urls]:  # each added twice
        index_store.dedup_add({"url": url, "sentences": [[41, 30, 0], [42, 30, 0]]})
    count, ids = index_store.dedup_candidates([41])[41]
    assert count == 3 and sorted(ids) == sorted(urls) and len(ids) == 3
    assert all(url in ids for url in urls) and "https://a.co.za/" not in ids
