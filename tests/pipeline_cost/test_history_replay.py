"""A page worker's result is taken only when the history answers it used are the crawl's own.

Pure, in one process: pages of a site of our own (a story each, lines every page repeats) go through :func:`work_page` against a replica that lags
the crawl's history by a few pages (as a worker's does), and through the in-process page stage. The
replayed records must give the in-process articles exactly, and a lagging replica's stale answers must
be caught (taking them blindly would store other fields).
"""

from __future__ import annotations

import copy

import pytest

from sacorpus.items import Article
from sacorpus.text.analysis import language_fields, token_fields
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.page import PageOptions
from sacorpus.text.page_work import (
    RecordingHistory,
    learn,
    observations,
    page_stage,
    replay,
    token_inputs,
    work_page,
)

LAG = 4  # pages a replica is behind the crawl's history


WORDS = [
    "council",
    "budget",
    "water",
    "clinic",
    "river",
    "school",
    "road",
    "harbour",
    "court",
    "rail",
    "farm",
    "market",
    "youth",
    "drought",
    "festival",
    "library",
    "bridge",
    "tender",
    "union",
    "station",
]


def _page(n: int) -> bytes:
    """A page of our own: a story of its own, and the lines every page of the site repeats."""
    story = "".join(
        f"<p>The {WORDS[(n + k) % len(WORDS)]} report number {n}-{k} said residents of ward {n * 7 + k} "
        f"waited {k + 2} weeks for the {WORDS[(n * 3 + k) % len(WORDS)]} plan to be discussed again.</p>"
        for k in range(6)
    )
    return (
        f"<html><head><title>Story {n} about the {WORDS[n % len(WORDS)]} | The Karoo Courier</title></head>"
        f"<body><article><h1>Story {n} about the {WORDS[n % len(WORDS)]}</h1>{story}"
        "<p>Follow the Karoo Courier desk for updates</p></article></body></html>"
    ).encode()


@pytest.fixture(scope="module")
def demo_items() -> list[Article]:
    return [
        Article(
            url=f"https://courier.example/news/story-{n}",
            publication="courier",
            body=_page(n),
            headers={"Content-Type": "text/html; charset=utf-8"},
        )
        for n in range(10)
    ]


def _in_process(items: list[Article]) -> tuple[list[Article], LineHistory]:
    history = LineHistory()
    out = []
    for item in copy.deepcopy(items):
        page_stage(item, None, None, PageOptions(), history)
        fields = language_fields(item.text or "")
        item.language = fields["language"]
        out.append(item)
    return out, history


def _state(history: LineHistory) -> tuple[list[object], list[object]]:
    return list(history._pages.items()), list(history._titles.items())


def test_replayed_records_give_the_in_process_articles(demo_items):
    expected, expected_history = _in_process(demo_items)
    history, replica = LineHistory(), LineHistory()
    committed: list[list[tuple[object, ...]]] = []
    refused = stale_differs = 0
    for n, item in enumerate(copy.deepcopy(demo_items)):
        work = work_page(
            copy.deepcopy(item), None, None, PageOptions(), RecordingHistory(replica), (True, True), 400
        )
        if not replay(history, work.events):
            refused += 1
            stale = work.item
            synced = LineHistory()
            for told in committed:
                learn(synced, told)
            work = work_page(
                copy.deepcopy(item), None, None, PageOptions(), RecordingHistory(synced), (True, True), 400
            )
            assert replay(history, work.events), "a replica told every commit answers as the crawl does"
            stale_differs += stale.__dict__ != work.item.__dict__
        committed.append(observations(work.events))
        if n >= LAG:
            learn(replica, committed[n - LAG])
        got = work.item
        want = expected[n]
        assert got.text == want.text and got.title_clean == want.title_clean and got.title == want.title
        assert work.language is not None and work.language["language"] == want.language
        want_tokens = token_fields(*token_inputs(want.__dict__.get))
        assert work.tokens == want_tokens
    assert _state(history) == _state(expected_history)  # the same counts, in the same recency order
    assert refused > 0 and stale_differs > 0, "the pages must depend on the history for this test to bite"


def test_a_refused_record_leaves_the_history_untouched(demo_items):
    history = LineHistory()
    for item in copy.deepcopy(demo_items[:6]):
        page_stage(item, None, None, PageOptions(), history)
    before = _state(history)
    work = work_page(
        copy.deepcopy(demo_items[6]),
        None,
        None,
        PageOptions(),
        RecordingHistory(LineHistory()),
        (False, False),
        400,
    )
    assert not replay(history, work.events)  # an empty replica: the site's name was not yet repeated
    assert _state(history) == before
