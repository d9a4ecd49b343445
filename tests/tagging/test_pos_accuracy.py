"""The shipped POS models, measured on each treebank's test split (never seen in training).

The floors sit just under what the shipped models score (benchmarks/pos.py prints the full numbers
with a most-frequent-tag baseline); a retrained model that loses accuracy fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sacorpus.text.tagging.model import shipped_model
from sacorpus.text.tagging.treebank import read_conllu

POS_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pos"
TEST_SPLITS = {"en": "en_ewt/en_ewt-ud-test.conllu", "af": "af_afribooms/af_afribooms-ud-test.conllu"}
#: (UPOS, lemma) accuracy floors over the first SENTENCES test sentences
FLOORS = {"en": (0.925, 0.940), "af": (0.960, 0.969)}  # measured: en 0.9275 / 0.9422, af 0.9636 / 0.9719
SENTENCES = 800


@pytest.mark.parametrize("language", sorted(TEST_SPLITS))
def test_accuracy_floor(language: str) -> None:
    model = shipped_model(language)
    assert model is not None, f"no shipped model for {language}"
    sentences = list(read_conllu(POS_DATA / TEST_SPLITS[language]))[:SENTENCES]
    right = lemma_right = total = 0
    for sentence in sentences:
        tags, lemmas = model.annotate(sentence.forms)
        right += sum(a == b for a, b in zip(tags, sentence.upos, strict=True))
        lemma_right += sum(a == b for a, b in zip(lemmas, sentence.lemmas, strict=True))
        total += len(tags)
    upos_floor, lemma_floor = FLOORS[language]
    assert right / total >= upos_floor, f"{language} UPOS {right / total:.4f} < {upos_floor}"
    assert lemma_right / total >= lemma_floor, f"{language} lemma {lemma_right / total:.4f} < {lemma_floor}"


def test_training_never_reads_a_test_split() -> None:
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "train_pos.py"
    spec = importlib.util.spec_from_file_location("train_pos", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.TRAIN_SPLITS and all(
        "test" not in splits for _folder, splits in module.TRAIN_SPLITS.values()
    )


def test_no_model_no_tags() -> None:
    assert shipped_model("zu") is None and shipped_model(None) is None and shipped_model("und") is None
