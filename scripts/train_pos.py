"""Train the shipped part-of-speech and lemma models on the Universal Dependencies treebanks.

    python scripts/train_pos.py ../shared/data/pos [--clusters ../shared/data/extraction] [--out sacorpus/models]
        [--lexicon-text SENTENCES.csv ...] [--cache /tmp/sacorpus-pos-cache]

English (EWT): only the dev and test files are available, so the model trains on dev and is measured
on test. Afrikaans (AfriBooms): trains on train + dev, measured on test. No test split is ever read
here. Training is seeded, so the same data gives the same file (see sacorpus/models/ATTRIBUTION.md).
Word clusters and capitalisation shares for English come from unlabelled text (the pages under
--clusters), see ``sacorpus.text.tagging.clusters``; ``--lexicon-text`` adds sentences (CSV files with a
``sentence`` column) to the text the tag lexicon is learned from. ``--cache`` keeps the tokenized text
(minutes of work) for the next run; it changes nothing in the model. ``--cross-validate K`` measures a design
(``--design``) on contiguous folds of the training split: how the design was chosen.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sacorpus.text.tagging.clusters import (
    WordTables,
    capital_shares,
    learn_clusters,
    page_paragraphs,
    sentences_of,
    tag_lexicon,
)
from sacorpus.text.tagging.lemma import Lemmatizer
from sacorpus.text.tagging.model import PosModel
from sacorpus.text.tagging.perceptron import (
    AveragedPerceptron,
    SequenceTagger,
    build_tagdict,
    jackknife,
    train_mean,
)
from sacorpus.text.tagging.treebank import Sentence, read_conllu

TRAIN_SPLITS = {
    "en": ("en_ewt", ("dev",)),
    "af": ("af_afribooms", ("train", "dev")),
}
SEED = 17
EPOCHS = 12
#: the design, chosen by cross-validation on the training split (see --cross-validate)
DESIGN = {"two_pass": True, "folds": 4, "lexicon": True, "seeds": 3}


def train(language: str, data: Path, tables: WordTables, epochs: int = EPOCHS) -> PosModel:
    folder, splits = TRAIN_SPLITS[language]
    sentences = [s for split in splits for s in read_conllu(data / folder / f"{folder}-ud-{split}.conllu")]
    return train_on(language, sentences, tables, epochs)


def train_on(language: str, sentences: list[Sentence], tables: WordTables, epochs: int = EPOCHS) -> PosModel:
    """The model of ``sentences`` (also what cross-validation on the training split calls)."""
    folder, splits = TRAIN_SPLITS[language]
    pairs = [(s.forms, s.upos) for s in sentences]
    tags = {t for s in sentences for t in s.upos}
    tagdict = build_tagdict(pairs)

    def make(
        reverse: bool = False, backward: SequenceTagger | None = None, lexicon: dict[str, str] | None = None
    ) -> SequenceTagger:
        return SequenceTagger(
            AveragedPerceptron(tags),
            tagdict,
            tables.clusters,
            capitals=tables.capitals,
            lexicon=lexicon,
            reverse=reverse,
            backward=backward,
        )

    lexicon = None
    if DESIGN.get("lexicon") and tables.text:
        # a first, one-pass model tags the unlabelled text; its votes per word become a feature
        first = make()
        first.train(pairs, epochs=epochs, seed=SEED)
        lexicon = tag_lexicon(
            first.tag,
            tables.text,
            min_count=DESIGN.get("lexicon_min_count", 3),
            min_share=DESIGN.get("lexicon_min_share", 0.7),
        )
    # each pass is the mean of one model per shuffle seed (tagging costs one model's time)
    seeds = range(SEED, SEED + DESIGN.get("seeds", 1))
    backward = hints = None
    if DESIGN["two_pass"]:
        backward = train_mean(lambda: make(reverse=True, lexicon=lexicon), pairs, epochs, seeds)
        hints = jackknife(lambda: make(reverse=True, lexicon=lexicon), pairs, DESIGN["folds"], epochs, SEED)
    tagger = train_mean(lambda: make(backward=backward, lexicon=lexicon), pairs, epochs, seeds, hints)
    lemmatizer = Lemmatizer.learn(
        (f, u, lem) for s in sentences for f, u, lem in zip(s.forms, s.upos, s.lemmas, strict=True)
    )
    meta = {
        "treebank": folder,
        "trained_on": list(splits),
        "sentences": len(sentences),
        "tokens": sum(len(s.forms) for s in sentences),
        "epochs": epochs,
        "seed": SEED,
        "design": dict(DESIGN),
    }
    model = PosModel(language, "", tagger, lemmatizer, meta)
    # the name carries a digest of the weights: a retrained model has a new name, so `scrapy annotate`
    # knows which stored articles were tagged by an older one
    digest = hashlib.sha1(json.dumps(model.to_json(), sort_keys=True).encode("utf-8")).hexdigest()[:10]
    model.name = f"{folder}-perceptron-{digest}"
    return model


def cross_validate(
    language: str,
    data: Path,
    tables: WordTables,
    folds: int,
    epochs: int = EPOCHS,
    *,
    last_only: bool = False,
) -> float:
    """UPOS accuracy of models trained on all but one contiguous fold of the training split, pooled.

    How the design (DESIGN, epochs) is chosen without ever reading a test split.
    """
    folder, splits = TRAIN_SPLITS[language]
    sentences = [s for split in splits for s in read_conllu(data / folder / f"{folder}-ud-{split}.conllu")]
    right = total = 0
    for k in range(folds - 1 if last_only else 0, folds):
        lo, hi = len(sentences) * k // folds, len(sentences) * (k + 1) // folds
        model = train_on(language, [*sentences[:lo], *sentences[hi:]], tables, epochs)
        for s in sentences[lo:hi]:
            right += sum(a == b for a, b in zip(model.tagger.tag(s.forms), s.upos, strict=True))
            total += len(s.forms)
    return right / total


def tokenized(source: Path, paragraphs: Iterable[str], cache: Path | None) -> list[list[str]]:
    """``paragraphs`` tokenized, read from ``cache`` when an earlier run kept them (keyed by the source's
    path, size and time, so changed data is tokenized again)."""
    if cache is None:
        return list(sentences_of(paragraphs))
    stat = source.stat()
    key = hashlib.sha1(f"{source.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    path = cache / f"tokens-{key}.jsonl"
    if path.exists():
        with path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh]
    sentences = list(sentences_of(paragraphs))
    cache.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with part.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(s, ensure_ascii=False) + "\n" for s in sentences)
    part.replace(path)  # whole or absent: a run stopped half-way leaves no truncated cache
    return sentences


def csv_sentences(path: Path) -> Iterator[str]:
    """The ``sentence`` column of a CSV file (one sentence or line of text per row)."""
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            text = " ".join((row.get("sentence") or "").split())
            if text:
                yield text


def english_tables(args: argparse.Namespace) -> WordTables:
    """Clusters and capitalisation shares (learned from the pages, or kept from a model file) and the
    unlabelled text the tag lexicon is learned from (the pages and any --lexicon-text files)."""
    text: list[list[str]] = []
    if args.clusters:
        text = tokenized(args.clusters, page_paragraphs(args.clusters), args.cache)
    if args.clusters_from:
        tagger = PosModel.load(args.clusters_from).tagger
        tables = WordTables(tagger.clusters, tagger.capitals)
    elif text:
        tables = WordTables(learn_clusters(text, seed=SEED), capital_shares(text))
    else:
        tables = WordTables({}, {})
    for path in args.lexicon_text or ():
        text += tokenized(path, csv_sentences(path), args.cache)
    return tables._replace(text=text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path, help="folder with en_ewt/ and af_afribooms/")
    parser.add_argument("--out", type=Path, default=Path("sacorpus/models"))
    parser.add_argument("--clusters", type=Path, help="unlabelled English pages for word clusters")
    parser.add_argument(
        "--clusters-from",
        type=Path,
        help="reuse the word clusters and capitalisation shares of a model file (skips learning them; "
        "with --clusters, those pages are still read for the lexicon of tags)",
    )
    parser.add_argument(
        "--lexicon-text",
        type=Path,
        action="append",
        help="CSV file with a 'sentence' column of English text, added to the pages for the tag lexicon",
    )
    parser.add_argument("--cache", type=Path, help="folder to keep tokenized text in between runs")
    parser.add_argument("--language", choices=sorted(TRAIN_SPLITS), action="append")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument(
        "--cross-validate",
        type=int,
        metavar="K",
        help="print K-fold accuracy on the training split (contiguous folds) instead of writing models",
    )
    parser.add_argument(
        "--last-fold",
        action="store_true",
        help="with --cross-validate: hold out only the last fold (a quick check, K times cheaper)",
    )
    parser.add_argument(
        "--design", type=json.loads, default={}, help="JSON overrides, e.g. '{\"two_pass\": false}'"
    )
    args = parser.parse_args(argv)
    DESIGN.update(args.design)
    for language in args.language or sorted(TRAIN_SPLITS):
        tables = english_tables(args) if language == "en" else WordTables({}, {})
        if args.cross_validate:
            print(
                f"{language} {DESIGN}: {cross_validate(language, args.data, tables, args.cross_validate, args.epochs, last_only=args.last_fold):.4f}"
            )
            continue
        model = train(language, args.data, tables, args.epochs)
        path = args.out / f"pos_{language}.json.gz"
        model.save(path)
        print(
            f"{language}: {model.meta['tokens']} training tokens -> {path} ({path.stat().st_size / 1e6:.2f} MB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
