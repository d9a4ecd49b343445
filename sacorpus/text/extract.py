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
from sacorpus.text.metadata import Metadata, extract_metadata
from sacorpus.text.preclean import parse_html, preclean_tree, repair_glued_sentences, strip_static_text
from sacorpus.text.rules import body_rules, paragraph_chars, ruled_text_lost, suspicious, without_body_rules

logger = logging.getLogger(__name__)

MAX_HTML_CHARS = 6_000_000  # larger pages lose scripts/styles first, then get cut
MAX_ELEMENTS = 150_000  # more nodes than any real article page; extraction would take seconds
SHORT_TEXT_CHARS = 250  # below this an "article" is labelled short
FALLBACK_BELOW_CHARS = 400  # trafilatura results shorter than this get a second opinion (readability)
DROP_FRAGMENTS = True  # on news reports only; see drop_fragments
_SCRIPT_STYLE = re.compile(r"<(script|style|svg|noscript)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_GALLERY_URL = re.compile(r"/(?:galleries|gallery|photos?|pictures|in-pictures|fotos?|bildergalerie|slideshow)(?:/|-|$)", re.I)
_VIDEO_URL = re.compile(r"/(?:videos?|watch|tv)(?:/|-|$)", re.I)
_LIVE_URL = re.compile(r"/(?:live|liveblog|live-updates|as-it-happened)(?:/|-|$)|[-/]live(?:-updates|-blog)?(?:[-/]|$)", re.I)


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
    authors: list[str] = field(default_factory=list)
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

    doc = trafilatura.bare_extraction(
        root,
        url=url,
        with_metadata=False,
        include_tables=True,
        include_comments=False,
        prune_xpath=list(rules.prune_xpaths) or None,
    )
    return (doc.text or "") if doc is not None else ""


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


def drop_link_lines(text: str, anchors: list[tuple[str, str]]) -> str:
    """Remove lines that are nothing but a link's text: related-story lists, "More from" boxes.

    A real paragraph is almost never one whole link; a list of linked headlines glued into the body is
    another article's title in this one.
    """
    linked = {t for t, _ in anchors if len(t) >= 12}
    if not linked:
        return text
    out = []
    for line in text.split("\n"):
        core = line[2:] if line.startswith("- ") else line
        if core in linked:
            continue
        out.append(line)
    return "\n".join(out)


_SEE_ALSO = re.compile(
    r"^\s*(?:read\s+(?:more|also|next)|also\s+read|more|related(?:\s+(?:articles?|stories|links|news))?|see\s+also|"
    r"more\s+on\s+this(?:\s+story)?|recommended|don'?t\s+miss|les\s+også|lees\s+ook|lesen\s+sie\s+(?:auch|mehr)|"
    r"mehr\s+zum\s+thema|auch\s+interessant|zum\s+artikel|lire\s+aussi|à\s+lire\s+aussi|lea\s+también|"
    r"leia\s+também|läs\s+också|læs\s+også|lue\s+myös|czytaj\s+(?:też|także|więcej)|čtěte\s+také|"
    r"funda\s+(?:futhi|olunye\s+udaba(?:\s+lapha)?)|lees\s+ook)\s*[:|\-–—>»]",
    re.I,
)
# stand-alone furniture lines: widget labels, calls to action, credits, copyright
_FURNITURE = re.compile(
    r"^(?:read\s+more|czytaj\s+więcej|advertisement|advertentie|anzeige|publicité|publicidad|recommended(?:\s+videos?)?|"
    r"popular|most\s+read|share(?:\s+this(?:\s+article)?)?|swipe\s*→?|embed|schlagwörter(?:\s+zu\s+diesem\s+artikel)?|"
    r"tags?|etiketler\s*:?|fehler\s+gefunden\?.*|jetzt\s+unterstützen|lesedauer:.*|\d+\s+min(?:ute)?n?\s+(?:read|lesezeit)|"
    r"(?:photo|foto|bild|image|picture|credit|source|quelle|imagen)s?\s*[:©].{0,90}|"
    r".{0,90}(?:/|\bvia\s+)(?:getty\s*images|afp|reuters|ap|dpa|epa|shutterstock|gallo\s+images)|"
    r"(?:copyright\s*)?©.{0,200}|copyright\s+\d{4}.{0,200}|"
    r"(?:would\s+you\s+like\s+to\s+comment|sign\s+up\b|subscribe\b|join\s+our\b|follow\s+us\b|get\s+in\s+touch\b|"
    r"for\s+the\s+latest\b|get\s+daily\b|do\s+you\s+have\s+a\s+story|please\s+read\s+our\s+comment|"
    r"for\s+more\s+stories\s+like\s+this|(?:e-?mail|tel|phone)\s*:\s*\S+@).{0,200}|"
    r"[-—–]\s*.{0,80}\(@\w+\)\s+\w+\s+\d{1,2},\s+\d{4}|.*pic\.twitter\.com/\w+)$",
    re.I,
)


_DATE_WORDS_TEXT = (
    "uhr am pm h sast cat jst gmt utc cet cest bst est edt pst ist updated update published posted last modified "
    "uppdaterad publicerad oppdatert publisert aktualisiert veröffentlicht stand at um on le el om op "
    "mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday montag dienstag mittwoch "
    "donnerstag freitag samstag sonntag maandag dinsdag woensdag donderdag vrydag saterdag sondag"
)
_DATE_WORDS = frozenset(_DATE_WORDS_TEXT.split())


def _is_date_line(line: str) -> bool:
    """A line that is only a date and/or time ("05.08.2024, 20:59 Uhr", "17:41 JST, October 13, 2024")."""
    if len(line) > 60 or not re.search(r"\d", line):
        return False
    from sacorpus.text.dates import MONTH_NAMES

    words = re.findall(r"[^\W\d_]+", line.casefold())
    return all(w in _DATE_WORDS or w in MONTH_NAMES for w in words) and bool(
        re.search(r"\d{1,2}[:.h]\d{2}|\d{4}|\d{1,2}[./]\d{1,2}", line)
    )


# attribution and credit lines that close a report: "(Quelle: APA/sda/dpa)", "mit dpa", "(NTB)",
# "With reporting by ...", "... contributed to this report.", "First published in The Conversation."
_ATTRIBUTION = re.compile(
    r"^\(?(?:quelle|source|sources|kilde|fuente|fonte|bron|källa|lähde)\s*:.{0,120}$|"
    r"^(?:with|additional)\s+report(?:ing|s)?\s+(?:by|from)\b.{0,160}$|"
    r"^.{0,160}contributed\s+(?:to\s+)?(?:this\s+)?report(?:ing)?\.?$|"
    r"^(?:this\s+(?:article|story)\s+(?:was\s+)?)?(?:first|originally)\s+(?:published|appeared)\s+(?:in|on|by)\b.{0,120}$|"
    r"^\(?(?:mit\s+|with\s+|by\s+)?(?:dpa|afp|ap|apa|sda|ntb|aa|reuters|sapa|ana|kna|epd|ots|tt|anp|pa|efe)"
    r"(?:\s*[/,;&+]\s*(?:dpa|afp|ap|apa|sda|ntb|aa|reuters|sapa|ana|kna|epd|ots|tt|anp|pa|efe|[a-z]{2,4}))*\)?\.?$",
    re.I,
)
# calls to action in the languages of the corpus' neighbours
_CALL_TO_ACTION = re.compile(
    r"^(?:folgst\s+du\s+schon|wie\s+hat\s+ihnen\s+(?:dieser|der)\s+artikel\s+gefallen|kommentar\s+abgeben|"
    r"du\s+musst\s+dich\s+einloggen|jetzt\s+(?:abonnieren|anmelden|registrieren)|suscr[ií]bete|"
    r"esta\s+funcionalidad\s+es\s+s[oó]lo\s+para\s+suscriptores|get\s+the\s+latest\b|get\s+real-time\s+updates|"
    r"join\s+(?:the\s+)?(?:conversation|thought-provoking)|click\s+here\s+to\s+(?:subscribe|sign\s+up|join)|"
    r"download\s+(?:the|our)\s+(?:\w+\s+)?app|abonneer|abonnez-vous|iscriviti).{0,200}$",
    re.I,
)


# a short line giving an e-mail address is a contact prompt ("Got a story? Email news@...", "Feedback
# to letters@..."), not reporting; long paragraphs that mention an address stay
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}", re.I)


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def _is_byline(squashed: str, names: list[str]) -> bool:
    """A line made only of the author names (and "by", "and", roles around them) is the byline."""
    rest = squashed
    for name in names:
        rest = rest.replace(name, "")
    if rest == squashed:
        return False
    return len(rest) <= 12 or rest in ("by", "von", "par", "por", "and", "und", "byand")


