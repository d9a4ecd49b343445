"""The items a crawl yields.

Every field must survive ``scrapy crawl x -O out.jsonl``: the only bytes field, ``body`` (the raw
response as fetched), carries an exporter ``serializer`` that leaves it out of feed exports; the
store keeps it. Pipelines fill the fields stage by stage; each stage documents what it writes.

The line-format letters of the classic news-corpus export are noted beside their fields:
U url, D date, T title as published, F cleaned + tokenized title, C plain text, H HTML,
L links, Q quotes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sacorpus.sources.dates import utc_now_iso


def _not_exported(_value: bytes | None) -> None:
    """Feed exporters cannot write bytes; the raw body lives in storage only."""
    return None


@dataclass
class Article:
    # --- what was fetched (spider) -------------------------------------------------------------
    url: str  # U: the URL as requested (for Wayback: the original URL, not the archive URL)
    publication: str  # publication slug, e.g. "iol"
    source: str = "link"  # feed | sitemap | news_sitemap | wayback | link | start
    source_url: str | None = None  # the feed / sitemap / CDX query / page the URL came from
    final_url: str | None = None  # after redirects (for Wayback: the archive URL fetched)
    canonical_url: str | None = None  # rel=canonical / og:url, normalised
    wayback_timestamp: str | None = None  # 14-digit capture timestamp when fetched from Wayback
    fetched_at: str = field(default_factory=utc_now_iso)
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = field(default=None, metadata={"serializer": _not_exported})
    rendered: str | None = None  # "playwright" | "splash": body is the rendered DOM, not the bytes served
    fallback: dict[str, Any] = field(
        default_factory=dict
    )  # feed / sitemap metadata: title, published, authors, guid, summary

    # --- decoding (gzip, decode stages) --------------------------------------------------------
    content_encoding: str | None = None  # what the gzip stage found and undid (gzip, br, gzip+gzip, ...)
    encoding: str | None = None  # the character encoding used to decode
    html: str | None = None  # H: decoded HTML

    # --- extraction (preclean, extract stages) --------------------------------------------------
    text: str | None = None  # C: main text, one paragraph a line
    title: str | None = None  # T: title as published
    title_clean: str | None = None  # title with site prefixes/suffixes removed
    title_tokens: list[str] = field(default_factory=list)  # F: cleaned title, tokenized
    authors: list[str] = field(default_factory=list)  # the people who wrote, people only
    agencies: list[str] = field(default_factory=list)  # agencies, desks, outlets the byline credits
    published_at: str | None = None  # D: UTC ISO 8601
    published_raw: str | None = None  # the date string as the page gave it
    modified_at: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    page_type: str = "article"  # article | gallery | video | liveblog | short | empty | binary | error
    extractor: str | None = None  # e.g. "trafilatura 2.3.1" or "readability"
    rule_version: str | None = None  # the publication rule set used (dated)

    # --- language, tokens (language, tokenize stages) -------------------------------------------
    language: str | None = (
        None  # ISO 639-1 where one exists (en, af, zu, xh, st, tn, ts, ss, ve), nso for Sepedi, nr for isiNdebele, "und"
    )
    language_prob: float | None = None
    paragraph_languages: list[dict[str, Any]] = field(
        default_factory=list
    )  # [{"lang", "prob", "start", "end"}]
    mixed_language: bool = False
    sentences: list[list[int]] = field(default_factory=list)  # [[start, end], ...] offsets into text
    tokens: list[str] = field(default_factory=list)
    token_offsets: list[list[int]] = field(default_factory=list)  # [[start, end], ...] parallel to tokens
    token_count: int = 0
    word_count: int = 0  # tokens that contain a letter or digit
    links: list[dict[str, Any]] = field(default_factory=list)  # L: [{"url", "start", "length", "text"}]
    quotes: list[dict[str, Any]] = field(default_factory=list)  # Q: [{"start", "length", "text", "style"}]

    # --- part of speech (optional annotate stage, or `scrapy annotate`) ----------------------------
    upos: str | None = None  # one UPOS tag a token, space-separated; "_": sentence in an untagged language
    lemmas: str | None = None  # one lemma a token, space-separated; "=": the token itself
    pos_model: str | None = None  # "<lang>:<model name>,..." the models used ("" none applied)

    # --- dedup ----------------------------------------------------------------------------------
    text_hash: str | None = None
    dedup_label: str | None = None  # duplicate | similar | unique
    dedup_evidence: list[dict[str, Any]] = field(default_factory=list)  # [{"url", "score", "shared", "kind"}]

    # --- problems seen on the way (each also counted in stats) -----------------------------------
    problems: list[str] = field(default_factory=list)

    def note(self, problem: str) -> None:
        """Record a problem label once (e.g. 'gzip:truncated', 'decode:mojibake-repaired')."""
        if problem not in self.problems:
            self.problems.append(problem)


@dataclass
class Comment:
    """One reader comment, its own record (never part of an article's text), linked to its article.

    Why its own record: comments are a register of their own (readers, not journalists); linguists
    count and search them apart from the articles they answer. ``url`` is the comment's permalink
    (the article's URL and ``#comment-<id>``, as Disqus links them) and its key in the store: a thread
    read again updates its comments (edits, deletions) instead of storing them twice. Presentation fields of the source
    (avatars, badges, media previews) are not kept.
    """

    url: str  # the comment's permalink: <article url>#comment-<comment id>
    article_url: str  # the article the comment answers (the publication's own URL)
    publication: str
    source: str = "disqus"  # disqus | page
    comment_id: str = ""  # the source's id of the comment
    thread: str | None = None  # the source's thread id (Disqus) or the article URL (page)
    parent: str | None = None  # comment_id of the comment this one answers; None: top level
    depth: int = 0  # 0 for top level, 1 for a reply, ...
    forum: str | None = None  # Disqus forum short name
    author_name: str | None = None
    author_username: str | None = None
    published_at: str | None = None  # the comment's createdAt, UTC ISO 8601
    published_raw: str | None = None  # the date string as the source gave it
    raw_message: str | None = None  # the comment as its author typed it (Disqus raw_message)
    message: str | None = None  # the comment's HTML as shown (Disqus message)
    likes: int | None = None
    dislikes: int | None = None
    points: int | None = None
    is_deleted: bool = False
    is_spam: bool = False
    is_approved: bool | None = None
    is_edited: bool = False
    fetched_at: str = field(default_factory=utc_now_iso)

    # --- cleaned text, language, tokens: the same functions as articles' ---------------------------
    text: str | None = None  # one paragraph a line
    language: str | None = None
    language_prob: float | None = None
    paragraph_languages: list[dict[str, Any]] = field(default_factory=list)
    mixed_language: bool = False
    sentences: list[list[int]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    token_offsets: list[list[int]] = field(default_factory=list)
    token_count: int = 0
    word_count: int = 0
    links: list[dict[str, Any]] = field(default_factory=list)
    quotes: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)
