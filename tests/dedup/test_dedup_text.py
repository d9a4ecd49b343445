"""The pure part of dedup: normalisation, sentences, hashes, URL keys, similarity, labels."""

from __future__ import annotations

import pytest

from sacorpus.text.dedup import (
    DedupConfig,
    Fingerprint,
    canonical_key,
    fingerprint,
    hash64,
    label_for,
    normalize_text,
    sentence_hashes,
    simhash64,
    similarity,
    slug_key,
    split_sentences,
    text_hash,
)


def test_normalize_ignores_case_punctuation_and_spacing() -> None:
    assert normalize_text("  The  MINISTER said: “No!”\n") == normalize_text("the minister said no")
    assert normalize_text("Ümhlanga  Rocks") == "ümhlanga rocks"


def test_hash64_is_a_stable_signed_int64() -> None:
    values = [hash64(f"sentence {i}") for i in range(500)]
    assert all(-(2**63) <= v < 2**63 for v in values)
    assert any(v < 0 for v in values) and any(v > 0 for v in values)
    assert hash64("same text") == hash64("same text")


def test_text_hash_ignores_layout_only() -> None:
    assert text_hash("A b.\nC d!") == text_hash("a b c d")
    assert text_hash("A b c") != text_hash("A b d")
    assert text_hash("") is None and text_hash(" ,; ") is None


def test_split_sentences_regex_and_layout_independence() -> None:
    text = "Eskom announced load shedding. Stage 4 starts at 16:00!\nResidents are angry? Yes."
    assert split_sentences(text) == [
        "Eskom announced load shedding.",
        "Stage 4 starts at 16:00!",
        "Residents are angry?",
        "Yes.",
    ]
    # the same sentences, laid out one a line, split the same way
    assert split_sentences("\n".join(split_sentences(text))) == split_sentences(text)
    assert split_sentences("東京は晴れです。大阪は雨です。") == ["東京は晴れです。", "大阪は雨です。"]


def test_split_sentences_uses_offsets_and_splits_them_at_line_breaks() -> None:
    text = "First sentence here. Heading\nSecond sentence."
    assert split_sentences(text, [[0, 20], [21, len(text)]]) == [
        "First sentence here.",
        "Heading",
        "Second sentence.",
    ]
    # bad offsets are skipped; no usable offsets falls back to the regex
    assert split_sentences(text, [[50, 10], ["x", 3]]) == split_sentences(text)


def test_short_sentences_are_not_hashed() -> None:
    hashes = sentence_hashes("Too short. This sentence is certainly long enough to count.", min_chars=20)
    assert len(hashes) == 1
    assert list(hashes.values()) == [len(normalize_text("This sentence is certainly long enough to count."))]


def test_canonical_key() -> None:
    assert canonical_key("https://www.iol.co.za/news/a-b/?utm_source=x#top") == "iol.co.za/news/a-b"
    assert canonical_key("http://m.iol.co.za/news/a-b/amp") == "iol.co.za/news/a-b"
    assert canonical_key("https://x.co.za/a?id=3&utm_medium=y") == "x.co.za/a?id=3"
    assert canonical_key("not a url") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "https://www.iol.co.za/news/politics/minister-resigns-after-report-20231012",
            "https://iol.co.za/news/politics/minister-resigns-after-report-20231015",
        ),
        (
            "https://mg.co.za/article/12345/minister-resigns-after-report",
            "https://mg.co.za/article/67890/minister-resigns-after-report",
        ),
        (
            "https://news24.com/n/minister-resigns-after-report-3f9a2c1d",
            "https://news24.com/n/minister-resigns-after-report-77be01aa",
        ),
    ],
)
def test_slug_key_same_slug_changed_id(a: str, b: str) -> None:
    assert slug_key(a) is not None and slug_key(a) == slug_key(b)


def test_slug_key_needs_a_real_slug() -> None:
    assert slug_key("https://iol.co.za/news/12345") is None
    assert slug_key("https://iol.co.za/news/politics") is None
    assert slug_key("https://a.co.za/minister-resigns-after-report") != slug_key(
        "https://b.co.za/minister-resigns-after-report"
    )


