"""Each shortcut of the page core and the analysis stages gives what the plain computation gives.

The glued-sentence pre-scan against the glued-sentence regex alone, the word count by one regex
against ``str.isalnum`` character by character, and the feed and sitemap links the page core reads from
its own parse against a parse of their own: all on the demo site's and the publications' fixture pages,
and on texts written to hit each case.
"""

from __future__ import annotations

from crawlkit import fixture_pages

from sacorpus.sources.candidates import source_links
from sacorpus.text.page import PageOptions, process_page
from sacorpus.text.preclean import _GLUED, parse_html, repair_glued_sentences
from sacorpus.text.tokenize import tokenize, word_count

GLUED_TEXTS = [
    "He said.The minister left.",
    "It rained.“Nobody came,” she said.",
    "Really?(Yes) And then?‘Nee’ het hy gesê. In 2024.Die span",
    "The U.S.Army and e.g.This, www.example.Com and News24.com",
    "Ends with a mark.",
    "No mark at all",
    "Sy het gesê.Ék weet",
    'Quoted.")The end',
    "",
]


def _text_nodes(pages: list[str]) -> list[str]:
    nodes = []
    for html in pages:
        root = parse_html(html)
        if root is None:
            continue
        for el in root.iter():
            nodes += [t for t in (el.text, el.tail) if t and not t.isspace()]
    return nodes


def test_glued_sentence_prescan_repairs_what_the_regex_repairs() -> None:
    texts = GLUED_TEXTS + _text_nodes(fixture_pages())
    repaired = 0
    for text in texts:
        plain = _GLUED.sub(r"\1 \2", text)
        assert repair_glued_sentences(text) == plain
        repaired += plain != text
    assert repaired >= 4  # the written texts hit the repair; the fixtures the pass-through
    assert repair_glued_sentences(GLUED_TEXTS[0]) == "He said. The minister left."


WORD_TEXTS = [
    "Don't go -- it's 3.5 km, R1.5bn, “quoted” ... ok?",
    "Umongameli uthe: “Siyabonga!” — ½ ² ٣ ⅷ _ __ ’n 's",
    "日本語のテキスト。 ١٢٣ ग्राम ¿Qué? «Oui»",
]


def test_word_count_counts_tokens_holding_a_letter_or_digit() -> None:
    tokens = [t for text in WORD_TEXTS for t in tokenize(text, "en").tokens + tokenize(text, "zu").tokens]
    tokens += ["_", "__", "²", "½", "٣", "\u0301", "a_", "-", "''", "``"]
    plain = sum(1 for token in tokens if any(ch.isalnum() for ch in token))
    assert word_count(tokens) == plain
    assert 0 < plain < len(tokens)
    assert all(word_count([chr(c)]) == chr(c).isalnum() for c in range(0x3000))


FEED_PAGE = """<html><head><base href="https://partner.example.org/news/">
<link rel="alternate" type="application/rss+xml" href="https://feeds.example.net/all.rss">
<link rel="sitemap" href="/sitemap.xml"><style>.x{}</style></head><body>
<div style="display:none"><a href="https://hidden.example.com/feed/">hidden feed</a></div>
<nav><a href="https://nav.example.com/rss">nav feed</a></nav><!-- <a href="https://c.example/feed">-->
<article><h1>Story</h1><p>Text with a <a href="//other.example.com/atom.xml">link</a>.</p></article>
</body></html>"""


def test_page_core_reads_the_source_links_its_own_parse_would_give() -> None:
    pages = [FEED_PAGE, *fixture_pages()]
    pages += [p.replace('href="/', 'href="https://elsewhere.example.com/') for p in pages]
    url = "https://www.site.example/2025/01/02/story"
    found = 0
    for html in pages:
        result = process_page(None, None, url, html=html, options=PageOptions(source_links=True))
        assert result.extracted is not None
        assert result.extracted.source_links == source_links(html, url)
        found += len(result.extracted.source_links)
    assert found >= 8  # the written page and its variant; the fixtures link to no other site's feeds
    first = process_page(None, None, url, html=FEED_PAGE, options=PageOptions(source_links=True))
    assert first.extracted is not None and first.extracted.source_links is not None
    # read before the page is cleaned: the hidden and navigation links count as they always did
    assert {c.url for c in first.extracted.source_links} >= {
        "https://feeds.example.net/all.rss",
        "https://hidden.example.com/feed/",
        "https://nav.example.com/rss",
        "https://other.example.com/atom.xml",
    }
    plain = process_page(None, None, url, html=FEED_PAGE)
    assert plain.extracted is not None and plain.extracted.source_links is None  # only when asked
