"""The cheaper pipeline gives the fields the plain computations give.

Each faster path is checked against the straightforward computation it replaces, in the same run:
the language model scoring a page's paragraphs together against scoring them one by one, the SimHash
counted by numpy against counting the bits of each word hash, the parse with element classes chosen
in C against ``lxml.html``'s own parser, and a label write that leaves the body and HTML alone against
the stored row it came from.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
import numpy as np
import pytest

from sacorpus.demo.site import build_site
from sacorpus.storage.base import StorageError
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.text.dedup_hashing import hash64, normalize_text, simhash64, split_sentences
from sacorpus.text.extract import extract_article
from sacorpus.text.langid import identify, identify_many, load_model, normalize_for_model
from sacorpus.text.langid_model import BATCH_GRAMS
from sacorpus.text.preclean import parse_html

PARAGRAPHS = [
    "The provincial health department announced a plan to rebuild 40 clinics on Monday.",
    "Die munisipale raad het die begroting vir nuwe busse goedgekeur.",
    "Abahlali baseMamelodi bathi bazoqhubeka nombhikisho kuze kube yilapho behlangana nomphathi.",
    "Baithuti ba sekolo se segolo sa Soweto ba kgethile moetapele yo mošwa.",
    "Die Bundesregierung hat am Montag einen neuen Haushalt vorgelegt.",
    "ŉ Boer naby Bethlehem sê die reën het te laat gekom.",
    "OK",
    "",
    "12 34 56",
    "www.example.co.za",
    "日本語の文章です。東京で会議が開かれました。",
    "x " * 3000,
]


def _demo_pages() -> list[tuple[str, str]]:
    """(path, HTML) of every article page of the demo site (our own fixture)."""
    site = build_site()
    return [
        (path, res.body.decode("utf-8"))
        for path, res in site.items()
        if res.content_type.startswith("text/html") and ("/news/" in path or "/business/" in path)
    ]


def test_paragraphs_scored_together_as_one_by_one() -> None:
    model = load_model()
    texts = [normalize_for_model(p) for p in PARAGRAPHS]
    texts = [t for t in texts if t]
    together = model.scores_many(texts)
    for text, (total, count, n_all) in zip(texts, together, strict=True):
        alone_total, alone_count, alone_n = model.scores(text)  # a batch of one
        assert (count, n_all) == (alone_count, alone_n)
        assert np.array_equal(total, alone_total)
    # the scores of a batch do not depend on its neighbours
    assert np.array_equal(model.scores_many(texts[::-1])[-1][0], together[0][0])


def test_known_ngrams_found_as_the_model_lists_them() -> None:
    model = load_model()
    grams = list(model.index)[:5000]
    from sacorpus.text.langid_model import gram_hash

    hashes = np.fromiter((gram_hash(g) for g in grams), dtype=np.uint64, count=len(grams))
    rows = model.rows_of(hashes)
    assert [int(r) for r in rows] == [model.index[g] for g in grams]
    assert (model.rows_of(hashes ^ np.uint64(0x5555)) < 0).mean() > 0.99  # unknown hashes: -1


def test_identify_many_answers_as_identify() -> None:
    many = identify_many(PARAGRAPHS)
    for paragraph, (lang, prob) in zip(PARAGRAPHS, many, strict=True):
        one_lang, one_prob = identify(paragraph)
        assert lang == one_lang
        assert prob == pytest.approx(one_prob, abs=1e-9)  # lingua's last digits vary call to call
    assert many[0][0] == "en" and many[1][0] == "af" and many[7] == ("und", 0.0)


def test_pages_larger_than_a_batch_are_scored_in_several() -> None:
    model = load_model()
    long = [normalize_for_model(PARAGRAPHS[i % 6] * 30) for i in range(BATCH_GRAMS // 5000 + 10)]
    assert sum(len(t) * len(model.orders) for t in long) > BATCH_GRAMS
    assert model.predict_many(long) == [model.predict(t) for t in long]


def _simhash_by_columns(norm: str) -> int:
    """The SimHash as first written: each word hash as 64 characters, a bit set where most set it."""
    words = norm.split()
    if not words:
        return 0
    columns = zip(*(f"{hash64(w) & 0xFFFFFFFFFFFFFFFF:064b}" for w in words), strict=True)
    bits = "".join("1" if col.count("1") > len(words) / 2 else "0" for col in columns)
    return int.from_bytes(int(bits, 2).to_bytes(8, "big"), "big", signed=True)


def test_simhash_counts_bits_as_the_columns_do() -> None:
    text = "\n".join(p for p in PARAGRAPHS if p and not p.startswith("日本")) + "\nOne two.\nA b c d"
    sentences = [normalize_text(s) for s in split_sentences(text)]
    assert len(sentences) > 8
    for norm in sentences:
        assert simhash64(norm) == _simhash_by_columns(norm)
    assert simhash64("") == 0


def test_parse_keeps_lxml_html_elements_and_the_extraction() -> None:
    pages = _demo_pages()
    assert len(pages) > 20
    for _path, html in pages[:12]:
        fast = parse_html(html)
        assert fast is not None
        plain = lxml.html.document_fromstring(
            html,
            parser=lxml.html.HTMLParser(
                remove_comments=True, remove_pis=True, collect_ids=False, default_doctype=False
            ),
        )
        assert lxml.html.tostring(fast) == lxml.html.tostring(plain)
        assert all(isinstance(el, lxml.html.HtmlElement) for el in fast.iter() if isinstance(el.tag, str))
        assert fast.text_content() == plain.text_content()
    result = extract_article(pages[0][1], "http://demo.sacorpus.invalid" + pages[0][0])
    assert result.text and result.title and result.page_type == "article"


@pytest.fixture
def sqlite_store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(str(tmp_path / "corpus.sqlite"), spill_path=str(tmp_path / "spill.jsonl"))
    store.open()
    return store


def test_label_update_keeps_body_and_html(sqlite_store: SQLiteStore) -> None:
    record = {
        "url": "http://a.invalid/1",
        "publication": "a",
        "text": "Hello there.",
        "body": b"<html>x</html>",
    }
    sqlite_store.upsert_articles([{**record, "html": "<html>x</html>", "tokens": ["Hello", "there", "."]}])
    assert sqlite_store.update_fields(record["url"], {"dedup_label": "unique", "dedup_evidence": []})
    stored = sqlite_store.get(record["url"])
    assert stored is not None
    assert stored["body"] == b"<html>x</html>" and stored["html"] == "<html>x</html>"
    assert stored["dedup_label"] == "unique" and stored["tokens"] == ["Hello", "there", "."]
    assert sqlite_store.unlabelled_urls() == []  # the indexed column moved with the JSON
    assert not sqlite_store.update_fields("http://a.invalid/none", {"dedup_label": "unique"})
    assert sqlite_store.update_fields(record["url"], {"html": "<html>y</html>"})
    assert (sqlite_store.get(record["url"]) or {})["html"] == "<html>y</html>"


def test_batched_writes_are_all_or_nothing(sqlite_store: SQLiteStore) -> None:
    rows = [{"url": f"http://a.invalid/{i}", "publication": "a", "text": f"Text {i}."} for i in range(3)]
    sqlite_store.upsert_articles(rows)
    with sqlite_store.batched():
        for row in rows:
            sqlite_store.update_fields(row["url"], {"dedup_label": "unique"})
    assert sqlite_store.unlabelled_urls() == []
    with pytest.raises(StorageError), sqlite_store.batched():
        sqlite_store.update_fields(rows[0]["url"], {"dedup_label": "duplicate"})
        raise StorageError("the store went away mid-batch")
    assert (sqlite_store.get(rows[0]["url"]) or {})["dedup_label"] == "unique"
