"""A page worker's result is taken only when the history answers it used are the crawl's own.

Pure, in one process: pages of a site of our own (a story each, lines every page repeats) go through :func:`work_page` against a replica that lags
the crawl's history by a few pages (as a worker's does), and through the in-process page stage. The
replayed records must give the in-process articles exactly, and a lagging replica's stale answers must
be caught (taking them blindly would store other fields).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys

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
    """A page of our own: a story of its own, and the lines every page of the site repeats. Every
    second page shows its description as a lead above the story (the page asks its history about the
    lead after it told it its headlines)."""
    story = "".join(
        f"<p>The {WORDS[(n + k) % len(WORDS)]} report number {n}-{k} said residents of ward {n * 7 + k} "
        f"waited {k + 2} weeks for the {WORDS[(n * 3 + k) % len(WORDS)]} plan to be discussed again.</p>"
        for k in range(6)
    )
    lead = f"Residents of ward {n * 7} say the {WORDS[(n * 5) % len(WORDS)]} plan has waited too long for a vote."
    head = f'<meta name="description" content="{lead}">' if n % 2 == 0 else ""
    shown = f'<p class="standfirst">{lead}</p>' if n % 2 == 0 else ""
    headline = f"Story {n} about the {WORDS[n % len(WORDS)]}"
    return (
        f"<html><head><title>{headline} | The Karoo Courier</title>{head}</head>"
        f"<body><header><h1>{headline}</h1>{shown}</header><article>{story}"
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
    refused = stale_differs = asked_after_telling = 0
    for n, item in enumerate(copy.deepcopy(demo_items)):
        work = work_page(
            copy.deepcopy(item), None, None, PageOptions(), RecordingHistory(replica), (True, True), 400
        )
        kinds = [event[0] for event in work.events]
        asked_after_telling += "title?" in kinds[kinds.index("title+") :]
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
    assert asked_after_telling >= 4, "the leads are asked about after the headlines were told"


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


def _told(keys: list[bytes], page: bytes) -> tuple[object, ...]:
    return ("title+", keys, page)


def test_a_title_question_after_the_pages_own_telling_is_checked_not_refused():
    history = LineHistory()
    for page in (b"p1", b"p2", b"p3"):
        history.observe_title_keys([b"site name"], page)
    events = [_told([b"headline", b"site name"], b"p4"), ("title?", b"site name", b"p4", True)]
    assert replay(history, events)  # the page's own statement does not count towards "other pages"
    assert history._titles[b"headline"] == (b"p4",)
    wrong = [_told([b"other"], b"p5"), ("title?", b"site name", b"p5", False)]
    before = _state(history)
    assert not replay(history, wrong) and _state(history) == before


def test_a_title_question_the_telling_could_change_is_refused():
    history = LineHistory(max_lines=3)
    for page in (b"p1", b"p2", b"p3"):
        history.observe_title_keys([b"site name"], page)
    # about another page: this page's telling counts towards its answer
    assert not replay(history, [_told([b"lead"], b"p4"), ("title?", b"lead", b"p9", False)])
    history.observe_title_keys([b"a", b"b"], b"p1")  # the table is full (3 of 3)
    before = _state(history)
    # a new key would make the table forget its oldest ("site name"), which the replica still holds
    assert not replay(history, [_told([b"new"], b"p4"), ("title?", b"site name", b"p4", True)])
    assert _state(history) == before
    # keys already in the table forget nothing
    assert replay(history, [_told([b"a"], b"p4"), ("title?", b"site name", b"p4", True)])


def test_a_line_question_after_the_pages_lines_were_counted_is_refused():
    history = LineHistory()
    assert not replay(history, [("line+", [b"x"]), ("line?", b"x", False)])
    assert _state(history) == ([], [])


HASH_ORDER = """
from sacorpus.text.boilerplate import LineHistory
h = LineHistory()
h.observe_title_keys([bytes([k, 1]) for k in range(40)], b"p")
h.observe_keys([bytes([k, 2]) for k in range(40)])
print(list(h._titles)[:10], list(h._pages)[:10])
"""


def test_the_recency_order_is_the_same_in_every_process():
    """A worker's replica (its own hash seed) must forget what the crawl's history forgets."""
    outputs = {
        subprocess.run(
            [sys.executable, "-c", HASH_ORDER],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in (1, 2, 3, 4)
    }
    assert len(outputs) == 1
