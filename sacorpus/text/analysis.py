"""After extraction: an article's languages, sentences, tokens, links and quotes, as plain functions.

Why here and not in the pipeline stages: the crawl (stages 400 and 500) and ``scrapy reextract`` must
compute these fields the same way, and commands do not import pipelines. Each function takes the
article's fields and returns the fields it fills plus any problem labels; it never raises on text.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from sacorpus.text.annotate import find_links, find_quotes
from sacorpus.text.langid import UNDETERMINED, identify_paragraphs
from sacorpus.text.tokenize import tokenize, tokenize_title

#: Paragraphs beyond this many are not identified one by one (bounded time on huge pages).
MAX_PARAGRAPHS = 400
#: HTML larger than this is not parsed again for anchors (the text URLs are still found).
MAX_ANCHOR_HTML = 5_000_000
#: Text longer than this is tokenized only up to here (bounded time; a problem is recorded).
MAX_TEXT_CHARS = 2_000_000


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the non-blank lines (paragraphs) of ``text``, without surrounding whitespace."""
    spans = []
    for match in re.finditer(r"[^\n]+", text):
        segment = match.group()
        stripped = segment.strip()
        if stripped:
            start = match.start() + (len(segment) - len(segment.lstrip()))
            spans.append((start, start + len(stripped)))
    return spans


def language_fields(text: str, max_paragraphs: int = MAX_PARAGRAPHS) -> dict[str, Any]:
    """``language``, ``language_prob``, ``paragraph_languages`` and ``mixed_language`` of a text."""
    spans = paragraph_spans(text or "")[:max_paragraphs]
    if not spans:
        return {
            "language": UNDETERMINED,
            "language_prob": 0.0,
            "paragraph_languages": [],
            "mixed_language": False,
        }
    result = identify_paragraphs([text[a:b] for a, b in spans])
    return {
        "language": result.language,
        "language_prob": result.probability,
        "paragraph_languages": [
            {"lang": lang, "prob": prob, "start": a, "end": b}
            for (lang, prob), (a, b) in zip(result.paragraphs, spans, strict=True)
        ],
        "mixed_language": result.mixed,
    }


def anchors_from_html(html: str, base_url: str | None = None) -> list[tuple[str, str]]:
    """(anchor text, absolute href) of the links inside ``<article>`` or ``<main>``, in order.

    Restricted to the main content so that navigation links are never placed in the article text.
    """
    if not html or len(html) > MAX_ANCHOR_HTML:
        return []
    import lxml.html

    try:
        root = lxml.html.fromstring(html)
    except (ValueError, TypeError, lxml.etree.ParserError):
        return []
    containers = root.xpath("//article") or root.xpath("//main")
    if not containers:
        return []
    anchors: list[tuple[str, str]] = []
    for element in containers[0].iter("a"):
        href = (element.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:")):
            continue
        text = " ".join(element.text_content().split())
        anchors.append((text, urljoin(base_url, href) if base_url else href))
    return anchors


def token_fields(
    text: str,
    language: str | None,
    title: str | None = None,
    anchors: list[Any] | None = None,
    html: str | None = None,
    base_url: str | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Sentences, tokens with offsets, counts, title tokens (F), quotes (Q) and links (L) of a text.

    ``anchors`` are the extraction's main-content links ([text, href] pairs); without them the links
    inside the page's ``<article>`` (or ``<main>``) are used. Returns (fields, problems).
    """
    lang = language if language and language != UNDETERMINED else "en"
    problems = []
    text = text or ""
    if len(text) > MAX_TEXT_CHARS:
        problems.append("tokenize:text-truncated")
        text = text[:MAX_TEXT_CHARS]
    result = tokenize(text, lang)
    if anchors is None:
        anchors = anchors_from_html(html or "", base_url)
    pairs = [(str(a[0] or ""), str(a[1] or "")) for a in anchors if len(a) >= 2]
    fields = {
        "sentences": [list(span) for span in result.sentences],
        "tokens": result.tokens,
        "token_offsets": [list(span) for span in result.offsets],
        "token_count": result.token_count,
        "word_count": result.word_count,
        "title_tokens": tokenize_title(title or "", lang),
        "quotes": find_quotes(text),
        "links": find_links(text, pairs),
    }
    return fields, problems


__all__ = ["anchors_from_html", "language_fields", "paragraph_spans", "token_fields"]
