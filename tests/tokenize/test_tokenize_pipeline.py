from __future__ import annotations

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.items import Article
from sacorpus.pipelines.tokenize import TokenizePipeline
from sacorpus.text.analysis import anchors_from_html

HTML = """<html><head><title>Budget | Example News</title></head><body>
<nav><a href="/news">News</a> <a href="/budget">Budget</a></nav>
<article>
  <h1>Minister: "We won't cut grants"</h1>
  <p>The Budget was tabled on Wednesday. Read the <a href="/docs/budget.pdf">full budget</a> online.</p>
  <p>"We won't cut grants," the minister said. <a href="https://x.example/video"><img src="v.jpg"></a></p>
  <p>Contact <a href="mailto:press@example.gov.za">the press office</a> or see www.treasury.gov.za.</p>
</article>
<footer><a href="/about">About the budget</a></footer>
</body></html>"""

TEXT = (
    "The Budget was tabled on Wednesday. Read the full budget online.\n"
    '"We won\'t cut grants," the minister said.\n'
    "Contact the press office or see www.treasury.gov.za."
)


def make_pipeline(**settings):
    crawler = get_crawler(settings_dict=settings)
    return TokenizePipeline.from_crawler(crawler), crawler


def article(**fields) -> Article:
    defaults = {"url": "https://news.example.co.za/budget", "publication": "demo", "html": HTML, "text": TEXT,
                "title": 'Minister: "We won\'t cut grants" | Example News',
                "title_clean": 'Minister: "We won\'t cut grants"', "language": "en"}  # fmt: skip
    defaults.update(fields)
    return Article(**defaults)


def test_disabled_by_setting() -> None:
    with pytest.raises(NotConfigured):
        make_pipeline(SACORPUS_TOKENIZE_ENABLED=False)


def test_anchors_only_from_the_main_content() -> None:
    anchors = anchors_from_html(HTML, "https://news.example.co.za/budget")
    assert anchors == [
        ("full budget", "https://news.example.co.za/docs/budget.pdf"),
        ("", "https://x.example/video"),
        ("the press office", "mailto:press@example.gov.za"),
    ]
    assert anchors_from_html("<html><body><a href='/x'>x</a></body></html>") == []
    assert anchors_from_html("") == []


def test_fills_tokens_counts_title_quotes_and_links() -> None:
    pipeline, crawler = make_pipeline()
    item = article()
    assert pipeline.process_item(item) is item
    assert [TEXT[a:b] for a, b in item.sentences] == [
        "The Budget was tabled on Wednesday.", "Read the full budget online.",
        '"We won\'t cut grants," the minister said.', "Contact the press office or see www.treasury.gov.za.",
    ]  # fmt: skip
    assert item.tokens[:7] == ["The", "Budget", "was", "tabled", "on", "Wednesday", "."]
    assert "n't" in item.tokens and "``" in item.tokens and "www.treasury.gov.za" in item.tokens
    assert len(item.token_offsets) == len(item.tokens) == item.token_count
    assert item.word_count == sum(1 for t in item.tokens if any(c.isalnum() for c in t))
    assert item.title_tokens == ["Minister", ":", "``", "We", "wo", "n't", "cut", "grants", "''"]
    assert [(q["text"], q["style"]) for q in item.quotes] == [("We won't cut grants,", "double")]
    assert [(link["url"], link["text"]) for link in item.links] == [
        ("https://news.example.co.za/docs/budget.pdf", "full budget"),
        ("https://x.example/video", ""),
        ("mailto:press@example.gov.za", "the press office"),
        ("http://www.treasury.gov.za", "www.treasury.gov.za"),
    ]
    video = item.links[1]
    assert video["length"] == 0 and video["start"] == TEXT.index("full budget") + len("full budget")
    assert crawler.stats.get_value("sacorpus/tokenize/tokens") == item.token_count
    assert crawler.stats.get_value("sacorpus/tokenize/items") == 1


def test_anchors_from_the_extract_stage_take_precedence() -> None:
    pipeline, _ = make_pipeline()
    item = article(fallback={"anchors": [["the minister", "https://gov.example/minister"]]})
    pipeline.process_item(item)
    assert [(link["url"], link["text"]) for link in item.links] == [
        ("https://gov.example/minister", "the minister"),
        ("http://www.treasury.gov.za", "www.treasury.gov.za"),
    ]


def test_non_english_article_and_missing_fields() -> None:
    pipeline, _ = make_pipeline()
    text = "Mnr. Botha het gesê: “Ons is ’n span.” Dit is goeie nuus."
    item = article(text=text, html=None, title=None, title_clean=None, language="af")
    pipeline.process_item(item)
    assert item.tokens == ["Mnr.", "Botha", "het", "gesê", ":", "``", "Ons", "is", "'n", "span", ".", "''",
                           "Dit", "is", "goeie", "nuus", "."]  # fmt: skip
    assert item.title_tokens == []
    assert item.links == []
    assert item.quotes[0]["style"] == "curly_double"


def test_page_without_text() -> None:
    pipeline, _ = make_pipeline()
    item = article(text=None, html=None, language="und", page_type="gallery")
    pipeline.process_item(item)
    assert item.tokens == [] and item.token_count == 0 and item.word_count == 0
    assert item.title_tokens[:2] == ["Minister", ":"]
    assert item.problems == []


def test_scripts_without_spaces_get_sentences():
    from sacorpus.text.tokenize import split_sentences

    text = "今天天气很好。我们去公园散步吧！你觉得怎么样？「好的。」他说。\n東京は晴れです｡明日は雨でしょう？"
    spans = [text[a:b] for a, b in split_sentences(text, "en")]
    assert spans == [
        "今天天气很好。",
        "我们去公园散步吧！",
        "你觉得怎么样？",
        "「好的。」",
        "他说。",
        "東京は晴れです｡",
        "明日は雨でしょう？",
    ]
    hindi = "सरकार ने नई योजना की घोषणा की। यह अगले महीने से लागू होगी।"
    assert len(split_sentences(hindi, "en")) == 2


def test_reworded_sentences_in_unspaced_scripts_stay_near_in_simhash():
    from sacorpus.text.dedup import normalize_text, simhash64

    a = simhash64(normalize_text("イオン銀行は十四日、同日付で小林社長を解任する人事を発表した"))
    b = simhash64(normalize_text("イオン銀行は十四日、同日付で小林社長を解任する人事を正式に発表した"))
    c = simhash64(normalize_text("東京電力は来年度の電気料金を引き上げる方針を明らかにした"))
    assert bin((a ^ b) & (2**64 - 1)).count("1") <= 14 < bin((a ^ c) & (2**64 - 1)).count("1")
