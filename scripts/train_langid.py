"""Train the South African language-ID model shipped as sacorpus/models/langid_sa_nb.npz.

Why a script in the repo: the model is derived from CC BY-SA 4.0 data (Vuk'uzenzele LID splits,
dsfsi/Ngram_to_Transformers_LID), so anyone must be able to rebuild it from the data path.

    python scripts/train_langid.py ../shared/data/langid/vukuzenzele [-o sacorpus/models/langid_sa_nb.npz]

Trains ONLY on ``<lang>/train.csv``; ``dev.csv`` calibrates the out-of-set threshold and the
probability temperature. ``test.csv`` is never read here (benchmarks/langid.py measures on it).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sacorpus.text.langid import (
    DATASET_LABELS,
    NBModel,
    char_ngrams,
    normalize_for_model,
)

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "sacorpus" / "models" / "langid_sa_nb.npz"


def read_split(root: Path, split: str) -> list[tuple[str, str]]:
    """(text, project language code) rows of one split, whitespace-normalised."""
    rows: list[tuple[str, str]] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        lang = DATASET_LABELS.get(folder.name)
        if lang is None:
            continue
        with (folder / f"{split}.csv").open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                text = " ".join((row.get("sentence") or "").split())
                if text:
                    rows.append((text, lang))
    return rows


def train(
    rows: list[tuple[str, str]], per_language: int, alpha: float, min_count: int, max_order: int = 6
) -> NBModel:
    orders = tuple(range(1, max_order + 1))
    languages = tuple(sorted({lang for _, lang in rows}))
    counts: dict[str, Counter[str]] = {lang: Counter() for lang in languages}
    for text, lang in rows:
        counts[lang].update(char_ngrams(normalize_for_model(text), orders))
    # Keep each language's most frequent n-grams (union): small model, every language covered.
    keep: set[str] = set()
    for lang in languages:
        keep.update(g for g, c in counts[lang].most_common(per_language) if c >= min_count)
    features = sorted(keep)
    matrix = np.zeros((len(features), len(languages)), dtype=np.float64)
    for j, lang in enumerate(languages):
        c = counts[lang]
        matrix[:, j] = [c.get(g, 0) for g in features]
    totals = np.asarray([sum(counts[lang].values()) for lang in languages], dtype=np.float64)
    logp = np.log(matrix + alpha) - np.log(totals + alpha * len(features))
    prior = np.log(np.full(len(languages), 1.0 / len(languages)))
    return NBModel(
        languages=languages,
        index={g: i for i, g in enumerate(features)},
        logp=logp.astype(np.float16).astype(np.float32),
        log_prior=prior,
        ood_threshold=-math.inf,
        temperature=1.0,
        override_threshold=-math.inf,
        unseen_logp=float(logp.min()),
        orders=orders,
    )


def calibrate(model: NBModel, dev: list[tuple[str, str]]) -> tuple[NBModel, dict[str, float]]:
    """Thresholds and temperature from dev: fits of correct answers, and mean margins."""
    fits: list[float] = []
    correct = 0
    margins: list[tuple[float, int, bool]] = []
    for text, lang in dev:
        normalized = normalize_for_model(text)
        total, count, _ = model.scores(normalized)
        if count == 0:
            continue
        mean = total / count
        best = int(np.argmax(total))
        ok = model.languages[best] == lang
        correct += ok
        fits.append(model.predict(normalized)[2])
        second = float(np.sort(mean)[-2])
        margins.append((float(mean[best]) - second, count, ok))
    fits_arr = np.asarray(fits)
    # Out-of-set: 0.5th percentile of dev fits (nearly every SA text passes); override: the median.
    ood = float(np.percentile(fits_arr, 0.2))
    override = float(np.percentile(fits_arr, 50))
    accuracy = correct / max(1, len(margins))
    # Temperature: the one with the lowest log-loss of "the winner is right" on dev.
    best_t, best_loss = 1.0, math.inf
    for t in np.geomspace(0.005, 5.0, 40):
        loss = 0.0
        for margin, count, ok in margins:
            p = 1.0 / (1.0 + math.exp(-min(50.0, margin * t * math.sqrt(count))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            loss -= math.log(p if ok else 1.0 - p)
        if loss < best_loss:
            best_t, best_loss = float(t), loss
    calibrated = NBModel(
        languages=model.languages,
        index=model.index,
        logp=model.logp,
        log_prior=model.log_prior,
        ood_threshold=ood,
        temperature=best_t,
        override_threshold=override,
        unseen_logp=model.unseen_logp,
        orders=model.orders,
    )
    return calibrated, {
        "dev_accuracy": accuracy,
        "ood": ood,
        "override": override,
        "temperature": round(best_t, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path, help="folder holding <lang>/{train,dev}.csv")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--per-language", type=int, default=50000, help="top n-grams kept per language")
    parser.add_argument("--alpha", type=float, default=0.1, help="additive smoothing")
    parser.add_argument("--min-count", type=int, default=2)
    parser.add_argument("--max-order", type=int, default=6, help="n-grams of 1..N characters")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    train_rows = read_split(args.data, "train")
    dev_rows = read_split(args.data, "dev")
    model = train(train_rows, args.per_language, args.alpha, args.min_count, args.max_order)
    model, info = calibrate(model, dev_rows)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.output, **model.to_npz_arrays())
    print(
        f"trained on {len(train_rows)} rows, {len(model.index)} features, {len(model.languages)} languages; "
        f"dev accuracy {info['dev_accuracy']:.4f}; ood {info['ood']:.3f} override {info['override']:.3f} "
        f"temperature {info['temperature']}; wrote {args.output} ({args.output.stat().st_size / 1e6:.2f} MB) "
        f"in {time.perf_counter() - started:.1f}s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
