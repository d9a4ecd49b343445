"""The unlabelled text the training script reads: CSV sentences, and the tokenized-text cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType


def test_csv_sentences_join_quoted_lines_and_skip_empty_rows(train_pos: ModuleType, tmp_path: Path) -> None:
    source = tmp_path / "eng.csv"
    source.write_text(
        'sentence,label\n"Minister opens\nnew clinic\n",eng\n"",eng\nRates rise again,eng\n', encoding="utf-8"
    )
    assert list(train_pos.csv_sentences(source)) == ["Minister opens new clinic", "Rates rise again"]


def test_tokenized_text_is_cached_and_refreshed_when_the_source_changes(
    train_pos: ModuleType, tmp_path: Path
) -> None:
    source, cache = tmp_path / "eng.csv", tmp_path / "cache"
    source.write_text("sentence,label\nThe council's budget grew.,eng\n", encoding="utf-8")
    first = train_pos.tokenized(source, train_pos.csv_sentences(source), cache)
    assert first == [["The", "council", "'s", "budget", "grew", "."]]

    def untouched() -> Iterator[str]:
        raise AssertionError("a cached source must not be tokenized again")
        yield ""

    assert train_pos.tokenized(source, untouched(), cache) == first
    assert not list(cache.glob("*.part"))
    source.write_text("sentence,label\nIt rained.,eng\n", encoding="utf-8")
    assert train_pos.tokenized(source, train_pos.csv_sentences(source), cache) == [["It", "rained", "."]]
