"""Near-duplicate detection benchmark: sacorpus sentence hashes vs datasketch MinHash LSH.

Quality: a labelled near-duplicate set built from real article bodies (Fundus ground truth under
``<data>/extraction/fundus_dev``): every base article is indexed, plus unrelated articles on the
same topic (same publisher, quoting one sentence of the base); then variants are labelled against
the index. Variants and their true labels (by construction):

  duplicate: exact copy, boilerplate appended, paragraphs split, sentences reordered, ~10% of
             sentences dropped / added / reworded, a new lead, new lead + boilerplate + split
  similar:   half the sentences dropped, 40% reworded, half of the base + half of another article,
             new lead + 30% dropped + 20% reworded
  unique:    other same-publisher articles quoting one sentence of the base (+ boilerplate)

Precision / recall / F1 of the ``duplicate`` and ``similar`` labels are printed for sacorpus (plain,
with rare/long weights) and for MinHash LSH (128 permutations, 5-word shingles, LSH threshold 0.3,
candidates verified by estimated Jaccard, same 0.8 / 0.3 thresholds).

Scale: the time to dedup (label + index) one new article with 1,000 and with 100,000 articles in
the index, on SQLite and on a MongoDB-wire server (SecantusDB started on loopback, or MONGO_URI);
the filler articles are bulk-loaded synthetic fingerprints, the timed articles are the variants.

Rebuild (``--rebuild N``): ``scrapy dedup --rebuild``'s loop over a store of N recombined real pages
(``benchmarks/scale.py``'s records), articles/s of the current path (relabels set the changed fields;
the count moves are settled once at the end, for the articles whose count key changed, a group most
of whose articles changed side recounted from the rest) against the two it replaced: every relabel
moving the article's counts from its packed tokens as it is written, and the whole-row rewrite (every
relabel re-read and re-wrote the article: bodies recompressed, FTS entry replaced), on copies of the
same store; the labels and the kept counts of all must agree. The index in memory (now) is timed
against the store's index asked article by article (before), on SQLite and on MongoDB.

    python benchmarks/dedup.py [DATA_DIR] [--scale 100000] [--skip-mongo] [--seed 1]
    python benchmarks/dedup.py [DATA_DIR] --rebuild 2000 [--cache /tmp/sacorpus-scale] [--skip-mongo]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.mongo import local_mongo_server
from sacorpus.text.dedup import (
    DUPLICATE,
    SIMILAR,
    UNIQUE,
    DedupConfig,
    dedup_article,
    normalize_text,
    split_sentences,
)

REPO = Path(__file__).resolve().parent.parent
BOILERPLATE = [
    "Subscribe to our newsletter to get the latest news delivered to your inbox every morning.",
    "More to follow as this story develops, so check back later for updates.",
    "Follow us on Twitter and Facebook for breaking news from around the country.",
    "This article was republished with permission from our partner publication.",
    "Get the best of our journalism in your inbox by signing up for our daily briefing.",
]


@dataclass
class Doc:
    url: str
    text: str
    truth: str  # duplicate | similar | unique (for queries); "base" for indexed articles
    kind: str
    source: str | None = None


# --- building the labelled set ---------------------------------------------------------------


def load_bodies(data: Path) -> list[dict[str, Any]]:
    path = data / "extraction" / "fundus_dev" / "ground_truth.jsonl"
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            text = (row.get("body_text") or "").strip()
            if len(split_sentences(text)) >= 10:
                rows.append({"id": row["id"], "publisher": row.get("publisher"), "text": text})
    return rows


_UNSPACED_RUN = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u0e00-\u0e7f\u1000-\u109f\u1780-\u17ff]{8,}"
)


def reword(sentence: str, rng: random.Random, vocab: list[str]) -> str:
    """Change two words (one number if there is one), as sub-editors do.

    In a script written without spaces a word is about two characters: two 2-character spans are
    replaced (``split()`` sees one "word" there, and appending a vocabulary run - often a whole
    sentence of the other article - was not a rewording).
    """
    run = _UNSPACED_RUN.search(sentence)
    if run and len(sentence.split()) < 4:
        chars = list(sentence)
        donors = [w for w in vocab if _UNSPACED_RUN.match(w)] or ["\u65b0\u95fb"]
        for _ in range(2):
            i = rng.randrange(run.start(), run.end() - 1)
            donor = rng.choice(donors)
            j = rng.randrange(max(1, len(donor) - 1))
            chars[i : i + 2] = list(donor[j : j + 2].ljust(2, donor[0]))
        return "".join(chars)
    words = sentence.split()
    if len(words) < 4:
        return sentence + " " + rng.choice(vocab)
    for _ in range(2):
        i = rng.randrange(len(words))
        if re.fullmatch(r"\d+", words[i]):
            words[i] = str(int(words[i]) + rng.randint(1, 9))
        else:
            words[i] = rng.choice(vocab)
    return " ".join(words)


def join(sentences: list[str]) -> str:
    """Sentences into a paragraph; one without end punctuation (a subheading) keeps its own line."""
    out = ""
    for s in sentences:
        out += s + (" " if re.search(r"[.!?…。！？][\"'”’)\]]*$", s) else "\n")
    return out.strip()


def make_variants(base: dict[str, Any], other: dict[str, Any], rng: random.Random, k: int) -> list[Doc]:
    sents = split_sentences(base["text"])
    osents = split_sentences(other["text"])
    vocab = [w for w in re.findall(r"\w{4,}", other["text"])] or ["word"]
    n = len(sents)
    tenth = max(1, round(n * 0.1))
    src = f"https://base.example/{base['id']}"

    def drop(frac: float, ss: list[str]) -> list[str]:
        keep = sorted(rng.sample(range(len(ss)), max(1, round(len(ss) * (1 - frac)))))
        return [ss[i] for i in keep]

    def reworded(frac: float, ss: list[str]) -> list[str]:
        idx = set(rng.sample(range(len(ss)), max(1, round(len(ss) * frac))))
        return [reword(s, rng, vocab) if i in idx else s for i, s in enumerate(ss)]

    def new_lead(ss: list[str]) -> list[str]:
        return [rng.choice(osents) + " " + " ".join(rng.sample(vocab, min(3, len(vocab)))), *ss[1:]]

    def paras(ss: list[str], per: int = 3) -> str:
        return "\n".join(join(ss[i : i + per]) for i in range(0, len(ss), per))

    def split_paras(ss: list[str]) -> str:
        return "\n".join(ss)

    def boiler(text: str) -> str:
        return text + "\n" + " ".join(rng.sample(BOILERPLATE, 2))

    dup: list[tuple[str, Callable[[], str]]] = [
        ("exact", lambda: base["text"]),  # (the indexed copy may carry boilerplate)
        ("boilerplate", lambda: boiler(base["text"])),
        ("split", lambda: split_paras(sents)),
        ("reorder", lambda: paras(rng.sample(sents, n))),
        ("drop10", lambda: paras(drop(0.1, sents))),
        ("add10", lambda: paras(sents + rng.sample(osents, min(tenth, len(osents))))),
        ("reword10", lambda: paras(reworded(0.1, sents))),
        ("newlead", lambda: paras(new_lead(sents))),
        ("newlead+boiler+split", lambda: boiler(split_paras(new_lead(sents)))),
    ]
    sim: list[tuple[str, Callable[[], str]]] = [
        ("drop50", lambda: paras(drop(0.5, sents))),
        ("reword40", lambda: paras(reworded(0.4, sents))),
        ("half+half", lambda: paras(sents[: round(n * 0.6)] + osents[: max(1, round(n * 0.4))])),
        ("lead+drop30+reword20", lambda: paras(reworded(0.2, drop(0.3, new_lead(sents))))),
    ]
    docs: list[Doc] = []
    for kind, f in rng.sample(dup, min(k, len(dup))):
        docs.append(Doc(f"https://syndicate.example/{base['id']}/{kind}", f(), DUPLICATE, kind, src))
    for kind, f in rng.sample(sim, min(max(1, k // 2), len(sim))):
        docs.append(Doc(f"https://syndicate.example/{base['id']}/{kind}", f(), SIMILAR, kind, src))
    return docs


def same_topic_negative(base: dict[str, Any], others: list[dict[str, Any]], rng: random.Random) -> Doc:
    """A never-indexed article, of the same publisher when there is one, quoting one sentence of the base."""
    pool = [o for o in others if o["publisher"] == base["publisher"]] or others
    other = rng.choice(pool)
    osents = split_sentences(other["text"])
    quote = rng.choice(split_sentences(base["text"]))
    text = join([*osents[: len(osents) // 2], quote, *osents[len(osents) // 2 :]])
    if rng.random() < 0.5:
        text += "\n" + " ".join(rng.sample(BOILERPLATE, 2))
    return Doc(f"https://followup.example/{base['id']}/{other['id']}", text, UNIQUE, "same-topic", None)


def build_set(bodies: list[dict[str, Any]], seed: int) -> tuple[list[Doc], list[Doc]]:
    """Two thirds of the articles are indexed (bases); the rest are never indexed and only lend
    text to variants (added sentences, new leads, other halves) and to the same-topic negatives."""
    rng = random.Random(seed)
    bodies = list(bodies)
    rng.shuffle(bodies)
    cut = len(bodies) * 2 // 3
    indexed, held_out = bodies[:cut], bodies[cut:]
    # publishers append boilerplate to many articles: half the indexed ones carry some, so the index
    # learns it is boilerplate (seen in more than 10 articles) as it would in a real corpus
    bases = [
        Doc(
            f"https://base.example/{b['id']}",
            b["text"] + ("\n" + " ".join(rng.sample(BOILERPLATE, 2)) if i % 2 else ""),
            "base",
            "base",
        )
        for i, b in enumerate(indexed)
    ]
    queries: list[Doc] = []
    for b in indexed:
        other = rng.choice(held_out)
        queries.extend(make_variants(b, other, rng, k=4))
        queries.append(same_topic_negative(b, held_out, rng))
    rng.shuffle(queries)
    return bases, queries


# --- scoring -----------------------------------------------------------------------------------


def prf(truth: list[str], pred: list[str], label: str) -> tuple[float, float, float]:
    tp = sum(1 for t, p in zip(truth, pred, strict=True) if t == label and p == label)
    fp = sum(1 for t, p in zip(truth, pred, strict=True) if t != label and p == label)
    fn = sum(1 for t, p in zip(truth, pred, strict=True) if t == label and p != label)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def run_sacorpus(
    bases: list[Doc], queries: list[Doc], config: DedupConfig, tmp: Path, name: str
) -> list[str]:
    """Index the bases, then label each query (not added, so queries do not match each other)."""
    store = SQLiteStore(str(tmp / f"quality-{name}.sqlite"))
    with store:
        for d in bases:
            dedup_article(store, d.url, d.text, sentences=crawl_sentences(d.text), config=config)
        # unrelated same-topic articles are indexed too (they are real articles of the corpus)
        return [
            dedup_article(
                store, q.url, q.text, sentences=crawl_sentences(q.text), config=config, add=False
            ).label
            for q in queries
        ]


def crawl_sentences(text: str) -> list[list[int]]:
    """The sentence offsets a crawl stores (the tokenize stage's), which dedup prefers to its own split."""
    from sacorpus.text.tokenize import split_sentences as tokenizer_sentences

    return [[a, b] for a, b in tokenizer_sentences(text, "en")]


def is_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return sum(1 for ch in letters if ch < "\u0250") >= 0.5 * max(len(letters), 1)


def shingles(text: str, k: int = 5) -> set[str]:
    words = normalize_text(text).split()
    if len(words) <= k:
        return {" ".join(words)}
    return {" ".join(words[i : i + k]) for i in range(len(words) - k + 1)}


def run_minhash(bases: list[Doc], queries: list[Doc], config: DedupConfig) -> list[str]:
    from datasketch import MinHash, MinHashLSH

    def mh(text: str) -> MinHash:
        m = MinHash(num_perm=128, seed=1)
        for s in shingles(text):
            m.update(s.encode("utf-8"))
        return m

    lsh = MinHashLSH(threshold=config.similar, num_perm=128)
    sigs = {}
    for d in bases:
        sigs[d.url] = mh(d.text)
        lsh.insert(d.url, sigs[d.url])
    labels = []
    for q in queries:
        m = mh(q.text)
        best = max((m.jaccard(sigs[u]) for u in lsh.query(m)), default=0.0)
        labels.append(
            DUPLICATE if best >= config.duplicate else SIMILAR if best >= config.similar else UNIQUE
        )
    return labels


# --- scale -------------------------------------------------------------------------------------


def synthetic_fingerprints(n: int, rng: random.Random, sentences: int = 20):
    boiler = [rng.getrandbits(63) for _ in range(20)]
    for i in range(n):
        hashes = [rng.getrandbits(64) - 2**63 for _ in range(sentences)] + rng.sample(boiler, 2)
        yield {
            "url": f"https://filler.example/{i}",
            "text_hash": f"{i:032x}",
            "canonical_key": f"filler.example/{i}",
            "slug_key": None,
            "sentences": [[h, 80] for h in hashes],
        }


def load_index(store: ArticleStore, bases: list[Doc], n: int, config: DedupConfig, seed: int) -> None:
    """n - len(bases) synthetic filler fingerprints (bulk), then the real base articles."""
    store.dedup_clear()
    store.dedup_bulk_load(synthetic_fingerprints(max(0, n - len(bases)), random.Random(seed)))
    for d in bases:
        dedup_article(store, d.url, d.text, config=config)


def scale(
    name: str,
    make_store: Callable[[], ArticleStore],
    bases: list[Doc],
    queries: list[Doc],
    big: int,
    config: DedupConfig,
    timed: int,
    seed: int,
    rounds: int = 5,
) -> None:
    """Time label+index per article on a small and a big index, interleaved in rounds (the machine
    is shared: alternating cancels most load drift), each round with fresh articles for both."""
    sizes = (1000, big)
    stores = {}
    for n in sizes:
        t0 = time.perf_counter()
        stores[n] = make_store()
        stores[n].open()
        load_index(stores[n], bases, n, config, seed)
        print(f"  {name:<8} index of {n:>7,} articles loaded in {time.perf_counter() - t0:.0f}s")
    per_round: dict[int, list[float]] = {n: [] for n in sizes}
    chunk = max(1, timed // rounds)
    try:
        for r in range(rounds):
            sample = queries[r * chunk : (r + 1) * chunk]
            for n in sizes if r % 2 == 0 else reversed(sizes):
                t0 = time.perf_counter()
                for q in sample:
                    dedup_article(stores[n], f"{q.url}#t{r}", q.text, config=config)
                per_round[n].append((time.perf_counter() - t0) / len(sample))
    finally:
        for st in stores.values():
            if isinstance(st, MongoStore):
                st.drop()
            st.close()
    med = {n: statistics.median(v) for n, v in per_round.items()}
    for n in sizes:
        print(
            f"  {name:<8} index {n:>7,} articles: {med[n] * 1000:7.2f} ms/article = {1 / med[n]:7.1f} articles/s"
            f"  (median of {rounds} rounds of {chunk})"
        )
    ratio = med[big] / med[1000]
    print(
        f"  {name:<8} time ratio {big:,} / 1,000 = {ratio:.2f}  (target <= 1.5: {'PASS' if ratio <= 1.5 else 'FAIL'})"
    )


class LabelsRowByRow(SQLiteStore):
    """The label writes before they were batched: two statements (read, write) per relabelled row."""

    def update_labels(self, labels: Any) -> int:
        return sum(SQLiteStore.update_labels(self, {url: fields}) for url, fields in labels.items())


class WholeRowRewrite(SQLiteStore):
    """The relabel path before: read the whole article, write it back whole (the baseline)."""

    def update_labels(self, labels: Any) -> int:
        return sum(1 for url, fields in labels.items() if self.update_fields(url, fields))

    def update_fields(self, url: str, fields: Any) -> bool:
        record = self.get(url)
        if record is None:
            return False
        self.upsert_articles([{**record, **fields, "url": url}])
        return True


class MovesPerRelabel(LabelsRowByRow):
    """The count path before relabels were settled at the end: every relabel that changes the count
    key moves the article's counts from its tokens as it is written (summed per batch of 500)."""

    def relabelling(self) -> Any:
        return nullcontext()

    def _note_move(self, cur: Any, url: str, before: Any) -> bool:
        return False


def timed_rebuild(
    store: ArticleStore, in_memory: bool = True, workers: int = 0
) -> tuple[float, dict[str, Any]]:
    """(articles/s, url -> label) of a dedup rebuild; the kept counts must still equal a recount.
    ``workers``: fingerprint workers (their CPU is not in the CPU-second figure: wall time is the one)."""
    from sacorpus import settings as defaults
    from sacorpus.storage.maintenance import check_counts
    from sacorpus.text.dedup_rebuild import rebuild_index

    with store:
        n = store.count()
        start, cpu = time.perf_counter(), time.process_time()
        # the command's memory budget: past it the store answers (a 100,000-article store passes it)
        budget = defaults.SACORPUS_DEDUP_REBUILD_MEMORY_MB
        rebuild_index(
            store, DedupConfig(), progress=False, in_memory=in_memory, workers=workers, memory_mb=budget
        )
        rate = n / (time.perf_counter() - start)
        # the machine may be shared: CPU time is the figure that compares between runs
        print(f"  ({n / (time.process_time() - cpu):.1f} articles per CPU second)", flush=True)
        drift = check_counts(store)
        if drift:
            raise SystemExit(f"{store!r}: kept counts differ from a recount after the rebuild: {drift[:3]}")
        labels = {r["url"]: r.get("dedup_label") for r in store.iter_articles(fields=["dedup_label"])}
    return rate, labels


def rebuild_speed(data: Path, cache: Path, n: int, skip_mongo: bool, only_recent: bool = False) -> None:
    """``only_recent``: the last two SQLite paths only (the earlier ones take minutes at 10,000)."""
    import shutil

    from sacorpus.text.dedup_ahead import default_workers

    sys.path.insert(0, str(REPO / "benchmarks"))
    import scale as scale_bench  # the same recombined records as the scale benchmark

    with tempfile.TemporaryDirectory() as tmp:
        pages = scale_bench.prepared_pages(data, cache, 200)
        built = Path(tmp) / "built.sqlite"
        with SQLiteStore(str(built), spill_path=str(Path(tmp) / "spill.jsonl")) as store:
            scale_bench.build(store, pages, n)
        stores: list[tuple[str, Callable[[], ArticleStore], bool, int]] = []
        paths: list[tuple[str, type[SQLiteStore], bool, int]] = [
            ("whole-row rewrite (before)", WholeRowRewrite, False, 0),
            ("moves per relabel (before)", MovesPerRelabel, False, 0),
            ("store index (before)", LabelsRowByRow, False, 0),
            ("index in memory (before)", LabelsRowByRow, True, 0),
            (
                f"+ {default_workers()} fingerprint worker(s) (before)",
                LabelsRowByRow,
                True,
                default_workers(),
            ),
            ("+ label writes batched (now)", SQLiteStore, True, default_workers()),
        ]
        for name, cls, in_memory, workers in paths[-2:] if only_recent else paths:
            copy = Path(tmp) / f"{cls.__name__}-{in_memory}-{workers}.sqlite"
            shutil.copy(built, copy)
            make = lambda c=copy, k=cls: k(str(c), spill_path=str(c) + ".spill")  # noqa: E731
            stores.append((f"sqlite, {name}", make, in_memory, workers))
        results: dict[str, tuple[float, dict[str, Any]]] = {}
        for name, make, in_memory, workers in stores:
            results[name] = report_rebuild(name, timed_rebuild(make(), in_memory, workers), results)
        if not skip_mongo:
            with local_mongo_server() as server:
                for name, in_memory in (("store index (before)", False), ("index in memory (now)", True)):
                    mongo = MongoStore(server.uri, f"{server.database}_rebuild_{in_memory}")
                    with mongo:
                        scale_bench.build(mongo, pages, n)
                    results[f"mongo, {name}"] = report_rebuild(
                        f"mongo, {name}", timed_rebuild(mongo, in_memory), results
                    )
                    with mongo:
                        mongo.drop()


def report_rebuild(
    name: str, result: tuple[float, dict[str, Any]], before: dict[str, tuple[float, dict[str, Any]]]
) -> tuple[float, dict[str, Any]]:
    """One line as soon as a path is timed: its rate, its ratio to the first path, equal labels."""
    rate, labels = result
    base_rate, base_labels = next(iter(before.values()), result)
    print(
        f"  {name:<34} {rate:8.1f} articles/s  x{rate / base_rate:6.2f}  labels equal: "
        f"{labels == base_labels}  (target >= 300/s)",
        flush=True,
    )
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="?", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=int, default=100_000, help="articles in the big index (0: skip scale)")
    ap.add_argument("--timed", type=int, default=150, help="articles timed per scale point")
    ap.add_argument("--skip-mongo", action="store_true")
    ap.add_argument("--skip-sqlite", action="store_true", help="scale test on the MongoDB-wire server only")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sacorpus-scale")
    ap.add_argument("--rebuild", type=int, default=0, help="time dedup --rebuild over N articles, then stop")
    ap.add_argument("--only-recent", action="store_true", help="--rebuild: the last two SQLite paths only")
    args = ap.parse_args(argv)
    if args.rebuild:
        rebuild_speed(Path(args.data), args.cache, args.rebuild, args.skip_mongo, args.only_recent)
        return 0

    bodies = load_bodies(Path(args.data))
    bases, queries = build_set(bodies, args.seed)
    counts = {lab: sum(q.truth == lab for q in queries) for lab in (DUPLICATE, SIMILAR, UNIQUE)}
    print(f"set: {len(bases)} real base articles indexed; {len(queries)} queries {counts}")
    truth = [q.truth for q in queries]
    configs = {
        "sacorpus": DedupConfig(),
        "sacorpus+rare": DedupConfig(weight_rare=True),
        "sacorpus+long": DedupConfig(weight_long=True),
        "sacorpus+both": DedupConfig(weight_rare=True, weight_long=True),
    }
    rows: dict[str, list[str]] = {}
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, cfg in configs.items():
            t0 = time.perf_counter()
            rows[name] = run_sacorpus(bases, queries, cfg, Path(tmp), name)
            times[name] = time.perf_counter() - t0
        t0 = time.perf_counter()
        rows["minhash-lsh"] = run_minhash(bases, queries, DedupConfig())
        times["minhash-lsh"] = time.perf_counter() - t0

        print(
            f"\n{'method':<15} {'dup P':>6} {'dup R':>6} {'dup F1':>6}   {'sim P':>6} {'sim R':>6} {'sim F1':>6}   time"
        )
        scores = {}
        for name, pred in rows.items():
            d = prf(truth, pred, DUPLICATE)
            s = prf(truth, pred, SIMILAR)
            scores[name] = (d[2], s[2])
            print(
                f"{name:<15} {d[0]:6.3f} {d[1]:6.3f} {d[2]:6.3f}   {s[0]:6.3f} {s[1]:6.3f} {s[2]:6.3f}   {times[name]:.1f}s"
            )
        base_dup, base_sim = scores["minhash-lsh"]
        dup_f1, sim_f1 = scores["sacorpus"]
        print(
            f"\nsacorpus (default) duplicate F1 {dup_f1:.3f} (target >= 0.95 and >= MinHash {base_dup:.3f}): "
            f"{'PASS' if dup_f1 >= 0.95 and dup_f1 >= base_dup else 'FAIL'}"
        )
        print(
            f"sacorpus (default) similar F1 {sim_f1:.3f} (target >= MinHash {base_sim:.3f}): "
            f"{'PASS' if sim_f1 >= base_sim else 'FAIL'}"
        )
        for script, keep in (("Latin", True), ("non-Latin", False)):
            idx = [i for i, q in enumerate(queries) if is_latin(q.text) == keep]
            d = prf([truth[i] for i in idx], [rows["sacorpus"][i] for i in idx], DUPLICATE)
            m = prf([truth[i] for i in idx], [rows["minhash-lsh"][i] for i in idx], DUPLICATE)
            print(
                f"{script:<10} script: {len(idx)} queries, sacorpus duplicate F1 {d[2]:.3f} (MinHash {m[2]:.3f})"
            )
            if not keep:
                for i in idx:
                    if truth[i] != rows["sacorpus"][i]:
                        print(f"{'':<10} error: {queries[i].kind} {truth[i]} -> {rows['sacorpus'][i]}")
        print("\nerrors of sacorpus (default) by variant kind (truth -> predicted):")
        errs: dict[tuple[str, str, str], int] = {}
        for q, p in zip(queries, rows["sacorpus"], strict=True):
            if q.truth != p:
                errs[(q.kind, q.truth, p)] = errs.get((q.kind, q.truth, p), 0) + 1
        for (kind, t, p), c in sorted(errs.items(), key=lambda kv: -kv[1]):
            print(f"  {kind:<24} {t} -> {p}: {c}")

        if args.scale:
            print(f"\nscale: time to dedup one new article (label + index), {args.timed} articles timed")
            cfg = DedupConfig()
            if not args.skip_sqlite:
                scale(
                    "sqlite",
                    lambda: SQLiteStore(str(Path(tmp) / f"scale-{time.monotonic_ns()}.sqlite")),
                    bases,
                    queries,
                    args.scale,
                    cfg,
                    args.timed,
                    args.seed,
                )
            if not args.skip_mongo:
                with local_mongo_server() as server:
                    scale(
                        "mongo",
                        lambda: MongoStore(server.uri, f"{server.database}_{time.monotonic_ns()}"),
                        bases,
                        queries,
                        args.scale,
                        cfg,
                        args.timed,
                        args.seed,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
