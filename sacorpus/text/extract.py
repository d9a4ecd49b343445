"""Main text and metadata of one page: the function the crawl and the evaluation both call.

:func:`extract_article` parses the decoded HTML once, reads metadata from the untouched tree,
pre-cleans the tree in place (hidden content, publication filters, block whitespace, glued
sentences), and hands the same tree to trafilatura with the publication's prune XPaths. When
trafilatura finds nothing or far too little, readability-lxml gets a turn and the longer sensible
result wins. Pages that are galleries, videos, live blogs or very short are *labelled*
(``page_type``), never dropped. Sizes are bounded so a 50 MB page or a 10,000-deep nesting cannot
hang a crawl: such input is cut and labelled.

:func:`sacorpus.text.page.process_page` runs the whole byte-to-article path around it (decompress,
decode, rules, extract) for the crawl, the evaluation and re-extraction alike.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from sacorpus.publications import RuleSet
from sacorpus.sources.candidates import Candidate, tree_links
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.justext_stoplist import install as install_stoplist
from sacorpus.text.linefilters import filter_lines
from sacorpus.text.metadata import Metadata, extract_metadata
from sacorpus.text.preclean import parse_html, preclean_tree, repair_glued_sentences
from sacorpus.text.rules import body_rules, paragraph_chars, ruled_text_lost, suspicious, without_body_rules
from sacorpus.text.standfirst import lead_paragraph, with_lead
from sacorpus.text.unicode_text import visible_text

logger = logging.getLogger(__name__)

MAX_HTML_CHARS = 6_000_000  # larger pages lose scripts/styles first, then get cut
MAX_ELEMENTS = 150_000  # more nodes than any real article page; extraction would take seconds
SHORT_TEXT_CHARS = 250  # below this an "article" is labelled short
FALLBACK_BELOW_CHARS = 400  # trafilatura results shorter than this get a second opinion (readability)
_SCRIPT_STYLE = re.compile(r"<(script|style|svg|noscript)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_GALLERY_URL = re.compile(
    r"/(?:galleries|gallery|photos?|pictures|in-pictures|fotos?|bildergalerie|slideshow)(?:/|-|$)", re.I
)
_VIDEO_URL = re.compile(r"/(?:videos?|watch|tv)(?:/|-|$)", re.I)
_LIVE_URL = re.compile(
    r"/(?:live|liveblog|live-updates|as-it-happened)(?:/|-|$)|[-/]live(?:-updates|-blog)?(?:[-/]|$)", re.I
)


def _trafilatura_version() -> str:
    try:
        import trafilatura

        return f"trafilatura {trafilatura.__version__}"
    except Exception:  # pragma: no cover
        return "trafilatura"


@dataclass
class Extracted:
    text: str = ""  # C: one paragraph per line
    title: str | None = None  # T: as published
    title_clean: str | None = None
    authors: list[str] = field(default_factory=list)  # people only
    agencies: list[str] = field(default_factory=list)  # agencies, desks, outlets credited in the byline
    published_at: str | None = None  # UTC ISO 8601 ("2025-05-21T12:19:07Z")
    published_raw: str | None = None
    published_day: str | None = None  # YYYY-MM-DD in the page's own offset
    modified_at: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    page_type: str = "article"  # article | gallery | video | liveblog | short | empty | binary | error
    extractor: str | None = None
    anchors: list[tuple[str, str]] = field(default_factory=list)  # (anchor text, href) in main-content order
    problems: list[str] = field(default_factory=list)
    hidden_removed: int = 0
    filtered_removed: int = 0
    page_chars: int = 0  # paragraph text on the page before cleaning (the distrust guard's yardstick)
    source_links: list[Candidate] | None = None  # feeds and sitemaps of other hosts, when asked for


def _limit_size(html: str, problems: list[str]) -> str:
    if len(html) <= MAX_HTML_CHARS:
        return html
    html = _SCRIPT_STYLE.sub("", html)
    if len(html) > MAX_HTML_CHARS:
        html = html[:MAX_HTML_CHARS]
        problems.append("html-truncated")
    return html


def _too_big(root: etree._Element, problems: list[str]) -> bool:
    """Cap the node count: extraction time grows with it, and no article page needs more."""
    for count, _ in enumerate(root.iter(), 1):
        if count > MAX_ELEMENTS:
            problems.append("too-many-elements")
            return True
    return False


def _run_trafilatura(root: etree._Element, url: str | None, rules: RuleSet) -> str:
    """Bare trafilatura on our (pre-cleaned) tree. Links are *not* requested: asking trafilatura for
    links changes which blocks it keeps (measurably worse bodies); anchors are collected separately."""
    import trafilatura

    install_stoplist()
    doc = trafilatura.bare_extraction(
        root,
        url=url,
        with_metadata=False,
        include_tables=True,
        include_comments=False,
        prune_xpath=list(rules.prune_xpaths) or None,
    )
    text = getattr(doc, "text", None) if doc is not None else None
    return str(text or "")


_NAV_TAGS = frozenset(("nav", "header", "footer", "aside", "menu"))


def collect_anchors(root: etree._Element) -> list[tuple[str, str]]:
    """(text, href) of every link outside navigation, header, footer and aside, in document order."""
    body = root.find(".//body")
    anchors = []
    for a in (body if body is not None else root).iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        if any(anc.tag in _NAV_TAGS for anc in a.iterancestors()):
            continue
        text = " ".join("".join(a.itertext()).split())
        if text:
            anchors.append((text, href))
    return anchors


def anchors_in_text(anchors: list[tuple[str, str]], text: str) -> list[tuple[str, str]]:
    """The anchors whose text occurs in the extracted text, matched in order (main-content links)."""
    found = []
    pos = 0
    for anchor_text, href in anchors:
        if len(anchor_text) < 2:
            continue
        at = text.find(anchor_text, pos)
        if at >= 0:
            found.append((anchor_text, href))
            pos = at + len(anchor_text)
    return found


def _run_readability(html_tree: etree._Element) -> str:
    try:
        from readability import Document
    except ImportError:  # pragma: no cover
        return ""
    try:
        import lxml.html

        summary = Document(lxml.html.tostring(html_tree, encoding="unicode")).summary(html_partial=True)
        tree = lxml.html.fromstring(summary)
    except Exception:  # readability raises on odd pages; a fallback must never crash the page
        return ""
    lines = []
    for el in tree.iter("p", "h2", "h3", "h4", "li", "blockquote", "pre"):
        text = " ".join(el.text_content().split())
        if text:
            lines.append(text)
    return "\n".join(lines)


def _clean_lines(text: str) -> str:
    """One paragraph a line, whitespace collapsed, one spelling (:func:`visible_text`: NFC, no soft
    hyphens or zero-width spaces, so search, word counts and dedup see one form), glued sentences given
    their space."""
    out = []
    for line in visible_text(text).split("\n"):
        line = " ".join(line.split())
        if line:
            out.append(repair_glued_sentences(line))
    return "\n".join(out)


clean_lines = _clean_lines  # the public name: comments are cleaned line by line the same way


def classify_page(text: str, url: str | None, meta: Metadata) -> str:
    """Label what the page is; a short or gallery page is kept and labelled, not dropped."""
    hints = " ".join(meta.page_types)
    path = re.sub(r"^\w+://[^/]+", "", url or "")
    if "liveblogposting" in hints or _LIVE_URL.search(path):
        return "liveblog"
    if not text.strip():
        if "video" in hints or _VIDEO_URL.search(path):
            return "video"
        if "gallery" in hints or _GALLERY_URL.search(path):
            return "gallery"
        return "empty"
    if len(text) < SHORT_TEXT_CHARS * 4:
        if "imagegallery" in hints or "mediagallery" in hints or _GALLERY_URL.search(path):
            return "gallery"
        if "video" in hints or _VIDEO_URL.search(path):
            return "video"
    if len(text) < SHORT_TEXT_CHARS:
        return "short"
    return "article"


def extract_article(
    html: str,
    url: str | None = None,
    rules: RuleSet | None = None,
    fallback: Mapping[str, Any] | None = None,
    *,
    site_name: str | None = None,
    preclean: bool = True,
    line_filters: bool = True,
    history: LineHistory | None = None,
    source_links: bool = False,
) -> Extracted:
    """Main text (one paragraph a line), metadata, anchors and page type of one decoded page; never raises.

    ``source_links``: also read the feeds and sitemaps of other hosts the page links to
    (:func:`sacorpus.sources.candidates.source_links`) from the same parse, before it is cleaned.
    """
    rules = rules or RuleSet()
    result = Extracted(extractor=_trafilatura_version())
    if not html or not html.strip():
        result.page_type = "empty"
        result.problems.append("empty")
        return result
    try:
        steps = (preclean, line_filters, source_links)
        result = _extract(html, url, rules, fallback, site_name, steps, result, history)
        if preclean and body_rules(rules) and suspicious(result.text, result.page_chars):
            plain = _extract(
                html,
                url,
                without_body_rules(rules),
                fallback,
                site_name,
                (preclean, line_filters, False),
                Extracted(extractor=result.extractor),
            )
            _distrust_if_lost(result, plain, rules)
        return result
    except RecursionError:
        result.problems.append("too-deep")
    except Exception as exc:  # the crawl must survive any page; the label carries the reason
        logger.exception("extraction failed for %s", url)
        result.problems.append(f"extract-error:{type(exc).__name__}")
    result.page_type = "error"
    return result


def _distrust_if_lost(result: Extracted, plain: Extracted, rules: RuleSet) -> None:
    """Keep the rule-less text when the publication's body rules lost most of it (and say so)."""
    if not ruled_text_lost(result.text, plain.text):
        return
    result.text, result.anchors, result.page_type = plain.text, plain.anchors, plain.page_type
    result.extractor = plain.extractor
    result.problems.append(f"rules-distrusted:{rules.version}:{'+'.join(body_rules(rules))}")


