"""Text that looks the same is stored in one spelling: NFC, no soft hyphens or zero-width spaces."""

from sacorpus.text.extract import extract_article
from sacorpus.text.unicode_text import visible_text

SHY, ZWSP, ZWJ = "\u00ad", "\u200b", "\u200d"

PARA = (
    "The Bundes{shy}regierung met on Tuesday to discuss the water{zwsp}supply of the city, and the "
    "minister said the cafe\u0301 owners would be consulted before any new tariff takes effect."
)


def _page() -> str:
    body = "".join(f"<p>{PARA.format(shy=SHY, zwsp=ZWSP)} Paragraph {i}.</p>" for i in range(4))
    return (
        "<html><head><title>Water talks</title></head><body><article>"
        f"<h1>Bundes{SHY}regierung water talks</h1>{body}</article></body></html>"
    )


def test_invisible_characters_leave_text_and_title():
    ex = extract_article(_page(), "https://news.example/2024/05/water-talks")
    assert ex.text, ex
    assert "Bundesregierung met on Tuesday" in ex.text
    assert "watersupply" in ex.text
    assert "café" in ex.text  # composed
    assert SHY not in ex.text and ZWSP not in ex.text and "\u0301" not in ex.text
    assert ex.title_clean == "Bundesregierung water talks"


def test_joiners_that_shape_scripts_stay():
    word = f"\u0915\u094d{ZWJ}\u0937"  # Devanagari conjunct with a joiner: part of the spelling
    assert visible_text(f"{word}{SHY}") == word
