"""The sentence splitters' orthographic tables in flat arrays answer as punkt's dicts do.

Each language's splitter is compared with one built the plain way (punkt's own dict) on the text of
every fixture page and on sentences written to reach the orthographic rules (an abbreviation or an
initial before a capitalised word, a lower-case sentence start), in the languages that have a model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from crawlkit import fixture_pages

from sacorpus.text import tokenize as tok
from sacorpus.text.page import process_page
from sacorpus.text.punkt_tables import OrthoTable, punkt_parameters

REPO = Path(__file__).resolve().parents[2]

WRITTEN = [
    "Mr. Smith met Dr. Dlamini at 5 p.m. The meeting ended at 6. Nobody spoke.",
    "J. R. R. Tolkien wrote it. e.g. this one starts lower-case. U.S. troops left.",
    "Prof. Ndlovu sê die Min. van Finansies was laat. Mnr. Botha het gebel.",
    "Der Bundestag tagte am 3. Okt. Dann sprach Dr. Müller. Die Sitzung endete um 17 Uhr.",
    "Le 1er janv. M. Dupont est arrivé. Il a dit: «Bonjour». Puis il est parti.",
    "El Sr. García llegó a las 10 a.m. Luego habló. La sesión terminó.",
    "Pan Nowak przyjechał ok. godz. 10. Potem przemówił prof. Kowalski. Koniec.",
    "Sayın Dr. Yılmaz geldi. Toplantı bitti vs. herkes gitti.",
    "Hän sanoi esim. näin. Sitten hän lähti. Ks. sivu 4.",
]


def _plain_splitter(lang: str) -> object:
    """The splitter built the same way with punkt's own dict as its orthographic table."""
    import punkt

    params = punkt_parameters(*tok._model_of(lang), tok._SA_ABBREVIATIONS)
    assert type(params.ortho_context) is dict
    return punkt.PunktSentenceTokenizer(params, line_breaks="always")


@pytest.fixture(scope="module")
def lines() -> list[str]:
    results = [process_page(html.encode("utf-8")).extracted for html in fixture_pages()]
    texts = [r.text for r in results if r is not None and r.text]
    found = [line for text in texts + WRITTEN for line in text.split("\n") if line.strip()]
    assert len(found) > 200
    return found


@pytest.mark.parametrize("lang", ["en", "af", "zu", "de", "fr", "es", "pl", "tr", "fi", "nl", "cs"])
def test_each_language_splits_as_with_punkts_own_table(lang: str, lines: list[str]) -> None:
    ours = tok._sentence_splitter(lang)
    assert isinstance(ours.params.ortho_context, OrthoTable)
    plain = _plain_splitter(lang)
    assert [list(ours.span_tokenize(x)) for x in lines] == [list(plain.span_tokenize(x)) for x in lines]  # type: ignore[attr-defined]


def test_the_table_answers_every_entry_and_nothing_else() -> None:
    import punkt

    entries = dict(punkt.load_model("german").ortho_context)
    table = OrthoTable(entries)
    assert len(table) == len(entries)
    assert all(table.get(w) == f for w, f in entries.items())
    assert dict(table.items()) == entries
    for absent in ("", "not-a-german-word-xyz", "Haus ", "HAUS"):
        if absent not in entries:
            assert table.get(absent, 0) == 0 and absent not in table
            with pytest.raises(KeyError):
                table[absent]
    assert 7 not in table  # not a string
    assert table.nbytes() * 3 < sys.getsizeof(entries) + sum(sys.getsizeof(w) for w in entries)


def test_words_of_equal_hash_are_told_apart_by_their_spelling() -> None:
    entries = {"ab": 2, "ba": 4, "cd": 8, "abc": 16, "ñ": 32, "\udcff": 64}
    table = OrthoTable(entries, hasher=len)  # every two-letter word has the same "hash"
    assert {w: table[w] for w in entries} == entries
    assert table.get("dc", 0) == 0 and table.get("xyz") is None
    assert sorted(table) == sorted(entries)


def test_flags_that_do_not_fit_a_byte_are_refused() -> None:
    with pytest.raises(ValueError):
        OrthoTable({"word": 256})


def test_the_bundled_model_is_let_go_and_read_again_when_asked() -> None:
    code = """
import json, sys
from sacorpus.text.tokenize import split_sentences
split_sentences("Das ist ein Satz. Und noch einer.", "de")
held = sorted(m for m in sys.modules if m in ("punkt.data.german", "punkt.data.english"))
import punkt
again = len(punkt.load_model("german").ortho_context)
print(json.dumps({"held": held, "again": again}))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["held"] == []
    assert found["again"] > 10_000
