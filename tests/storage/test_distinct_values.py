"""The values a filter may name: distinct publications and languages from each backend, and the check."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.corpus.known import check_filter_values, known_values
from sacorpus.storage.base import ArticleStore
from sacorpus.testing.corpus import browser_corpus


def _corpus(store: ArticleStore) -> None:
    records = browser_corpus()
    local = dict(records[0], url="https://local.example/1", publication="localpaper", language="xh")
    store.upsert_articles([*records, local, dict(local, url="https://local.example/2", language="")])


def test_distinct_values_of_each_backend(store: ArticleStore) -> None:
    _corpus(store)
    assert store.distinct_values("publication") == {"iol", "mg", "news24", "localpaper"}
    assert store.distinct_values("language") == {"en", "af", "zu", "xh"}  # an empty language is no value
    assert store.distinct_values("dedup_label") == {"unique", "duplicate"}
    with pytest.raises(ValueError, match="not an indexed field"):
        store.distinct_values("text")


def test_unknown_filter_values_are_errors(store: ArticleStore) -> None:
    _corpus(store)
    settings = Settings({"SACORPUS_PUBLICATIONS_DIR": ""})
    known = known_values(store, settings)
    assert {"localpaper", "sabc", "iol"} <= set(known.publications)  # the store's and the files'
    assert {"xh", "af", "zu"} <= set(known.languages)
    # stored but without a file, and a file but nothing stored: both are real choices
    check_filter_values(
        ArticleFilter(publications=("localpaper", "sabc"), languages=("xh",)), store, settings
    )
    with pytest.raises(
        FilterError, match=r"unknown publication nope, mgg; known: businesslive, .*localpaper"
    ):
        check_filter_values(ArticleFilter(publications=("iol", "nope", "mgg")), store, settings)
    with pytest.raises(FilterError, match=r"unknown language english; known: af, "):
        check_filter_values(ArticleFilter(languages=("english",)), store, settings)
    with pytest.raises(
        FilterError, match=r"unknown dedup label dupe; known: unique, similar, duplicate, none"
    ):
        ArticleFilter(dedup_labels=("dupe",))


def test_dedup_label_filter() -> None:
    flt = ArticleFilter(dedup_labels=("duplicate", "none"))
    assert flt.matches({"dedup_label": "duplicate"}) and flt.matches({"dedup_label": None})
    assert not flt.matches({"dedup_label": "unique"}) and flt.rejected["dedup-label"] == 1
    assert flt.describe() == "dedup_label=duplicate,none"
