"""trafilatura's justext fallback keeps the stop words of every language once, not twice.

Each probe runs in a fresh interpreter: justext's cache and trafilatura's stop list are process-wide.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: a page whose text is short for trafilatura (under 250 characters), so it asks justext for a second opinion; justext keeps
#: the prose paragraph (long, full of stop words) and drops the menu
PAGE = (
    "<html><head><title>Water cuts</title></head><body><ul><li><a href='/'>Home</a></li>"
    "<li><a href='/news'>News</a></li></ul><div><p>The municipality said on Thursday that the water would "
    "be back on in most of the suburbs by Friday, and that residents who are still without it should store "
    "what they can until then.</p>"
    "</div></body></html>"
)

PROBE = """
import gc, json, sys
import justext.core
import trafilatura.external as external
from lxml import html
if sys.argv[2] == "sacorpus":
    from sacorpus.text.page import process_page
    text = process_page(sys.argv[1].encode(), {"Content-Type": "text/html"}, "http://x.invalid/a").extracted.text
else:
    text = ""
    external.try_justext(html.fromstring(sys.argv[1]), None, None)
asked = justext.core.define_stoplist.cache_info().misses  # justext ran on the page
words = justext.core.define_stoplist(external.JT_STOPLIST)
big_tuples = [len(o) for o in gc.get_objects() if isinstance(o, tuple) and len(o) > 10_000]
kept = external.try_justext(html.fromstring(sys.argv[1]), None, None)
print(json.dumps({
    "stoplist": type(external.JT_STOPLIST).__name__,
    "words": len(words),
    "sample": sorted(w for w in words if w.startswith("ngi"))[:20],
    "asked": asked,
    "cached": justext.core.define_stoplist.cache_info().currsize,
    "big_tuples": big_tuples,
    "kept": [" ".join(p.itertext()) for p in kept],
    "text": text,
}))
"""


def _probe(how: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, PAGE, how],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_stop_words_are_held_once_and_are_the_same_words():
    ours, theirs = _probe("sacorpus"), _probe("trafilatura")
    assert theirs["stoplist"] == "tuple" and theirs["big_tuples"]  # trafilatura alone: a tuple of every word
    assert ours["stoplist"] == "AllStoplists"
    assert ours["big_tuples"] == []  # only justext's set holds the words
    assert ours["asked"] == theirs["asked"] == 1  # the page went to justext in both
    assert ours["cached"] == 1  # one set, built once, found again by identity
    assert ours["words"] == theirs["words"] > 100_000
    assert ours["sample"] == theirs["sample"] and ours["sample"]  # isiZulu's stop words among them
    assert ours["kept"] == theirs["kept"] and ours["kept"]  # justext keeps the same paragraphs
    assert "the water would be back on in most of the suburbs" in str(ours["text"])


def test_another_stop_list_is_left_alone():
    code = """
import json
import trafilatura.external as external
from sacorpus.text.justext_stoplist import install
external.JT_STOPLIST = frozenset({"the", "and"})
print(json.dumps({"installed": install(), "kept": sorted(external.JT_STOPLIST)}))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"installed": False, "kept": ["and", "the"]}
