"""UPOS and lemma accuracy of the shipped POS models on each treebank's test split, and tagging speed.

    python benchmarks/pos.py ../shared/data/pos [--models sacorpus/models] [--limit N] [--compare DIR] [--language en]

Baseline in the same run: the most frequent tag of each word in the model's own training split
(unseen words: the split's most frequent tag), and the word itself as its lemma. ``--compare DIR``
also measures the model files in DIR (for example the previous release's, from
``git show REV:sacorpus/models/pos_en.json.gz``) on the same sentences, and prints the difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sacorpus.text.tagging.model import PosModel
from sacorpus.text.tagging.treebank import Sentence, read_conllu

SPLITS = {"en": ("en_ewt", ("dev",)), "af": ("af_afribooms", ("train", "dev"))}
TARGETS = {"en": 0.93, "af": 0.92}
SPEED_TARGET = 2000.0


def baseline(train: list[Sentence], test: list[Sentence]) -> tuple[float, float]:
    by_word: dict[str, Counter[str]] = defaultdict(Counter)
    for s in train:
        for form, tag in zip(s.forms, s.upos, strict=True):
            by_word[form.lower()][tag] += 1
    overall = Counter(t for s in train for t in s.upos).most_common(1)[0][0]
    right = lemma_right = total = 0
    for s in test:
        for form, tag, lemma in zip(s.forms, s.upos, s.lemmas, strict=True):
            known = by_word.get(form.lower())
            guess = known.most_common(1)[0][0] if known else overall
            right += guess == tag
            lemma_right += form == lemma
            total += 1
    return right / total, lemma_right / total


def evaluate(model: PosModel, test: list[Sentence]) -> tuple[float, float, float, int]:
    right = lemma_right = total = 0
    started = time.process_time()
    for s in test:
        tags, lemmas = model.annotate(s.forms)
        right += sum(a == b for a, b in zip(tags, s.upos, strict=True))
        lemma_right += sum(a == b for a, b in zip(lemmas, s.lemmas, strict=True))
        total += len(tags)
    seconds = time.process_time() - started
    return right / total, lemma_right / total, total / max(seconds, 1e-9), total


def unseen_accuracy(model: PosModel, train: list[Sentence], test: list[Sentence]) -> tuple[float, int]:
    """UPOS accuracy on the test words the training split never shows (where most errors are)."""
    seen = {form.lower() for s in train for form in s.forms}
    right = total = 0
    for s in test:
        for form, guess, gold in zip(s.forms, model.tagger.tag(s.forms), s.upos, strict=True):
            if form.lower() not in seen:
                right += guess == gold
                total += 1
    return right / max(total, 1), total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path)
    parser.add_argument("--models", type=Path, default=Path("sacorpus/models"))
    parser.add_argument("--limit", type=int, help="only the first N test sentences")
    parser.add_argument("--compare", type=Path, help="a folder of other model files to measure alike")
    parser.add_argument(
        "--language", choices=sorted(SPLITS), action="append", help="only these (default: all)"
    )
    args = parser.parse_args(argv)
    failed = False
    for language, (folder, splits) in SPLITS.items():
        if args.language and language not in args.language:
            continue
        train = [
            s for split in splits for s in read_conllu(args.data / folder / f"{folder}-ud-{split}.conllu")
        ]
        test = list(read_conllu(args.data / folder / f"{folder}-ud-test.conllu"))[: args.limit]
        path = args.models / f"pos_{language}.json.gz"
        model = PosModel.load(path)
        base_upos, base_lemma = baseline(train, test)
        upos, lemma, speed, tokens = evaluate(model, test)
        unseen, unseen_tokens = unseen_accuracy(model, train, test)
        ok = upos >= TARGETS[language] and speed >= SPEED_TARGET
        failed |= not ok
        print(
            f"{language} {folder} test ({tokens} tokens): UPOS {upos:.2%} (baseline most-frequent-tag "
            f"{base_upos:.2%}, target {TARGETS[language]:.0%}); lemma {lemma:.2%} (baseline word-as-lemma "
            f"{base_lemma:.2%}); {speed:,.0f} tokens/s on one core (target {SPEED_TARGET:,.0f}) "
            f"{'OK' if ok else 'BELOW TARGET'}"
        )
        print(
            f"{language}   UPOS on the {unseen_tokens} test tokens unseen in training {unseen:.2%}; "
            f"model file {path.stat().st_size / 1e6:.2f} MB"
        )
        other = args.compare / f"pos_{language}.json.gz" if args.compare else None
        if other and other.is_file():
            other_model = PosModel.load(other)
            o_upos, o_lemma, o_speed, _ = evaluate(other_model, test)
            o_unseen, _ = unseen_accuracy(other_model, train, test)
            print(
                f"{language} compared with {other}: UPOS {o_upos:.2%} ({upos - o_upos:+.2%}), "
                f"unseen {o_unseen:.2%} ({unseen - o_unseen:+.2%}), lemma {o_lemma:.2%} "
                f"({lemma - o_lemma:+.2%}), {o_speed:,.0f} tokens/s, {other.stat().st_size / 1e6:.2f} MB"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