def drop_furniture_lines(text: str, titles: list[str], authors: list[str] | None = None) -> str:
    """Drop lines that are page furniture rather than article text.

    "Read more: ..." links, widget labels, photo credits, copyright and sign-up prompts, lines repeating
    the headline (also glued to a kicker, "KickerHeadline"), and lines repeated three or more times on one
    page (consent placeholders such as "External content not available").
    """
    keys = {_squash(t) for t in titles if t and len(_squash(t)) >= 12}
    names = [_squash(a) for a in authors or [] if a and len(_squash(a)) >= 4]
    out = []
    counts: dict[str, int] = {}
    lines = text.split("\n")
    for line in lines:
        if len(line) >= 15:
            counts[line] = counts.get(line, 0) + 1
    seen: set[str] = set()
    for line in lines:
        squashed = _squash(line)
        if not squashed:
            if len(line) <= 3:
                continue  # stray symbols ("¯", "___")
        elif squashed in keys or (len(line) < 300 and any(squashed.endswith(k) and len(squashed) < len(k) + 80 for k in keys)):
            continue
        if len(line) < 220 and (_SEE_ALSO.match(line) or _FURNITURE.match(line) or _ATTRIBUTION.match(line)
                                or _CALL_TO_ACTION.match(line) or _EMAIL.search(line)):
            continue
        if _is_date_line(line):
            continue
        if names and len(line) < 120 and _is_byline(squashed, names):
            continue
        if len(line) >= 15 and (counts.get(line, 0) >= 3 or line in seen):
            continue
        seen.add(line)
        out.append(line)
    return "\n".join(out)


