"""Lines a publication repeats across its pages are dropped once proven; reporting never is."""

from __future__ import annotations

from sacorpus.text.boilerplate import MIN_PAGES, LineHistory
from sacorpus.text.extract import extract_article

PROMO = "The Soweto Times is an independent community newspaper, founded in 1994."


def story(n: int) -> str:
    paragraphs = [
        f"Residents of ward {n} queued for hours on Tuesday as the municipality restored water after cuts.",
        f"Officials said pump station {n} had failed when a transformer burnt out during the storm.",
        PROMO,
        f"The ward {n} councillor said tankers would stay in the area until supply was stable again.",
    ]
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<html><body><article><h1>Water back in ward {n}</h1>{body}</article></body></html>"


def test_a_line_repeated_on_other_pages_of_the_publication_goes_after_it_is_proven():
    history = LineHistory()
    texts = [
        extract_article(story(n), f"https://sowetotimes.example/news/{n}", history=history).text
        for n in range(MIN_PAGES + 2)
    ]
    assert all(PROMO in t for t in texts[:MIN_PAGES])  # not yet proven: kept
    assert all(PROMO not in t for t in texts[MIN_PAGES:])  # seen on MIN_PAGES other pages: furniture
    assert all(f"ward {n} councillor" in t for n, t in enumerate(texts))


def test_without_history_nothing_is_dropped_for_repetition():
    assert all(PROMO in extract_article(story(n), None).text for n in range(MIN_PAGES + 2))


def test_a_syndicated_copy_keeps_its_lines():
    history = LineHistory()
    lines = [f"Paragraph {k} of a story that other pages of the publication carry as well." for k in range(4)]
    for _ in range(MIN_PAGES + 1):
        history.observe(lines)
    assert history.drop_repeated("\n".join(lines)) == "\n".join(lines)  # a whole repeated page is a copy


def test_history_memory_is_bounded():
    history = LineHistory(max_lines=100)
    for n in range(50):
        history.observe(
            [f"Line number {n} of page {n}, long enough to count.", f"Another line {n} here too."]
        )
    assert len(history._pages) == 100


def test_a_publications_title_history_weighs_little_per_title() -> None:
    """A history holds up to 100,000 title strings per publication for the whole crawl: each with the
    few pages stating it in a tuple, not a set (373 bytes a title before, about 205 now)."""
    import tracemalloc

    history = LineHistory()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(5000):
            titles = [f"Headline number {i} of the day", f"Section {i % 7}", "The Daily Bench"]
            history.observe_titles(titles, f"https://bench.example/news/{i}")
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown / 5009 < 280
    assert history.is_repeated_title("The Daily Bench", "https://bench.example/news/1")
    assert not history.is_repeated_title("Headline number 3 of the day", "https://bench.example/news/3")
