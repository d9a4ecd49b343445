"""Each cheaper path of the page core and the analysis stages gives what the plain path gives.

The byline XPaths compiled once (class tests asked only of elements with a class) against the
expressions as written, the URL pre-check against the URL regex alone, the n-gram hashes computed over
the model's joined feature text against hashing each n-gram string, and the Treebank tokenizer
imported without scipy against scipy still importable: all on our fixture pages and texts.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from crawlkit import fixture_pages
from lxml import etree

from sacorpus.text import annotate
from sacorpus.text.annotate import find_links
from sacorpus.text.bylines import _BYLINE_XPATH_COMPILED, BYLINE_XPATH
from sacorpus.text.langid_model import FeatureIndex, gram_hash, load_model
from sacorpus.text.preclean import parse_html
from sacorpus.text.tokenize import URL_RE, tokenize, url_spans

BYLINE_PAGE = """<html><body><article>
<p class="vcard  author"><span class="fn">Thandi Mokoena</span></p>
<div class=" byline "><a href="/author/sipho">Sipho Dlamini</a></div>
<span class="Author__Name author-name">Lerato Khumalo</span><span class="author fn">Jan Botha</span>
<span id="byline">Not a class</span><p>Story text.</p></article></body></html>"""


def test_compiled_byline_xpaths_select_the_same_elements() -> None:
    pages = [*fixture_pages(), BYLINE_PAGE]
    hits = 0
    for html in pages:
        root = parse_html(html, [])
        assert root is not None
        for written, compiled in zip(BYLINE_XPATH, _BYLINE_XPATH_COMPILED, strict=True):
            expected = root.xpath(written)
            got = compiled(root)
            assert got == expected
            hits += len(got)
    assert hits > 20  # the fixtures exercise the expressions


URL_TEXTS = [
    "Read more at https://www.news24.com/news24/southafrica/story-2025.",
    "Mail editor@dailymaverick.co.za or visit WWW.GOV.ZA today",
    "See http://localhost/x and ftp://files.example/a.txt",
    "kwi-www.gov.za iyavulwa namhlanje",
    "The site NEWS24.COM said, and iol.co.za/news agreed.",
    "Universities (uct.ac.za, wits.ac.za) and sanparks.org.za close.",
    "No link here. Just a sentence about the U.S. and e.g. Mr. Smith.",
    "Numbers 3.5 and R1.5bn, ASP.NET and Node.js are not URLs here.",
    "",
    "Dots... everywhere... but no address at all",
]


def test_url_precheck_finds_what_the_regex_finds() -> None:
    lines = [line for html in fixture_pages() for line in html.split("\n")]
    found = 0
    for text in URL_TEXTS + lines:
        spans = url_spans(text)
        assert [end for _, end in spans] == [m.end() for m in URL_RE.finditer(text)]
        found += len(spans)
    assert found > 50  # the fixtures hold addresses of every kind
    assert url_spans(URL_TEXTS[3]) == [(4, 14)]  # the hyphenated prefix is not part of the URL
    assert url_spans(URL_TEXTS[6]) == []


def test_feature_hashes_from_joined_text_equal_per_gram_hashes() -> None:
    model = load_model()
    assert isinstance(model.index, FeatureIndex)
    grams = list(model.index)
    assert len(grams) == len(model.index)
    hashes = model.index.hashes()
    sample = [*range(0, len(grams), 97), len(grams) - 1]
    assert [int(hashes[i]) for i in sample] == [gram_hash(grams[i]) for i in sample]
    # the lookup table is the one a plain dict of the same n-grams builds
    plain = dataclasses.replace(model, index={g: i for i, g in enumerate(grams)})
    assert np.array_equal(plain._keys, model._keys)  # type: ignore[attr-defined]
    assert np.array_equal(plain._table, model._table)  # type: ignore[attr-defined]
    assert model.index[grams[1234]] == 1234


def test_non_ascii_features_hash_by_code_point() -> None:
    index = FeatureIndex("a\nŉ b\n日本語\nsê\n     z")
    assert [int(h) for h in index.hashes()] == [gram_hash(g) for g in index]
    assert dict(index) == {"a": 0, "ŉ b": 1, "日本語": 2, "sê": 3, "     z": 4}


def test_treebank_tokens_and_scipy_still_importable() -> None:
    """In a fresh process: the tokenizer loads without scipy, and scipy imports normally afterwards."""
    code = (
        "import sys\n"
        "from sacorpus.text.tokenize import tokenize\n"
        "print(tokenize(\"Don't go. She said: 'yes'.\", 'en').tokens)\n"
        "assert 'scipy' not in sys.modules\n"
        "import importlib.util\n"
        "if importlib.util.find_spec('scipy') is not None:\n"
        "    import scipy.stats\n"
        "    print('scipy', bool(scipy.stats.fisher_exact))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0] == str(tokenize("Don't go. She said: 'yes'.", "en").tokens)
    assert "Do" in out and "n't" in out


def test_xpath_errors_are_still_skipped() -> None:
    assert all(isinstance(x, etree.XPath) for x in _BYLINE_XPATH_COMPILED)


CANDIDATE_PAGE = """<html><head><base href="https://partner.example.org/news/"></head><body>
<a href="/feed/">f</a><a href="RSS.XML">r</a><a href="/S\u0131temap.xml">s</a><a href="https://x.example.net/r\u017fs">l</a>
<a href="/story-1">a</a><a href="">empty</a><a href="#top">t</a><a href="//other.example.com/atom.xml">o</a>
<a href="https://other.example.com/Sitemap_index.xml.gz">g</a><a href="?p=2">q</a></body></html>"""


def test_candidate_precheck_finds_what_joining_every_link_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    from sacorpus.sources import candidates

    own = fixture_pages()
    pages = [CANDIDATE_PAGE, CANDIDATE_PAGE.replace("/news/", "/feed/"), *own]
    pages += [p.replace('href="/', 'href="https://elsewhere.example.com/') for p in own]
    url = "https://www.site.example/2025/01/02/story"
    fast = [candidates.find_candidates(html, url, lambda host: False) for html in pages]
    monkeypatch.setattr(candidates, "_may_be_source", lambda text: True)  # the plain path: every link
    plain = [candidates.find_candidates(html, url, lambda host: False) for html in pages]
    assert fast == plain
    assert sum(map(len, fast)) > 10
    assert {c.url for c in fast[0]} >= {
        "https://partner.example.org/feed/",
        "https://partner.example.org/news/RSS.XML",
        "https://partner.example.org/S\u0131temap.xml",
        "https://x.example.net/r\u017fs",
    }
    assert len(fast[1]) > len(fast[0])  # the base's own path makes every relative link count


def _place_by_patterns(
    text: str, words: list[str], cursor: int, used: list[tuple[int, int]], folded: object = None
) -> Any:
    """An anchor placed by its patterns alone, compiled for every anchor (the plain path)."""
    pattern = r"\s+".join(re.escape(word) for word in words)
    for flags in (0, re.IGNORECASE):
        match = re.compile(pattern, flags).search(text, cursor)
        if match is not None:
            return match
    for match in re.finditer(pattern, text, re.IGNORECASE):
        if not any(a < match.end() and match.start() < b for a, b in used):
            return match
    return None


LINK_TEXT = (
    "The MINISTER of Finance spoke.\nThe minister\n of  finance replied on ſport and \u212aelvin, "
    "then İstanbul and the Minister of finance again. Kelvin and sport. www.gov.za"
)
LINK_ANCHORS = [
    ("minister of finance", "a"),
    ("Minister of Finance", "b"),
    ("sport", "c"),
    ("Sport", "d"),
    ("kelvin", "e"),
    ("istanbul", "f"),
    ("Home", "g"),
    ("Subscribe now", "h"),
    ("finance", "i"),
]


def test_anchor_pre_checks_place_links_where_the_patterns_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """Links placed with the pre-checks against every anchor's patterns compiled (the plain path): on
    the fixture pages' own anchors and text (as written and upper-cased), and on case twins (\u017f,
    \u212a, \u0130), whitespace runs and repeats, with and without a twin in the text."""
    cases = [(LINK_TEXT, LINK_ANCHORS), (LINK_TEXT.replace("ſ", "s").replace("\u212a", "K"), LINK_ANCHORS)]
    for html in fixture_pages():
        root = parse_html(html, [])
        if root is not None:
            anchors = [(a.text_content(), a.get("href") or "#") for a in root.iter("a")]
            cases.append((root.text_content(), anchors + [(t.upper(), h) for t, h in anchors]))
    got = [find_links(text, anchors) for text, anchors in cases]
    monkeypatch.setattr(annotate, "_place", _place_by_patterns)
    expected = [find_links(text, anchors) for text, anchors in cases]
    assert got == expected
    assert sum(1 for links in expected for link in links if link["length"]) > 100
    assert {link["url"] for link in expected[0]} >= {"a", "b", "c", "e", "f", "i"}