_SENTENCE_END = re.compile(r"[.!?:;\"”»)…]$")
_TABLE_ROW = re.compile(r"^\|.*\|$")


def drop_fragments(text: str) -> str:
    """C of a news report is running text: bullet items that are not sentences (summary boxes, specs,
    teaser lists, tag lists) and table rows go. A list item ending in sentence punctuation ("- The bill
    was passed.") is prose and stays. Applied only to pages that declare themselves news articles
    (schema.org NewsArticle): on blogs, recipes and documentation a list is often the content.
    """
    out = []
    for line in text.split("\n"):
        if line.startswith(("- ", "• ", "* ")) and not _SENTENCE_END.search(line):
            continue
        if _TABLE_ROW.match(line):
            continue
        out.append(line)
    return "\n".join(out)


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
    out = []
    for line in text.split("\n"):
        line = " ".join(line.split())
        if line:
            out.append(repair_glued_sentences(line))
    return "\n".join(out)


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
) -> Extracted:
    """Main text (one paragraph a line), metadata, anchors and page type of one decoded page; never raises."""
    rules = rules or RuleSet()
    result = Extracted(extractor=_trafilatura_version())
    if not html or not html.strip():
        result.page_type = "empty"
        result.problems.append("empty")
        return result
    try:
        result = _extract(html, url, rules, fallback, site_name, preclean, result)
        if preclean and body_rules(rules) and suspicious(result.text, result.page_chars):
            _distrust_if_lost(result, _extract(html, url, without_body_rules(rules), fallback, site_name, preclean,
                                               Extracted(extractor=result.extractor)), rules)
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


def _extract(html, url, rules, fallback, site_name, do_preclean, result: Extracted) -> Extracted:
    html = _limit_size(html, result.problems)
    root = parse_html(html, result.problems)
    if root is None:
        result.page_type = "empty"
        result.problems.append("unparsable")
        return result
    if _too_big(root, result.problems):
        result.page_type = "error"
        return result

    meta = extract_metadata(root, url, rules, fallback, site_name)
    result.title, result.title_clean = meta.title, meta.title_clean
    result.authors = meta.authors
    result.published_at, result.published_raw, result.published_day = meta.published_at, meta.published_raw, meta.published_day
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
    text = drop_link_lines(text, all_anchors)
    if DROP_FRAGMENTS and meta.news_article:
        text = drop_fragments(text)
    text = drop_furniture_lines(text, [meta.title, meta.title_clean, *meta.title_candidates], meta.authors)
    if rules.strip_text:
        text = strip_static_text(text, rules.strip_text)
    result.text = text
    result.anchors = anchors_in_text(all_anchors, text)
    result.page_type = classify_page(text, url, meta)
    return result


__all__ = ["Extracted", "classify_page", "extract_article"]
