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
FLOORS = {"en": (0.931, 0.942), "af": (0.965, 0.971)}  # measured: en 0.9330 / 0.9442, af 0.9671 / 0.9737
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


def test_training_never_reads_a_test_split(train_pos) -> None:
    module = train_pos
    assert module.TRAIN_SPLITS and all(
        "test" not in splits for _folder, splits in module.TRAIN_SPLITS.values()
    )


def test_no_model_no_tags() -> None:
    assert shipped_model("zu") is None and shipped_model(None) is None and shipped_model("und") is None


def test_english_model_reads_its_lexicon_of_tags() -> None:
    """The shipped English model carries the usual tags of news-text words, and tags worse without them."""
    from importlib import resources

    from sacorpus.text.tagging.model import PosModel

    with resources.as_file(resources.files("sacorpus.models").joinpath("pos_en.json.gz")) as path:
        model, blind = PosModel.load(path), PosModel.load(path)
    assert len(model.tagger.lexicon) > 10_000 and model.tagger.lexicon.get("the") == "DET"
    assert model.meta["design"]["lexicon"] is True
    for tagger in (blind.tagger, blind.tagger.backward):
        assert tagger is not None
        tagger.lexicon = {}
    sentences = list(read_conllu(POS_DATA / TEST_SPLITS["en"]))[:300]

    def right(m: PosModel) -> int:
        return sum(a == b for s in sentences for a, b in zip(m.tagger.tag(s.forms), s.upos, strict=True))

    assert right(model) > right(blind)
