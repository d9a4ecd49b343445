"""Unit tests of the pure corpus functions on small inputs whose answers are worked out by hand."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from corpus_fixtures import corpus_records, tokenize

from sacorpus.corpus.collocations import (
    CollocationCounter,
    collocates,
    contingency,
    log_likelihood,
    mutual_information,
    span_positions,
    t_score,
)
from sacorpus.corpus.exporting import ExportFieldError, export_fields, jsonl_line
from sacorpus.corpus.filters import ArticleFilter, FilterError
from sacorpus.corpus.kwic import find_phrase, format_hit, kwic_hits, query_tokens, sort_hits
from sacorpus.corpus.plot import monthly_series, tick_indexes
from sacorpus.corpus.search import PatternError, compile_pattern, search_record
from sacorpus.corpus.stats import CorpusStats, group_value, month_of, month_range
from sacorpus.corpus.wordlist import WordCounter, is_word, wordlist_rows

# --- filters -------------------------------------------------------------------------------------


def _urls(flt: ArticleFilter) -> list[str]:
    return [r["url"].rsplit("/", 1)[1] for r in corpus_records() if flt.matches(r)]


def test_filter_conditions() -> None:
    assert len(_urls(ArticleFilter())) == 5
    assert _urls(ArticleFilter(publications=("iol",))) == ["land-reform-1", "land-reform-2"]
    assert _urls(ArticleFilter(publications=("iol,news24",))) == [
        "land-reform-1",
        "land-reform-2",
        "water-af",
    ]
    assert _urls(ArticleFilter(languages=("af",))) == ["water-af"]
    assert "land-reform-2" not in _urls(ArticleFilter(exclude_duplicates=True))
    # month bounds are inclusive on both ends; the undated article never passes a date filter
    assert _urls(ArticleFilter(since="2024-02", until="2024-02")) == ["land-reform-2", "water"]
    assert _urls(ArticleFilter(since="2024-02-20")) == ["water", "water-af"]
    assert _urls(ArticleFilter(until="2024-02-20")) == ["land-reform-1", "land-reform-2", "water"]
    assert _urls(ArticleFilter(until="2024-02-20T23:59")) == ["land-reform-1", "land-reform-2", "water"]
    assert _urls(ArticleFilter(until="2024-02-20T23:58")) == ["land-reform-1", "land-reform-2"]


def test_filter_reads_dates_stored_by_earlier_versions(tmp_path) -> None:
    """Rows written with ``+00:00`` or a local offset, read back from a real store, filter by UTC day."""
    from sacorpus.storage.sqlite import SQLiteStore

    store = SQLiteStore(str(tmp_path / "old.sqlite"), spill_path=str(tmp_path / "spill.jsonl"))
    store.open()
    try:
        dates = {
            "new-form": "2024-03-05T08:00:00Z",
            "old-form": "2024-03-05T23:59:59+00:00",
            "local-evening-before": "2024-03-05T01:00:00+02:00",  # 2024-03-04 in UTC
            "local-late": "2024-03-06T01:00:00+02:00",  # 2024-03-05 in UTC
        }
        store.upsert_articles(
            [{"url": f"https://x.co.za/{k}", "publication": "x", "published_at": v} for k, v in dates.items()]
        )
        flt = ArticleFilter(since="2024-03-05", until="2024-03-05")
        kept = sorted(r["url"].rsplit("/", 1)[1] for r in store.iter_articles() if flt.matches(r))
    finally:
        store.close()
    assert kept == ["local-late", "new-form", "old-form"]
    assert flt.rejected == Counter({"date": 1})


def test_filter_counts_rejections() -> None:
    flt = ArticleFilter(since="2024-02", exclude_duplicates=True)
    _urls(flt)
    assert flt.rejected == Counter({"duplicate": 1, "no-date": 1, "date": 1})


@pytest.mark.parametrize("bad", ["2024/01", "last week", "2024-1", "20240101"])
def test_filter_rejects_bad_dates(bad: str) -> None:
    with pytest.raises(FilterError):
        ArticleFilter(since=bad)


def test_filter_rejects_inverted_range() -> None:
    with pytest.raises(FilterError):
        ArticleFilter(since="2024-03", until="2024-02")


def test_store_publication_pushdown() -> None:
    assert ArticleFilter(publications=("iol",)).store_publication == "iol"
    assert ArticleFilter(publications=("iol", "mg")).store_publication is None


# --- kwic ----------------------------------------------------------------------------------------


def test_query_tokens_follow_the_treebank() -> None:
    assert query_tokens("don't") == ["do", "n't"]
    assert query_tokens("can't it's") == ["ca", "n't", "it", "'s"]
    assert query_tokens("U.S. e-mail (ANC)") == ["U.S.", "e-mail", "(", "ANC", ")"]
    assert query_tokens('"land"') == ["``", "land", "''"]  # Treebank quotes, as the corpus stores them
    assert query_tokens("land  *  reform") == ["land", "*", "reform"]
    assert query_tokens("  ") == []


def test_find_phrase() -> None:
    tokens = ["the", "Land", "reform", "and", "the", "land", "reform", "act", ":", "land"]
    assert list(find_phrase(tokens, ["land", "reform"])) == [1, 5]
    assert list(find_phrase(tokens, ["land", "reform"], case_sensitive=True)) == [5]
    assert list(find_phrase(tokens, ["the", "*", "reform"])) == [0, 4]
    assert list(find_phrase(tokens, ["land"])) == [1, 5, 9]
    assert list(find_phrase(tokens, ["act", ":", "land", "more"])) == []
    assert list(find_phrase([], ["land"])) == []


def test_kwic_context_comes_from_the_text() -> None:
    record = corpus_records()[0]
    hits = list(kwic_hits(record, ["land", "reform"], width=12))
    assert [h.keyword for h in hits] == ["land reform", "Land reform"]
    assert hits[0].left == "The"
    assert hits[0].right == "debate conti"  # 12 characters
    assert hits[1].left == "Parliament."  # the paragraph break became a space, then clipped
    assert hits[1].right == "is urgent, s"
    assert hits[1].left_key[:2] == (".", "parliament")
    line = format_hit(hits[1], 12)
    assert line.index("[") == 13 and line.endswith(record["url"])


def test_kwic_without_offsets_joins_tokens() -> None:
    record = {"url": "u", "tokens": ["I", "do", "n't", "know"], "token_offsets": [], "text": None}
    hit = next(kwic_hits(record, ["do", "n't"], width=40))
    assert (hit.left, hit.keyword, hit.right) == ("I", "do n't", "know")


def test_kwic_sorting() -> None:
    records = [
        {"url": "a", "tokens": ["zebra", "crossed", "the", "road"]},
        {"url": "b", "tokens": ["an", "ant", "crossed", "a", "field"]},
        {"url": "c", "tokens": ["my", "cat", "crossed", "the", "yard"]},
    ]
    hits = [h for r in records for h in kwic_hits(r, ["crossed"])]
    assert [h.url for h in sort_hits(hits, "left")] == ["b", "c", "a"]  # ant < cat < zebra
    assert [h.url for h in sort_hits(hits, "right")] == ["b", "a", "c"]  # a field < the road < the yard
    assert [h.url for h in sort_hits(hits, "none")] == ["a", "b", "c"]


# --- search --------------------------------------------------------------------------------------


def test_search_literal_and_regex() -> None:
    records = corpus_records()
    pat = compile_pattern("land reform")
    hits = [search_record(r, pat) for r in records]
    assert [h.matches if h else 0 for h in hits] == [3, 2, 0, 0, 0]  # text + title matches
    assert hits[0] is not None and "[land reform]" in hits[0].snippet
    water = compile_pattern(r"\bwater\b", regex=True, case_sensitive=True)
    assert [bool(search_record(r, water)) for r in records] == [False, False, True, True, False]
    assert compile_pattern("a.b").search("axb") is None  # literal unless --regex


def test_search_bad_regex() -> None:
    with pytest.raises(PatternError):
        compile_pattern("(unclosed", regex=True)
    with pytest.raises(PatternError):
        compile_pattern("")


# --- wordlist ------------------------------------------------------------------------------------


def test_is_word() -> None:
    assert is_word("Land") and is_word("n't") and is_word("2024") and is_word("e-mail")
    assert not is_word(".") and not is_word("--") and not is_word("``") and not is_word("-LRB-")


def test_wordlist_counts_by_hand() -> None:
    counter = WordCounter(lower=True)
    counter.add(["The", "cat", ",", "the", "dog", "."])
    counter.add(["A", "cat", "!"])
    assert counter.total_words == 6 and counter.total_tokens == 9
    rows = wordlist_rows(counter.counts, counter.total_words)
    assert [(r.rank, r.word, r.count) for r in rows] == [
        (1, "cat", 2),
        (2, "the", 2),
        (3, "a", 1),
        (4, "dog", 1),
    ]
    assert rows[0].per_million == pytest.approx(2 / 6 * 1_000_000)
    assert rows[0].tsv() == "1\tcat\t2\t333333.33"
    assert [r.word for r in wordlist_rows(counter.counts, 6, min_count=2)] == ["cat", "the"]
    assert [r.word for r in wordlist_rows(counter.counts, 6, top=1)] == ["cat"]
    cased = WordCounter(lower=False)
    cased.add(["The", "the"])
    assert cased.counts == Counter({"The": 1, "the": 1})


# --- collocations --------------------------------------------------------------------------------


def g2_by_entropy(o11: int, r1: int, c1: int, n: int) -> float:
    """Dunning's G2 from the entropy form 2*(sum O ln O - sum R ln R - sum C ln C + N ln N)."""

    def xlx(x: float) -> float:
        return x * math.log(x) if x > 0 else 0.0

    o = (o11, r1 - o11, c1 - o11, n - r1 - c1 + o11)
    rows, cols = (r1, n - r1), (c1, n - c1)
    return 2 * (sum(map(xlx, o)) - sum(map(xlx, rows)) - sum(map(xlx, cols)) + xlx(n))