def _parse(html: str, url: str | None, read_links: bool, result: Extracted) -> etree._Element | None:
    """The page's one parse (None, with the page labelled, when there is nothing to extract); the
    source links are read from it before anything cleans it."""
    whole = len(html) <= MAX_HTML_CHARS  # a page cut to size leaves the links to a parse of its own
    root = parse_html(_limit_size(html, result.problems), result.problems)
    if root is None:
        result.page_type = "empty"
        result.problems.append("unparsable")
        return None
    if _too_big(root, result.problems):
        result.page_type = "error"
        return None
    if read_links and whole:
        result.source_links = tree_links(root, url or "")
    return root


def _extract(
    html: str,
    url: str | None,
    rules: RuleSet,
    fallback: Mapping[str, Any] | None,
    site_name: str | None,
    steps: tuple[bool, bool, bool],
    result: Extracted,
    history: LineHistory | None = None,
) -> Extracted:
    do_preclean, line_filters, read_links = steps
    root = _parse(html, url, read_links, result)
    if root is None:
        return result

    meta = extract_metadata(root, url, rules, fallback, site_name, history)
    result.title, result.title_clean = meta.title, meta.title_clean
    result.authors, result.agencies = meta.authors, meta.agencies
    result.published_at, result.published_raw, result.published_day = (
        meta.published_at,
        meta.published_raw,
        meta.published_day,
    )
    result.modified_at = meta.modified_at
    result.section, result.tags, result.description = meta.section, meta.tags, meta.description
    result.canonical_url, result.site_name = meta.canonical_url, meta.site_name

    body = root.find(".//body")
    result.page_chars = paragraph_chars(body if body is not None else root)
    if do_preclean:
        counts = preclean_tree(root, rules, result.problems)
        result.hidden_removed, result.filtered_removed = counts["hidden"], counts["filtered"]
    all_anchors = collect_anchors(root)
    text = _clean_lines(_run_trafilatura(root, url, rules))
    if len(text) < FALLBACK_BELOW_CHARS:
        backup = _clean_lines(_run_readability(root))
        if len(backup) > max(2 * len(text), FALLBACK_BELOW_CHARS // 2):
            text = backup
            result.extractor = "readability-lxml"
            result.problems.append("fallback-extractor")
    titles = [meta.title, meta.title_clean, *meta.title_candidates]
    if line_filters:
        text = filter_lines(
            text,
            titles=titles,
            anchors=all_anchors,
            strip_text=rules.strip_text,
            history=history,
            url=url if url and "://" in url else meta.canonical_url,
        )
    result.text = text = with_lead(text, lead_paragraph(root, meta.descriptions, text, titles, history, url))
    result.anchors = anchors_in_text(all_anchors, text)
    result.page_type = classify_page(text, url, meta)
    return result


__all__ = ["Extracted", "classify_page", "extract_article"]
