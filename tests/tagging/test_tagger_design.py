"""The tagger's parts on small made-up languages: the right-to-left pass, jackknifed hints,
capitalisation shares from unlabelled text, and a model file that round-trips every part."""

from __future__ import annotations

import random
from pathlib import Path

from sacorpus.text.tagging.clusters import capital_shares, tag_lexicon
from sacorpus.text.tagging.features import features
from sacorpus.text.tagging.lemma import Lemmatizer
from sacorpus.text.tagging.model import PosModel
from sacorpus.text.tagging.perceptron import (
    AveragedPerceptron,
    SequenceTagger,
    jackknife,
    mean_weights,
    train_mean,
)

Pairs = list[tuple[list[str], list[str]]]


def _stem(rng: random.Random) -> str:
    return "".join(rng.choice("bdfgklmpst") + rng.choice("aeiou") for _ in range(3))


def right_context_language(n: int, seed: int) -> Pairs:
    """``ka`` is MARK before a noun and PART before a verb; nouns start with ``un``, verbs with ``re``.

    The next word is always new, and the left-to-right pass sees no prefix of its right neighbour:
    only the right-to-left pass, which tags that neighbour first, can tell what ``ka`` is.
    """
    rng = random.Random(seed)
    out: Pairs = []
    for _ in range(n):
        noun = rng.random() < 0.5
        out.append(
            (
                ["the", "ka", ("un" if noun else "re") + _stem(rng), "."],
                ["DET", "MARK" if noun else "PART", "NOUN" if noun else "VERB", "PUNCT"],
            )
        )
    return out


def _accuracy(tagger: SequenceTagger, sentences: Pairs, position: int) -> float:
    return sum(tagger.tag(tokens)[position] == tags[position] for tokens, tags in sentences) / len(sentences)


def _tagger(train: Pairs, **how: object) -> SequenceTagger:
    classes = {t for _w, tags in train for t in tags}
    return SequenceTagger(AveragedPerceptron(classes), **how)  # type: ignore[arg-type]


def two_pass(train: Pairs) -> SequenceTagger:
    backward = _tagger(train, reverse=True)
    backward.train(train, epochs=5, seed=1)
    forward = _tagger(train, backward=backward)
    forward.train(
        train, epochs=5, seed=1, hints=jackknife(lambda: _tagger(train, reverse=True), train, 2, 5, 1)
    )
    return forward


def test_right_to_left_pass_decides_what_only_the_right_context_tells() -> None:
    train, test = right_context_language(300, seed=1), right_context_language(200, seed=2)
    one_pass = _tagger(train)
    one_pass.train(train, epochs=5, seed=1)
    assert _accuracy(one_pass, test, 1) < 0.8  # a guess: its features cannot see the next word's prefix
    assert _accuracy(two_pass(train), test, 1) >= 0.97


def test_jackknife_tags_each_sentence_with_a_tagger_that_never_saw_it() -> None:
    train = right_context_language(40, seed=3)
    hints = jackknife(lambda: _tagger(train, reverse=True), train, 4, 3, 1)
    assert [len(h) for h in hints] == [len(tokens) for tokens, _ in train]
    # a tagger that saw the sentence would know its (new) noun or verb; one that did not guesses from the prefix
    assert sum(h == tags for h, (_t, tags) in zip(hints, train, strict=True)) >= 30


def test_capital_shares_tell_names_from_capitalised_common_words() -> None:
    sentences = [
        ["Report", "says", "Apple", "sold", "more", "."],
        ["The", "report", "about", "Apple", "is", "out", "."],
        ["A", "new", "report", "on", "Monday", ":", "Report", "cards"],
        ["SHOUTING", "HEADLINE", "ABOUT", "REPORT", "and", "apple"],
    ] * 3
    shares = capital_shares(sentences, min_count=3)
    assert shares["apple"] == "4" and shares["report"] in {"0", "1"}
    assert "the" not in shares  # only sentence-initial here: never counted


def test_model_file_round_trips_both_passes_and_tables(tmp_path: Path) -> None:
    train = right_context_language(200, seed=4)
    tagger = two_pass(train)
    tagger.capitals = {"ka": "0"}
    tagger.clusters = {"ka": "1.2"}
    tagger.lexicon = {"ka": "PART/MARK"}
    model = PosModel("xx", "toy", tagger, Lemmatizer({}, {}))
    model.save(tmp_path / "m.json.gz")
    loaded = PosModel.load(tmp_path / "m.json.gz")
    assert loaded.tagger.backward is not None and loaded.tagger.backward.reverse
    assert loaded.tagger.capitals == {"ka": "0"} and loaded.tagger.clusters == {"ka": "1.2"}
    assert loaded.tagger.lexicon == {"ka": "PART/MARK"}
    test = right_context_language(50, seed=5)
    assert [loaded.tagger.tag(t) for t, _ in test] == [tagger.tag(t) for t, _ in test]