def test_measures_on_a_2x2_table() -> None:
    # O11=10 in a span of 100 words, collocate freq 50, corpus 10000 words -> E11 = 0.5
    o11, r1, c1, n = 10, 100, 50, 10_000
    assert contingency(o11, r1, c1, n) == (10, 90, 40, 9860)
    assert log_likelihood(o11, r1, c1, n) == pytest.approx(g2_by_entropy(o11, r1, c1, n))
    assert log_likelihood(o11, r1, c1, n) == pytest.approx(43.8137, abs=1e-3)  # worked out from Oij, Eij
    assert mutual_information(o11, r1, c1, n) == pytest.approx(math.log2(20))
    assert t_score(o11, r1, c1, n) == pytest.approx(9.5 / math.sqrt(10))
    assert log_likelihood(7, 100, 50, 1000) == pytest.approx(g2_by_entropy(7, 100, 50, 1000))
    assert mutual_information(0, 10, 10, 100) == float("-inf")


def test_span_counts_overlapping_windows_once() -> None:
    words = ["a", "x", "b", "x", "c", "d"]
    span, hits = span_positions(words, "x", 1)
    assert hits == 2 and span == {0, 2, 4}  # b (position 2) is counted once


def test_collocations_by_hand() -> None:
    counter = CollocationCounter(node="cat", window=1)
    counter.add(["The", "black", "cat", "sat", "."])
    counter.add(["A", "black", "cat", "ran", ",", "a", "dog", "sat"])
    counter.add(["black", "dog"])
    # words: 4 + 7 + 2 = 13; span = {black, sat} + {black, ran} = 4 positions
    assert (counter.n, counter.span_size, counter.node_freq) == (13, 4, 2)
    assert counter.in_span == Counter({"black": 2, "sat": 1, "ran": 1})
    rows = {c.word: c for c in collocates(counter, min_count=1, top=None)}
    # black: O11=2, C1=3, E11=4*3/13 -> attracted; sat: O11=1, C1=2, E11=8/13 -> attracted
    assert rows["black"].o11 == 2 and rows["black"].c1 == 3
    assert rows["black"].e11 == pytest.approx(12 / 13)
    assert rows["black"].ll == pytest.approx(g2_by_entropy(2, 4, 3, 13))
    assert rows["black"].mi == pytest.approx(math.log2(2 / (12 / 13)))
    assert rows["sat"].t == pytest.approx((1 - 8 / 13) / 1)
    assert set(rows) == {"black", "sat", "ran"}
    assert [c.word for c in collocates(counter, min_count=2)] == ["black"]
    by_mi = collocates(counter, measure="mi", min_count=1)
    assert by_mi[0].word == "ran"  # C1=1: the highest MI, as MI favours rare words


