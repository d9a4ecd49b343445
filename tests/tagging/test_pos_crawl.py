"""The annotate stage in a real crawl of the demo site: English and Afrikaans tagged, other languages not."""

from __future__ import annotations

from pathlib import Path

import pytest
from crawlkit import run_crawl

from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.tagging.annotate import token_annotations

pytestmark = pytest.mark.slow


def test_demo_crawl_with_tagging_on(tmp_path: Path) -> None:
    run = run_crawl("demo", tmp_path, "-s", "SACORPUS_ANNOTATE_ENABLED=True", export=False)
    assert run.returncode == 0, run.log[-3000:]
    assert "sacorpus/annotate/tagged" in run.log
    with SQLiteStore(str(run.sqlite_path)) as store:
        articles = [a for a in store.iter_articles() if a.get("page_type") == "article" and a.get("tokens")]
    by_language: dict[str, list[dict]] = {}
    for article in articles:
        by_language.setdefault(article["language"], []).append(article)
    assert {"en", "af", "zu"} <= set(by_language)
    for language in ("en", "af"):
        for article in by_language[language]:
            annotated = token_annotations(article)
            assert len(annotated) == len(article["tokens"]) and article["pos_model"].startswith(
                f"{language}:"
            )
            tagged = [upos for _token, upos, _lemma in annotated if upos]
            assert len(tagged) >= 0.9 * len(annotated), article["url"]  # mixed paragraphs may stay untagged
            assert {"NOUN", "VERB", "PUNCT"} <= set(tagged), article["url"]
    for article in by_language["zu"]:
        if not article.get("mixed_language"):
            assert article["pos_model"] == "" and set(article["upos"].split(" ")) == {"_"}, article["url"]
