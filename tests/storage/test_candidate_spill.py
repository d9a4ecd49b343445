"""Source candidates survive a store that cannot take them: the run's sightings go to the spill file,
and the next run that can write merges them exactly once (counts neither lost nor doubled)."""

from __future__ import annotations

from pathlib import Path

from test_source_candidates_contract import FEED, MAP, sighting

from sacorpus.candidates import record_candidates
from sacorpus.storage.sqlite import SQLiteStore


def test_spilled_candidates_are_merged_once_by_the_next_run(tmp_path: Path) -> None:
    path, spill = str(tmp_path / "corpus.sqlite"), str(tmp_path / "spill" / "corpus.jsonl.candidates")
    down = SQLiteStore(path)  # never opened: every write fails as an outage does

    assert record_candidates(lambda: down, [sighting(FEED, 1, 2), sighting(MAP, 1)], spill) == ("spilled", 2)
    assert record_candidates(lambda: down, [sighting(FEED, 2)], spill) == ("spilled", 1)
    assert len(Path(spill).read_text().splitlines()) == 3

    with SQLiteStore(path) as store:
        assert record_candidates(lambda: store, [sighting(FEED, 5)], spill) == ("recorded", 4)
        assert not Path(spill).exists() and list(Path(spill).parent.glob("*.imported-*"))
        assert record_candidates(lambda: store, [], spill) == ("recorded", 0)  # nothing merged twice
        got = {c["url"]: c for c in store.source_candidates()}
    assert got[FEED]["count"] == 4 and got[MAP]["count"] == 1
    assert (
        got[FEED]["first_seen"] == "2026-11-01T10:00:00Z" and got[FEED]["last_seen"] == "2026-11-05T10:00:00Z"
    )


def test_without_a_spill_file_the_loss_is_reported(tmp_path: Path) -> None:
    down = SQLiteStore(str(tmp_path / "corpus.sqlite"))
    assert record_candidates(lambda: down, [sighting(FEED, 1)], None) == ("lost", 1)