def test_collocations_reject_bad_arguments() -> None:
    with pytest.raises(ValueError):
        CollocationCounter(node="x", window=0)
    with pytest.raises(ValueError):
        collocates(CollocationCounter(node="x"), measure="dice")


# --- stats and plot ------------------------------------------------------------------------------


def test_month_helpers() -> None:
    assert month_of("2024-02-20T23:59:59Z") == "2024-02"
    assert month_of("2024-13-01") is None and month_of(None) is None and month_of("May 2024") is None
    assert month_range(["2023-11", "2024-02"]) == ["2023-11", "2023-12", "2024-01", "2024-02"]
    assert month_range(["0001-01", "2024-02"]) == ["0001-01", "2024-02"]  # a bogus date: no gap filling
    assert group_value({"published_at": None}, "month") == "(none)"
    assert group_value({"language": "zu"}, "language") == "zu"


def test_corpus_stats() -> None:
    stats = CorpusStats(by="publication")
    records = corpus_records()
    for r in records:
        stats.add(r)
    table = dict(line.split("\t", 1) for line in stats.table()[1:])
    iol_tokens = sum(r["token_count"] for r in records[:2])
    iol_words = sum(r["word_count"] for r in records[:2])
    assert table["iol"] == f"2\t{iol_tokens}\t{iol_words}"
    assert table["TOTAL"].split("\t")[0] == "5"
    assert stats.undated == 1
    assert stats.monthly == Counter(
        {("iol", "2024-01"): 1, ("iol", "2024-02"): 1, ("mg", "2024-02"): 1, ("news24", "2024-03"): 1}
    )
    with pytest.raises(ValueError):
        CorpusStats(by="author")


