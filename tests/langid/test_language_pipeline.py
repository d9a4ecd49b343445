from __future__ import annotations

import pytest
from langid_samples import SA_PARAGRAPHS
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.items import Article
from sacorpus.pipelines.language import LanguagePipeline


def make_pipeline(**settings):
    crawler = get_crawler(settings_dict=settings)
    return LanguagePipeline.from_crawler(crawler), crawler


def test_disabled_by_setting() -> None:
    with pytest.raises(NotConfigured):
        make_pipeline(SACORPUS_LANGUAGE_ENABLED=False)


def test_fills_article_and_paragraph_languages() -> None:
    pipeline, crawler = make_pipeline()
    text = "\n".join([SA_PARAGRAPHS["xh"], "", "  " + SA_PARAGRAPHS["xh"] + "  ", "Umfanekiso: GCIS"])
    item = Article(url="https://example.co.za/a", publication="demo", text=text)
    assert pipeline.process_item(item) is item
    assert item.language == "xh"
    assert 0.5 < item.language_prob <= 1.0
    assert item.mixed_language is False
    assert len(item.paragraph_languages) == 3
    for para in item.paragraph_languages:
        assert set(para) == {"lang", "prob", "start", "end"}
        segment = text[para["start"] : para["end"]]
        assert segment == segment.strip() and segment
    assert item.paragraph_languages[1]["start"] == text.index(SA_PARAGRAPHS["xh"], 1)
    assert crawler.stats.get_value("sacorpus/language/xh") == 1


def test_mixed_article() -> None:
    pipeline, crawler = make_pipeline()
    text = "\n".join([SA_PARAGRAPHS["en"], SA_PARAGRAPHS["st"], SA_PARAGRAPHS["en"], SA_PARAGRAPHS["st"]])
    item = Article(url="https://example.co.za/b", publication="demo", text=text)
    pipeline.process_item(item)
    assert item.mixed_language is True
    assert [p["lang"] for p in item.paragraph_languages] == ["en", "st", "en", "st"]
    assert crawler.stats.get_value("sacorpus/language/mixed") == 1


@pytest.mark.parametrize("text", [None, "", " \n \n"])
def test_page_without_text_is_und(text: str | None) -> None:
    pipeline, crawler = make_pipeline()
    item = Article(url="https://example.co.za/c", publication="demo", text=text, page_type="gallery")
    pipeline.process_item(item)
    assert item.language == "und"
    assert item.language_prob == 0.0
    assert item.paragraph_languages == []
    assert crawler.stats.get_value("sacorpus/language/und") == 1


def test_plain_dict_items_work_too() -> None:
    pipeline, _ = make_pipeline()
    item = {"url": "https://example.co.za/d", "text": SA_PARAGRAPHS["ve"], "problems": []}
    pipeline.process_item(item)
    assert item["language"] == "ve"
