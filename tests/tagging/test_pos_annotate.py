"""Tags and lemmas of stored tokens: alignment, untagged languages, the stage switched on and off."""

from __future__ import annotations

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.pipelines.annotate import AnnotatePipeline
from sacorpus.settings import ITEM_PIPELINES
from sacorpus.text.analysis import token_fields
from sacorpus.text.tagging.annotate import annotation_fields, token_annotations

EN = "The minister said the schools would reopen on Monday.\nResidents don't have water."
AF = "Die minister het gesê die skole sal Maandag weer oopmaak."
ZU = "Abafundi babuyela ezikoleni ngoMsombuluko."


def record(text: str, language: str, paragraphs: list[dict[str, object]] | None = None) -> dict[str, object]:
    fields, _ = token_fields(text, language)
    return {**fields, "text": text, "language": language, "paragraph_languages": paragraphs or []}


def tags_of(rec: dict[str, object]) -> dict[str, tuple[str | None, str | None]]:
    annotated = token_annotations({**rec, **annotation_fields(rec)})
    return {token: (upos, lemma) for token, upos, lemma in annotated}


def test_english_tags_and_lemmas_align_with_tokens() -> None:
    rec = record(EN, "en")
    fields = annotation_fields(rec)
    assert len(fields["upos"].split(" ")) == len(rec["tokens"]) == len(fields["lemmas"].split(" "))
    assert fields["pos_model"].startswith("en:")
    tags = tags_of(rec)
    assert tags["The"] == ("DET", "the")
    assert tags["schools"] == ("NOUN", "school")
    assert tags["said"][1] == "say" and tags["said"][0] == "VERB"
    assert tags["n't"] == ("PART", "not")
    assert tags["."][0] == "PUNCT"


def test_afrikaans_is_tagged_with_its_own_model() -> None:
    rec = record(AF, "af")
    fields = annotation_fields(rec)
    assert fields["pos_model"].startswith("af:")
    tags = tags_of(rec)
    assert tags["Die"][0] == "DET" and tags["skole"][0] == "NOUN"


def test_languages_without_a_model_get_no_tags() -> None:
    rec = record(ZU, "zu")
    fields = annotation_fields(rec)
    assert fields["pos_model"] == "" and set(fields["upos"].split(" ")) == {"_"}
    assert all(upos is None and lemma is None for _t, upos, lemma in token_annotations({**rec, **fields}))


def test_each_paragraph_is_tagged_in_its_own_language() -> None:
    text = EN.split("\n")[0] + "\n" + ZU
    first_end = text.index("\n")
    paragraphs = [
        {"lang": "en", "prob": 0.99, "start": 0, "end": first_end},
        {"lang": "zu", "prob": 0.98, "start": first_end + 1, "end": len(text)},
    ]
    rec = record(text, "en", paragraphs)
    annotated = token_annotations({**rec, **annotation_fields(rec)})
    by_token = {token: upos for token, upos, _lemma in annotated}
    assert by_token["minister"] == "NOUN" and by_token["Abafundi"] is None


def test_misaligned_annotation_is_not_trusted() -> None:
    rec = {"tokens": ["a", "b"], "upos": "DET", "lemmas": "a"}
    assert token_annotations(rec) == [("a", None, None), ("b", None, None)]


def test_stage_sits_between_tokenize_and_dedup() -> None:
    order = sorted(ITEM_PIPELINES, key=ITEM_PIPELINES.__getitem__)
    names = [path.rsplit(".", 1)[-1] for path in order]
    assert names.index("TokenizePipeline") < names.index("AnnotatePipeline") < names.index("DedupPipeline")


def test_stage_off_by_default_and_on_by_setting() -> None:
    from sacorpus import settings

    with pytest.raises(NotConfigured):
        AnnotatePipeline.from_crawler(
            get_crawler(settings_dict={"SACORPUS_ANNOTATE_ENABLED": settings.SACORPUS_ANNOTATE_ENABLED})
        )
    crawler = get_crawler(settings_dict={"SACORPUS_ANNOTATE_ENABLED": True})
    stage = AnnotatePipeline.from_crawler(crawler)
    item = record(EN, "en")
    out = stage.process_item(item)
    assert out is item and out["pos_model"].startswith("en:")
    assert crawler.stats.get_value("sacorpus/annotate/tagged") == 1
    assert crawler.stats.get_value("sacorpus/annotate/tokens") == len(item["tokens"])
    zu = stage.process_item(record(ZU, "zu"))
    assert zu["pos_model"] == "" and crawler.stats.get_value("sacorpus/annotate/items") == 2