def test_monthly_series_groups_small_publications() -> None:
    monthly = Counter({(f"p{i}", "2024-01"): 20 - i for i in range(12)})
    monthly[("p0", "2024-03")] = 5
    months, series = monthly_series(monthly, max_series=4)
    assert months == ["2024-01", "2024-02", "2024-03"]
    assert list(series) == ["p0", "p1", "p2", "other"]
    assert series["p0"] == [20, 0, 5]
    assert series["other"][0] == sum(20 - i for i in range(3, 12))


def test_tick_indexes() -> None:
    months = month_range(["2012-03", "2024-12"])
    ticks = tick_indexes(months)
    assert len(ticks) <= 18 and all(months[i].endswith("-01") for i in ticks)
    assert tick_indexes(["2024-01", "2024-02"]) == [0, 1]


# --- export --------------------------------------------------------------------------------------


def test_export_fields() -> None:
    default = export_fields("jsonl")
    assert "body" not in default and "html" not in default and default[0] == "url"
    assert "html" in export_fields("jsonl", with_html=True)
    assert export_fields("jsonl", ["title,text", "language"]) == ("url", "title", "text", "language")
    with pytest.raises(ExportFieldError):
        export_fields("jsonl", ["titel"])
    line = jsonl_line({"url": "u", "title": "x", "body": b"raw"}, ("url", "title", "body", "text"))
    assert line == '{"url": "u", "title": "x", "text": null}\n'


def test_fixture_tokenizer() -> None:
    tokens, offsets = tokenize("We don't know.")
    assert tokens == ["We", "do", "n't", "know", "."]
    assert offsets[2] == [5, 8]
