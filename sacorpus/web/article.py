"""An article as the article page shows it: paragraphs with their language, links and quotes marked.

Why offsets and not re-finding strings: the links and quotes were stored as character spans of the
text (the L: and Q: of the line format), so the page marks exactly what the corpus records, and
sentences and tokens come from their stored spans too. Everything here is plain data; the template
escapes every string it prints.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from sacorpus.items import Article

#: token-parallel lists the token table shows when a tagger stored them (column title, field)
TOKEN_COLUMNS = (("POS", "upos"), ("POS", "pos"), ("lemma", "lemmas"), ("lemma", "lemma"))


@dataclass(frozen=True)
class Segment:
    """A run of text with the same marks: inside a quote, inside a link (to ``href``)."""

    text: str
    quote: bool = False
    link: str | None = None  # the link's target when it is a web address
    linked: bool = False  # inside a stored link span (even one whose target is not shown as a link)


@dataclass
class Paragraph:
    segments: list[Segment]
    language: str | None = None
    probability: float | None = None


@dataclass
class Sentence:
    text: str
    tokens: list[list[str]] = field(default_factory=list)  # [token, POS, lemma ...] per token


def with_defaults(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record with every Article field present (rows written by older versions lack some)."""
    return {**dataclasses.asdict(Article(url="", publication="")), **record}


def web_address(url: Any) -> str | None:
    """The URL when it is http(s): a stored ``javascript:`` or ``data:`` link never becomes an href."""
    if not isinstance(url, str):
        return None
    return url if urlsplit(url).scheme.lower() in ("http", "https") else None


def _spans(items: Any, text_length: int) -> list[tuple[int, int, dict[str, Any]]]:
    """Valid (start, end, item) spans of stored links or quotes (bad offsets are left out)."""
    out = []
    for item in items or []:
        if not isinstance(item, Mapping):
            continue
        start, length = item.get("start"), item.get("length")
        if isinstance(start, int) and isinstance(length, int) and length > 0 and start >= 0:
            out.append((start, min(text_length, start + length), dict(item)))
    return out


def segments(text: str, start: int, end: int, links: list[Any], quotes: list[Any]) -> list[Segment]:
    """text[start:end] cut where a link or quote begins or ends."""
    cuts = {start, end}
    for s, e, _ in (*links, *quotes):
        cuts.update(c for c in (s, e) if start < c < end)
    bounds = sorted(cuts)
    out = []
    for a, b in itertools.pairwise(bounds):
        link = next((item for s, e, item in links if s <= a and b <= e), None)
        quote = any(s <= a and b <= e for s, e, _ in quotes)
        out.append(
            Segment(
                text=text[a:b],
                quote=quote,
                link=web_address(link.get("url")) if link else None,
                linked=link is not None,
            )
        )
    return out


def _language_at(paragraph_languages: Any, start: int, end: int) -> tuple[str | None, float | None]:
    """The stored language of the paragraph spanning most of text[start:end]."""
    best, best_overlap = None, 0
    for item in paragraph_languages or []:
        if not isinstance(item, Mapping):
            continue
        try:
            overlap = min(end, int(item["end"])) - max(start, int(item["start"]))
        except (KeyError, TypeError, ValueError):
            continue
        if overlap > best_overlap:
            best, best_overlap = item, overlap
    if best is None:
        return None, None
    prob = best.get("prob")
    return best.get("lang"), float(prob) if isinstance(prob, int | float) else None


def paragraphs(record: Mapping[str, Any]) -> list[Paragraph]:
    """The text's lines (one paragraph each) with their language and marked links and quotes."""
    text = str(record.get("text") or "")
    links = _spans(record.get("links"), len(text))
    quotes = _spans(record.get("quotes"), len(text))
    out, start = [], 0
    for line in text.split("\n"):
        end = start + len(line)
        if line.strip():
            lang, prob = _language_at(record.get("paragraph_languages"), start, end)
            out.append(Paragraph(segments(text, start, end, links, quotes), lang, prob))
        start = end + 1
    return out


def _token_columns(record: Mapping[str, Any], n: int) -> list[tuple[str, Sequence[Any]]]:
    columns: list[tuple[str, Sequence[Any]]] = []
    seen = set()
    for title, name in TOKEN_COLUMNS:
        values = record.get(name)
        if title not in seen and isinstance(values, list) and len(values) == n:
            columns.append((title, values))
            seen.add(title)
    return columns


def token_column_titles(record: Mapping[str, Any]) -> list[str]:
    return ["token", *(t for t, _ in _token_columns(record, len(record.get("tokens") or [])))]


def sentences(record: Mapping[str, Any]) -> list[Sentence]:
    """Sentences from the stored spans, each with its tokens (and their tags, when stored)."""
    text = str(record.get("text") or "")
    tokens = list(record.get("tokens") or [])
    offsets = record.get("token_offsets") or []
    columns = _token_columns(record, len(tokens))
    spans = [s for s in record.get("sentences") or [] if isinstance(s, list | tuple) and len(s) == 2]
    if not spans and text:
        spans = [[0, len(text)]]
    out = [Sentence(text=text[int(s) : int(e)]) for s, e in spans]
    have_offsets = len(offsets) == len(tokens)
    k = 0
    for i, token in enumerate(tokens):
        if have_offsets and out:
            start = int(offsets[i][0])
            while k + 1 < len(spans) and start >= int(spans[k][1]):
                k += 1
        row = [str(token), *(str(values[i]) for _, values in columns)]
        if out:
            out[k].tokens.append(row)
    return out


def dedup_matches(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stored evidence of the dedup label: the matched articles, with score and kind."""
    out = []
    for item in record.get("dedup_evidence") or []:
        if isinstance(item, Mapping) and isinstance(item.get("url"), str):
            out.append({"url": item["url"], "score": item.get("score"), "kind": item.get("kind")})
    return out
