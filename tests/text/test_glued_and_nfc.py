"""The glued-sentence repair only inserts the missing space; extracted text is NFC."""

from __future__ import annotations

import pytest

from sacorpus.text.extract import extract_article
from sacorpus.text.preclean import repair_glued_sentences


@pytest.mark.parametrize(
    "glued,repaired",
    [
        ("the minister said.The council agreed", "the minister said. The council agreed"),
        ("Was it enough?Nobody knows", "Was it enough? Nobody knows"),
        ("in 2019.The next year", "in 2019. The next year"),
        ("she said.“We will", "she said. “We will"),
        ("Die minister het gesê.Die raad", "Die minister het gesê. Die raad"),
    ],
)
def test_a_missing_space_is_inserted(glued, repaired):
    assert repair_glued_sentences(glued) == repaired


@pytest.mark.parametrize(
    "text",
    [
        "the U.S. consulate",
        "e.g. Sandton",
        "i.e. Soweto",
        "Mr.Smith",
        "News24.com",
        "www.example.Com",
        "ASP.NET Core",
        "version 3.5 ships",
        "der 2.Bundesliga",
        "Yahoo!News",
        "J.R.R. Tolkien",
        "No.1 hit",
        "Ph.D. student",
        "a.m. Traffic",
        "https://example.org/path.Html",
    ],
)
def test_everything_else_is_left_exactly_as_it_was(text):
    assert repair_glued_sentences(text) == text


def test_repair_never_changes_a_character():
    text = "Officials said.The water was back.Residents in 2021.They e.g. U.S. Yahoo!News 2.Bundesliga"
    repaired = repair_glued_sentences(text)
    assert repaired.replace(" ", "") == text.replace(" ", "")


def test_extracted_text_is_nfc():
    decomposed = "Die boere se oeste is gere\u0301d, se\u0302 die minister van Landbou in Pretoria."
    html = f"<html><body><article><h1>Oeste</h1><p>{decomposed}</p><p>{decomposed} Weer.</p></article></body></html>"
    text = extract_article(html, "https://www.example.co.za/nuus/oeste").text
    assert "geréd" in text and "sê" in text and "\u0301" not in text and "\u0302" not in text