def test_simhash_near_for_rewording_far_for_other_sentences() -> None:
    a = simhash64(
        normalize_text(
            "The minister announced on Tuesday that 300 new clinics would open in Limpopo next year"
        )
    )
    b = simhash64(
        normalize_text(
            "The minister announced on Monday that 310 new clinics would open in Limpopo next year"
        )
    )
    c = simhash64(
        normalize_text("Heavy rain caused flooding across the Eastern Cape and several roads were closed")
    )
    assert (a ^ b).bit_count() <= 14 < (a ^ c).bit_count()
    assert simhash64("") == 0


def test_similarity_shared_over_union_ignoring_boilerplate() -> None:
    cfg = DedupConfig(fuzzy_bits=0)
    a = {1: 50, 2: 50, 3: 50, 4: 50}
    b = {1: 50, 2: 50, 3: 50, 5: 50}
    assert similarity(a, b, {}, cfg) == (pytest.approx(3 / 5), 3)
    # hash 5 is in 11 articles: boilerplate, out of the union
    assert similarity(a, b, {5: 11}, cfg) == (pytest.approx(3 / 4), 3)
    assert similarity({}, b, {}, cfg) == (0.0, 0)


def test_weights_change_scores() -> None:
    a = {1: 200, 2: 30}
    b = {1: 200, 3: 30}
    plain, _ = similarity(a, b, {}, DedupConfig(fuzzy_bits=0))
    long_w, _ = similarity(a, b, {}, DedupConfig(weight_long=True, fuzzy_bits=0))
    assert long_w > plain  # the shared sentence is the long one
    rare_w, _ = similarity(a, b, {1: 9, 2: 2, 3: 2}, DedupConfig(weight_rare=True, fuzzy_bits=0))
    assert rare_w < plain  # the shared sentence is common


def test_labels() -> None:
    cfg = DedupConfig()
    assert [label_for(x, cfg) for x in (1.0, 0.8, 0.79, 0.3, 0.29, 0.0)] == [
        "duplicate",
        "duplicate",
        "similar",
        "similar",
        "unique",
        "unique",
    ]


def test_fingerprint_record_roundtrip() -> None:
    fp = fingerprint(
        "https://a.co.za/x/minister-resigns-after-report-123",
        "The minister resigned on Friday after the report. Opposition parties welcomed the decision.",
        canonical_url="https://www.a.co.za/x/minister-resigns-after-report-123/",
    )
    back = Fingerprint.from_record(fp.to_record())
    assert back == fp
    assert fp.canonical_key == "a.co.za/x/minister-resigns-after-report-123"
    assert len(fp.sentences) == 2 and len(fp.simhashes) == 2


def test_canonical_pointing_at_the_home_page_is_ignored() -> None:
    fp = fingerprint("https://a.co.za/news/story-1", "Some text here.", canonical_url="https://www.a.co.za/")
    assert fp.canonical_key == "a.co.za/news/story-1"


def test_config_from_settings_dict() -> None:
    cfg = DedupConfig.from_settings(
        {
            "SACORPUS_DEDUP_DUPLICATE": "0.9",
            "SACORPUS_DEDUP_WEIGHT_LONG": "true",
            "SACORPUS_DEDUP_MIN_SENTENCE_CHARS": 10,
        }
    )
    assert cfg.duplicate == 0.9 and cfg.weight_long and cfg.min_sentence_chars == 10 and cfg.similar == 0.3


def test_the_publications_id_pattern_gives_the_slug_evidence():
    """``id_pattern`` works as documented: the same slug with a changed id is the same story, and a URL
    without an id (a recurring section slug) gives no slug evidence at all."""
    from sacorpus.publications import load_publication
    from sacorpus.text.dedup_labels import publication_slug

    demo = load_publication("demo")  # id_pattern '-(?P<id>\d{5,})$'
    first = publication_slug("http://demo.sacorpus.invalid/news/2026/11/20/water-back-in-soweto-10001", demo)
    moved = publication_slug("http://demo.sacorpus.invalid/news/2026/11/20/water-back-in-soweto-10777", demo)
    other = publication_slug("http://demo.sacorpus.invalid/news/2026/11/20/rand-firms-10002", demo)
    assert first == moved and first != other and isinstance(first, str)
    assert publication_slug("http://demo.sacorpus.invalid/news/lotto-results", demo) is None
    assert publication_slug("https://example.org/a/story-title-here-now", None) is True  # generic heuristic
