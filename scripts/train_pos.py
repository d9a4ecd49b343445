"""Train the shipped part-of-speech and lemma models on the Universal Dependencies treebanks.

    python scripts/train_pos.py ../shared/data/pos [--clusters ../shared/data/extraction] [--out sacorpus/models]

English (EWT): only the dev and test files are available, so the model trains on dev and is measured
on test. Afrikaans (AfriBooms): trains on train + dev, measured on test. No test split is ever read
here. Training is seeded, so the same data gives the same file (see sacorpus/models/ATTRIBUTION.md).
Word clusters for English come from unlabelled text (the pages under --clusters), see
``sacorpus.text.tagging.clusters``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sacorpus.text.tagging.lemma import Lemmatizer
from sacorpus.text.tagging.model import PosModel
from sacorpus.text.tagging.perceptron import AveragedPerceptron, SequenceTagger, build_tagdict
from sacorpus.text.tagging.treebank import read_conllu

TRAIN_SPLITS = {
    "en": ("en_ewt", ("dev",)),
    "af": ("af_afribooms", ("train", "dev")),
}
SEED = 17
EPOCHS = 12


def train(language: str, data: Path, clusters: dict[str, str], epochs: int = EPOCHS) -> PosModel:
    folder, splits = TRAIN_SPLITS[language]
    sentences = [s for split in splits for s in read_conllu(data / folder / f"{folder}-ud-{split}.conllu")]
    pairs = [(s.forms, s.upos) for s in sentences]
    tags = {t for s in sentences for t in s.upos}
    tagger = SequenceTagger(AveragedPerceptron(tags), build_tagdict(pairs), clusters)
    tagger.train(pairs, epochs=epochs, seed=SEED)
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
    }
    model = PosModel(language, "", tagger, lemmatizer, meta)
    # the name carries a digest of the weights: a retrained model has a new name, so `scrapy annotate`
    # knows which stored articles were tagged by an older one
    digest = hashlib.sha1(json.dumps(model.to_json(), sort_keys=True).encode("utf-8")).hexdigest()[:10]
    model.name = f"{folder}-perceptron-{digest}"
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path, help="folder with en_ewt/ and af_afribooms/")
    parser.add_argument("--out", type=Path, default=Path("sacorpus/models"))
    parser.add_argument("--clusters", type=Path, help="unlabelled English pages for word clusters")
    parser.add_argument(
        "--clusters-from", type=Path, help="reuse the word clusters of a model file (skips learning them)"
    )
    parser.add_argument("--language", choices=sorted(TRAIN_SPLITS), action="append")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    args = parser.parse_args(argv)
    for language in args.language or sorted(TRAIN_SPLITS):
        clusters: dict[str, str] = {}
        if args.clusters_from and language == "en":
            clusters = PosModel.load(args.clusters_from).tagger.clusters
        elif args.clusters and language == "en":
            from sacorpus.text.tagging.clusters import learn_clusters

            clusters = learn_clusters(args.clusters, seed=SEED)
        model = train(language, args.data, clusters, args.epochs)
        path = args.out / f"pos_{language}.json.gz"
        model.save(path)
        print(
            f"{language}: {model.meta['tokens']} training tokens -> {path} ({path.stat().st_size / 1e6:.2f} MB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
