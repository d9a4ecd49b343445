"""htmldate's page-wide date search asks dateparser only in the languages of a date's words, with the
answers of every language (sacorpus/text/date_languages.py)."""

from __future__ import annotations

import gzip
import json
import logging
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sacorpus.text import date_languages
from sacorpus.text.date_languages import DATEPARSER_SETTINGS, date_words, load_date_words

REPO = Path(__file__).resolve().parents[2]

#: Dates as pages print them, in the languages dateparser knows and South African ones, with time zones,
#: weekdays, scripts without spaces, and strings no language reads.
STRINGS = [
    "Viernes, 22 de Abril de 2022",
    "22. März 2019, 10:30 Uhr",
    "Marz 22, 2019",
    "2022年4月22日",
    "发布时间：2022年4月22日",
    "2022年4月22日 星期五",
    "Dienstag, 22. März 2022, 10:30 PM",
    "2022년 4월 22일",
    "April 22, 2022 10:30 EST",
    "Tuesday, 5 March 2024 at 14:00 SAST",
    "5 травня 2021",
    "5 мая 2021 г.",
    "12 Januarie 2024",
    "Dinsdag 12 Maart 2024",
    "12 kuJanuwari 2024",
    "Publié le 22 avril 2022 à 10h30",
    "22 kwietnia 2022",
    "22 Nisan 2022 Cuma",
    "22 أبريل 2022",
    "22. huhtikuuta 2022",
    "Posted on 22.04.2022 by admin",
    "Sept. 3, 2021",
    "3 sept. 2021",
    "Donderdag 3 September 2020",
    "xyz 2022 abc",
]


def test_the_shipped_table_is_the_installed_dateparser_s():
    """The table is made from dateparser's own data: a dateparser upgrade must rebuild it."""
    with gzip.open(date_languages.TABLE, "rt", encoding="utf-8") as f:
        shipped = json.load(f)
    assert shipped == json.loads(json.dumps(date_languages.build_table()))


def test_month_words_are_htmldate_s():
    import htmldate.extractors as extractors

    table = date_words()
    assert table is not None
    assert table.months == date_languages._originals.get("month_words", extractors.month_words)()


@pytest.mark.parametrize("string", STRINGS)
def test_the_words_languages_read_a_date_as_every_language_does(string):
    """The language dateparser picks among all of them is among the chosen ones, so the date is the same."""
    from dateparser import DateDataParser

    table = date_words()
    assert table is not None
    languages = table.languages_for(string)
    every = DateDataParser(languages=None, settings=dict(DATEPARSER_SETTINGS)).get_date_data(string)
    chosen = DateDataParser(languages=list(languages), settings=dict(DATEPARSER_SETTINGS)).get_date_data(
        string
    )
    assert (chosen["date_obj"], chosen["locale"]) == (every["date_obj"], every["locale"])
    assert languages[0] == "en"
    assert len(languages) < 25  # a few languages, never all 205


def test_words_no_language_knows_leave_english_only():
    table = date_words()
    assert table is not None
    assert table.languages_for("Posted on 22.04.2022 by admin") == ("en",)
    assert table.languages_for("Viernes, 22 de Abril de 2022") == ("en", "es")
    # a time zone name that is also a word ("est"), or a word every language's dictionary holds ("pm"),
    # does not narrow the languages of the date
    assert "de" in table.languages_for("22. April 2022 10:30 EST")
    assert table.languages_for("Dienstag, 22. März 2022, 10:30 PM") == ("en", "de")
    # Chinese is written without spaces: its words are found inside a run of letters
    assert "zh" in table.languages_for("发布时间：2022年4月22日")


def test_a_table_of_another_dateparser_is_not_used(tmp_path, caplog):
    with gzip.open(date_languages.TABLE, "rt", encoding="utf-8") as f:
        table = json.load(f)
    table["dateparser"] = "0.1"
    path = tmp_path / "date_words.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(table, f)
    with caplog.at_level(logging.WARNING, logger="sacorpus.text.date_languages"):
        assert load_date_words(path) is None
    assert [r.getMessage() for r in caplog.records if "dateparser 0.1" in r.getMessage()]


PAGE = """<html><head><title>Noticias</title></head><body>
<div class="nav"><a href="/">Inicio</a></div>
<article><h1>La asamblea aprueba la reforma</h1>
<p class="fecha">Viernes, 22 de Abril de 2022</p>
<p>La Asamblea Legislativa aprobó este jueves la reforma con 64 votos.</p></article>
</body></html>"""

CHILD = textwrap.dedent(
    """
    import json, sys
    import lxml.html
    from dateparser.languages.loader import default_loader
    from htmldate import find_date
    import htmldate.extractors as extractors
    from sacorpus.text.date_languages import find_page_date

    page = sys.stdin.read()
    ours = find_page_date(lxml.html.document_fromstring(page), None)
    loaded_by_ours = sorted(default_loader._loaded_locales)
    cached_after = extractors.try_date_expr.cache_info().currsize
    # outside the call htmldate is itself again: every language (a string none reads loads them all)
    extractors._external_date("foo bar 2022")
    loaded_outside = len(default_loader._loaded_locales)
    every = find_date(lxml.html.document_fromstring(page), original_date=True, extensive_search=True)
    print(json.dumps([ours, loaded_by_ours, cached_after, loaded_outside, every]))
    """
)


def test_a_page_date_loads_only_the_languages_of_its_words():
    """In a fresh process: the page's Spanish date is read as htmldate reads it, loading English and Spanish
    only; htmldate's cache is left empty, and outside the call htmldate asks every language again."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD], input=PAGE, capture_output=True, text=True, check=True, cwd=REPO
    ).stdout
    ours, loaded, cached_after, loaded_outside, every = json.loads(out)
    assert ours == every == "2022-04-22"
    assert loaded == ["en", "es"]
    assert cached_after == 0
    assert loaded_outside > 150
