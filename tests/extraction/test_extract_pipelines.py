"""The page stage as a Scrapy component: switches, stats, labels, dated rules, the H/C contract."""

from __future__ import annotations

import gzip
from datetime import date

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from sacorpus.items import Article
from sacorpus.pipelines.page import PagePipeline
from sacorpus.publications import ElementFilter, Publication, RuleSet

URL = "https://www.iol.co.za/news/south-africa/severe-storms-gauteng-1234"


class PubSpider(scrapy.Spider):
    name = "iol"
    publication = Publication(
        slug="iol",
        name="IOL",
        home="https://www.iol.co.za",
        domains=("iol.co.za",),
        languages=("en",),
        rules=(
            RuleSet(version="current", strip_text=(r"^© \d{4} Independent Online.*$",)),
            RuleSet(
                version="2014",
                valid_until=date(2016, 1, 1),
                filters=(ElementFilter("div", "class", "article-body"),),
            ),
            RuleSet(
                version="2019",
                valid_until=date(2019, 12, 31),
                strip_text=(r"^Emergency services in Ekurhuleni.*$",),
            ),
        ),
    )


def crawler(settings=None, spider=True):
    # the page stage in this process, called synchronously (page workers: tests/pipeline_cost)
    c = get_crawler(PubSpider, {"SACORPUS_PAGE_WORKERS": 0, **(settings or {})})
    if spider:
        c.spider = c._create_spider()
    return c


def run_all(c, item):
    return PagePipeline.from_crawler(c).process_item(item)


def stats(c):
    return c.stats.get_stats()


def test_full_chain_fills_fields_and_keeps_html(fixture_html):
    c = crawler()
    page = fixture_html("iol_article.html")
    item = Article(
        url=URL,
        publication="iol",
        body=gzip.compress(gzip.compress(page.encode())),
        headers={"Content-Encoding": "gzip", "Content-Type": "text/html; charset=utf-8"},
    )
    item = run_all(c, item)
    assert item.content_encoding == "gzip+gzip"
    assert item.html == page  # H is the page as published, not the pre-cleaned HTML
    assert "Independent Online" not in item.text  # the publication's current strip_text applied
    assert item.title == "Severe storms hit Gauteng, residents urged to stay indoors"
    assert item.authors == ["Thandi Mokoena", "Pieter van Wyk"]
    assert item.published_at == "2025-11-28T13:26:06Z"
    assert item.rule_version == "current"
    assert item.page_type == "article"
    assert ["IOL", "https://www.iol.co.za/news/weather"] in item.fallback["anchors"]
    s = stats(c)
    assert s["sacorpus/gzip/applied/gzip"] == 2
    assert s["sacorpus/extract/page_type/article"] == 1
    assert s.get("sacorpus/extract/hidden_removed", 0) >= 2


def test_wayback_capture_uses_dated_rules(fixture_html):
    c = crawler()
    item = Article(
        url=URL,
        publication="iol",
        body=fixture_html("iol_article.html").encode(),
        wayback_timestamp="20140512093000",
    )
    item = run_all(c, item)
    assert item.rule_version == "2014"
    # the 2014 filter names the modern body container: on this page it would remove all the prose, so it
    # is distrusted for the page (text kept, the rule named in problems and stats)
    assert "Weather Service" in (item.text or "")
    assert "extract:rules-distrusted:2014:filters[0]" in item.problems
    assert stats(c)["sacorpus/extract/rules-distrusted:2014:filters[0]"] == 1


def test_capture_date_chooses_the_rule_set_of_its_period(fixture_html):
    c = crawler()
    item = run_all(
        c,
        Article(
            url=URL,
            publication="iol",
            body=fixture_html("iol_article.html").encode(),
            wayback_timestamp="20180301000000",
        ),
    )
    assert item.rule_version == "2019"
    assert "Weather Service" in item.text and "Emergency services in Ekurhuleni" not in item.text


def test_truncated_gzip_is_noted_and_counted():
    c = crawler()
    data = gzip.compress(
        ("<html><body>" + "<p>Water cuts in Tshwane continue.</p>" * 500 + "</body></html>").encode()
    )
    item = run_all(c, Article(url=URL, publication="iol", body=data[: len(data) // 2]))
    assert "gzip:truncated" in item.problems
    assert stats(c)["sacorpus/gzip/truncated"] == 1


def test_binary_body_labelled_not_dropped():
    c = crawler()
    item = Article(
        url=URL + ".pdf",
        publication="iol",
        body=b"%PDF-1.4\n...",
        headers={"Content-Type": "application/pdf"},
    )
    item = run_all(c, item)
    assert item.page_type == "binary" and item.html is None and item.text is None
    assert stats(c)["sacorpus/decode/binary"] == 1
    assert stats(c)["sacorpus/extract/page_type/binary"] == 1


def test_mojibake_counted():
    c = crawler()
    page = "<html><body><p>Caf\u00e9 owners in Gqeberha say they\u2019re struggling, na\u00efvely hopeful.</p></body></html>"
    broken = page.encode("utf-8").decode("cp1252").encode("utf-8")
    item = run_all(c, Article(url=URL, publication="iol", body=broken))
    assert "they\u2019re" in item.html
    assert stats(c)["sacorpus/decode/mojibake-repaired"] == 1


def test_switches():
    with pytest.raises(NotConfigured):
        PagePipeline.from_crawler(crawler({"SACORPUS_EXTRACT_ENABLED": False}))


def test_gzip_step_switch_leaves_body_compressed():
    body = gzip.compress(b"<html><body><p>Water cuts in Tshwane continue.</p></body></html>")
    item = run_all(crawler({"SACORPUS_GZIP_ENABLED": False}), Article(url=URL, publication="iol", body=body))
    assert item.body == body and item.content_encoding is None
    assert "Water cuts" not in (item.text or "")


def test_preclean_switch_off_keeps_hidden_text(fixture_html):
    c = crawler({"SACORPUS_PRECLEAN_ENABLED": False})
    item = Article(url=URL, publication="iol", html=fixture_html("iol_article.html"))
    item = PagePipeline.from_crawler(c).process_item(item)
    on = PagePipeline.from_crawler(crawler()).process_item(
        Article(url=URL, publication="iol", html=fixture_html("iol_article.html"))
    )
    assert "bridges.The warning" in item.text or "bridges. The warning" in item.text
    assert "Advertisement continues" not in on.text


def test_no_publication_uses_default_rules(fixture_html):
    c = crawler(spider=False)
    item = Article(url=URL, publication="x", html=fixture_html("iol_article.html"))
    item = PagePipeline.from_crawler(c).process_item(item)
    assert item.rule_version == "default"
    assert item.title_clean.startswith("Severe storms")


def test_rules_come_from_the_items_publication_not_the_spider(fixture_html):
    """A stage with no spider finds the shipped publication of the item's slug (reextract, workers)."""
    c = crawler(spider=False)
    shipped = Article(url=URL, publication="iol", html=fixture_html("iol_article.html"))
    PagePipeline.from_crawler(c).process_item(shipped)
    from sacorpus.publications import load_publication

    assert shipped.rule_version == load_publication("iol").rules_for(None).version != "default"