def test_tag_lexicon_keeps_the_votes_of_every_context() -> None:
    """A first model's tags of unlabelled text, counted per word: the usual tag, or the two usual ones."""
    text = [["the", "Run", "ends"], ["we", "run", "home"], ["a", "run", "."], ["the", "RUN", "."]] * 2
    text += [["one", "rare"]]

    def first_model(tokens: list[str]) -> list[str]:  # a deterministic rule standing in for a trained pass
        return ["NOUN" if i and tokens[i - 1].lower() in {"the", "a"} else "X" for i in range(len(tokens))]

    lexicon = tag_lexicon(first_model, text, min_count=3, min_share=0.8)
    assert lexicon["run"] == "NOUN/X"  # a noun in three of four contexts: both tags, the first most frequent
    assert lexicon["the"] == "X" and lexicon["."] == "X"
    assert "rare" not in lexicon  # seen once: no vote to trust
    assert tag_lexicon(first_model, text, min_count=3, min_share=0.7)["run"] == "NOUN"


def test_lexicon_teaches_the_tag_of_words_the_training_data_lacks() -> None:
    """New words in a context that does not tell their tags are known by their uses in unlabelled text.

    ``we`` is always followed by a noun, ``so`` by a verb, ``and`` by either; made-up words have no
    telling affixes. A first model tags unlabelled ``we N V`` sentences with words it never saw, and the
    votes let the second model tag those words after ``and``, where nothing else tells.
    """
    rng = random.Random(7)
    nouns = [_stem(rng) for _ in range(60)]
    verbs = [_stem(rng) for _ in range(60)]

    def noun_first(opener: str, noun: str, verb: str) -> tuple[list[str], list[str]]:
        return [opener, noun, verb], ["CCONJ" if opener == "and" else "PRON", "NOUN", "VERB"]

    def verb_first(opener: str, noun: str, verb: str) -> tuple[list[str], list[str]]:
        return [opener, verb, noun], ["CCONJ" if opener == "and" else "ADV", "VERB", "NOUN"]

    train = []
    for _ in range(100):
        noun, verb = rng.choice(nouns[:20]), rng.choice(verbs[:20])
        train += [noun_first("we", noun, verb), verb_first("so", noun, verb)]
        train.append((noun_first if rng.random() < 0.5 else verb_first)("and", noun, verb))
    unlabelled = [noun_first("we", n, v)[0] for n, v in zip(nouns, verbs, strict=True)] * 3
    test = [
        (noun_first if k % 2 else verb_first)("and", n, v)
        for k, (n, v) in enumerate(zip(nouns[20:], verbs[20:], strict=True))
    ]
    first = _tagger(train)
    first.train(train, epochs=5, seed=1)
    lexicon = tag_lexicon(first.tag, unlabelled)
    assert lexicon[nouns[30]] == "NOUN" and lexicon[verbs[30]] == "VERB"
    with_lexicon = _tagger(train, lexicon=lexicon)
    with_lexicon.train(train, epochs=5, seed=1)
    without = _tagger(train)
    without.train(train, epochs=5, seed=1)
    assert _accuracy(with_lexicon, test, 1) >= 0.95
    assert _accuracy(without, test, 1) < 0.8


def test_mean_of_several_shuffles_tags_as_their_summed_scores_vote() -> None:
    """One weight table, the mean of models trained on different shuffles, picks the tag whose score
    summed over those models is highest: an ensemble at the cost of one model."""
    train = right_context_language(120, seed=6)
    models = []
    for seed in (1, 2, 3):
        tagger = _tagger(train)
        tagger.train(train, epochs=3, seed=seed)
        models.append(tagger.model)
    assert models[0].weights != models[1].weights  # the shuffle order changes what is learned
    mean = AveragedPerceptron(models[0].classes, mean_weights([m.weights for m in models]))
    probe = _tagger(train)
    for tokens, _tags in right_context_language(40, seed=7):
        ctx = probe._context(tokens, None)
        for i in range(len(tokens)):
            feats = features(i, ctx, "DET", "-START-")

            def summed(label: str, feats: list[str] = feats) -> float:
                return sum(m.weights.get(f, {}).get(label, 0.0) for m in models for f in feats)

            best = max(summed(label) for label in mean.classes)
            assert abs(summed(mean.predict(feats)) - best) < 0.01 * len(models)
    assert mean_weights([{"f": {"A": 1.0, "B": 0.5}}, {"f": {"A": -1.0}}]) == {"f": {"B": 0.25}}


def test_mean_tagger_is_seeded_and_one_seed_is_one_model() -> None:
    train = right_context_language(80, seed=8)

    def make() -> SequenceTagger:
        return _tagger(train)

    single = make()
    single.train(train, epochs=3, seed=5)
    assert train_mean(make, train, 3, [5]).model.weights == single.model.weights
    first, again = train_mean(make, train, 3, [5, 6, 7]), train_mean(make, train, 3, [5, 6, 7])
    assert first.model.weights == again.model.weights != single.model.weights
