from __future__ import annotations

import numpy as np
import pytest
from langid_samples import OTHER_PARAGRAPHS, SA_PARAGRAPHS

from sacorpus.text import langid
from sacorpus.text.langid import SA_LANGUAGES, identify, identify_paragraphs


@pytest.mark.parametrize("lang", sorted(SA_PARAGRAPHS))
def test_each_sa_language_is_identified(lang: str) -> None:
    got, prob = identify(SA_PARAGRAPHS[lang])
    assert got == lang
    assert 0.5 < prob <= 1.0


@pytest.mark.parametrize("lang", sorted(SA_PARAGRAPHS))
def test_first_sentence_alone_is_identified(lang: str) -> None:
    first = SA_PARAGRAPHS[lang].split(". ")[0]
    assert identify(first)[0] == lang


@pytest.mark.parametrize("lang", sorted(OTHER_PARAGRAPHS))
def test_languages_outside_the_set_are_not_forced_into_it(lang: str) -> None:
    got, prob = identify(OTHER_PARAGRAPHS[lang])
    assert got not in SA_LANGUAGES
    assert got == lang
    assert 0.0 <= prob <= 1.0


@pytest.mark.parametrize("text", ["", "   ", "12 345 678", "!!! ???", "https://www.example.com/a/b", "ok"])
def test_text_without_language_is_undetermined(text: str) -> None:
    assert identify(text) == ("und", 0.0)


def test_bad_input_does_not_crash() -> None:
    lang, prob = identify("\ud800 broken surrogate \x00 and control \x07 characters in English text here")
    assert isinstance(lang, str)
    assert 0.0 <= prob <= 1.0
    long_text = SA_PARAGRAPHS["zu"] * 2000
    assert identify(long_text)[0] == "zu"


def test_model_loads_once_and_is_compact() -> None:
    model = langid.load_model()
    assert langid.load_model() is model
    assert set(model.languages) == set(SA_LANGUAGES)
    assert model.logp.shape == (len(model.index), len(SA_LANGUAGES))
    assert np.isfinite(model.logp).all()
    assert model.ood_threshold < model.override_threshold


def test_single_language_article_is_not_mixed() -> None:
    paragraphs = [SA_PARAGRAPHS["af"], "Foto: Verskaf", SA_PARAGRAPHS["af"].upper()]
    result = identify_paragraphs(paragraphs)
    assert result.language == "af"
    assert not result.mixed
    assert len(result.paragraphs) == 3
    assert result.paragraphs[0][0] == "af"
    assert 0.5 < result.probability <= 1.0


def test_mixed_article_is_flagged() -> None:
    paragraphs = [SA_PARAGRAPHS["en"], SA_PARAGRAPHS["zu"], SA_PARAGRAPHS["en"], SA_PARAGRAPHS["zu"]]
    result = identify_paragraphs(paragraphs)
    assert result.mixed
    assert [lang for lang, _ in result.paragraphs] == ["en", "zu", "en", "zu"]
    assert set(result.shares) == {"en", "zu"}


def test_a_short_quote_in_another_language_does_not_make_an_article_mixed() -> None:
    paragraphs = [SA_PARAGRAPHS["en"]] * 6 + ["Siyabonga kakhulu bantu bakithi."]
    result = identify_paragraphs(paragraphs)
    assert result.language == "en"
    assert not result.mixed


def test_empty_article_is_undetermined() -> None:
    result = identify_paragraphs([])
    assert result.language == "und"
    assert result.probability == 0.0
    assert not result.mixed


def test_afrikaans_written_with_n_apostrophe_letter_is_afrikaans():
    """Official Afrikaans writes the article as "ŉ" (U+0149); CLD2 read this one as Dutch."""
    from sacorpus.text.langid import identify

    assert identify("Dit volg op ŉ vermin dering in voordele")[0] == "af"
    assert identify("Dit volg op ʼn vermin dering in voordele")[0] == "af"
