"""The page core: response bytes to article fields, in one function every path calls.

Why one function: the crawl (the page stage of the item pipeline), ``scrapy evaluate`` and
``scrapy reextract`` must store and measure the same thing. Before, the bytes-to-article path existed
twice (four pipeline stages, and a separate helper for the evaluation that ran without the
publications' rules), so no measurement covered what a crawl stores. :func:`process_page` takes what
a fetch gives (body, headers, URL), the publication (for its rules) and the capture date (a Wayback
capture from 2014 is cleaned with the 2014 rules), and returns a :class:`PageResult` whose
:meth:`PageResult.article_fields` are exactly the fields the crawl writes. Pure: no Scrapy, no store.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import urljoin

from sacorpus import settings as defaults
from sacorpus.publications import Publication, RuleSet
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.compression import Decompressed, decompress
from sacorpus.text.decode import Decoded, decode_html
from sacorpus.text.extract import Extracted, extract_article
from sacorpus.text.rules import choose_layout

DEFAULT_MAX_BYTES: int = defaults.SACORPUS_GZIP_MAX_BYTES  # decompression-bomb cap


@dataclass(frozen=True)
class PageOptions:
    """Which steps of the core run (the crawl's ``SACORPUS_GZIP_ENABLED`` / ``SACORPUS_PRECLEAN_ENABLED``)."""

    decompress: bool = True
    preclean: bool = True
    max_bytes: int = DEFAULT_MAX_BYTES
    source_links: bool = False  # read other hosts' feed and sitemap links from the same parse


@dataclass
class PageResult:
    """Everything the core learnt about one page; ``problems`` are prefixed by step (``gzip:truncated``)."""

    body: bytes
    html: str | None
    encoding: str | None = None
    content_encoding: str | None = None
    decompressed: Decompressed | None = None
    decoded: Decoded | None = None
    extracted: Extracted | None = None
    rules: RuleSet = field(default_factory=RuleSet)
    page_type: str = "article"
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    mirror: tuple[str, str] | None = None  # (fetched origin, publication origin) for a mirror fetch

    def counters(self) -> list[tuple[str, int]]:
        """``(stats key under sacorpus/, count)`` for everything this page adds to a crawl's stats."""
        out: list[tuple[str, int]] = [(p.replace(":", "/", 1), 1) for p in self.problems]
        if self.decompressed is not None:
            out += [(f"gzip/applied/{kind}", 1) for kind in self.decompressed.applied]
        if self.decoded is not None:
            if self.decoded.is_binary:
                out.append((f"decode/binary/{self.decoded.binary_kind}", 1))
            elif self.encoding:
                out.append((f"decode/encoding/{self.encoding}", 1))
        if self.extracted is not None:
            out.append(("preclean/rules/" + self.rules.version, 1))
            out.append(("extract/hidden_removed", self.extracted.hidden_removed))
            out.append(("extract/filtered_removed", self.extracted.filtered_removed))
        out.append((f"extract/page_type/{self.page_type}", 1))
        return [(key, n) for key, n in out if n]

    def article_fields(self, base_url: str | None = None) -> dict[str, Any]:
        """The Article fields this page fills (the same names as :class:`sacorpus.items.Article`).

        ``base_url`` (the final URL) makes the main-content anchors absolute for the L field.
        """
        fields: dict[str, Any] = {
            "body": self.body,
            "html": self.html or None,
            "encoding": self.encoding,
            "page_type": self.page_type,
            "rule_version": self.rules.version,
        }
        if self.content_encoding:
            fields["content_encoding"] = self.content_encoding
        ex = self.extracted
        if ex is None:
            return fields
        fields.update(
            text=ex.text or None,
            title=ex.title,
            title_clean=ex.title_clean,
            authors=ex.authors,
            agencies=ex.agencies,
            published_at=ex.published_at,
            published_raw=ex.published_raw,
            modified_at=ex.modified_at,
            section=ex.section,
            tags=ex.tags,
            description=ex.description,
            extractor=ex.extractor,
            anchors=[[text, urljoin(base_url, href) if base_url else href] for text, href in ex.anchors],
        )
        if ex.canonical_url:
            fields["canonical_url"] = self.unmirror(ex.canonical_url)
        fields["anchors"] = [[text, self.unmirror(href)] for text, href in fields["anchors"]]
        return fields

    def unmirror(self, url: str) -> str:
        """A URL on the mirror the page was fetched from, as the publication's own URL."""
        if (
            self.mirror
            and url.startswith(self.mirror[0])
            and url[len(self.mirror[0]) : len(self.mirror[0]) + 1]
            in (
                "",
                "/",
                "?",
                "#",
            )
        ):
            return self.mirror[1] + url[len(self.mirror[0]) :]
        return url


def choose_rules(publication: Publication | None, captured: date | None, html: str | None = None) -> RuleSet:
    """The publication's rule set for a page captured on ``captured`` (None: today's layout), unless the
    page's markup names another version's layout (``text/rules.py``)."""
    if publication is None:
        return RuleSet()
    return choose_layout(publication, captured, html)


def process_page(
    body: bytes | None,
    headers: Mapping[str, str] | None = None,
    url: str | None = None,
    publication: Publication | None = None,
    captured: date | None = None,
    *,
    html: str | None = None,
    fallback: Mapping[str, Any] | None = None,
    options: PageOptions | None = None,
    history: LineHistory | None = None,
) -> PageResult:
    """Response bytes (or already decoded ``html``) to an extracted article; never raises.

    Steps: undo content codings (also mislabelled, doubled, truncated; bombs capped), decode (encoding
    evidence, mojibake), then pre-clean + extract + metadata with the publication's rules for the
    capture date. Binary and empty bodies are labelled, not dropped. ``history`` (one per publication)
    drops lines the publication repeats on other pages, and learns this page's lines.
    """
    start = time.perf_counter()
    options = options or PageOptions()
    result = PageResult(body=body or b"", html=html)
    mirror = (fallback or {}).get("mirror")
    if isinstance(mirror, list | tuple) and len(mirror) == 2:
        result.mirror = (str(mirror[0]), str(mirror[1]))
    if html is None:
        _decode(result, headers, options)
    if result.html is not None:
        result.rules = choose_rules(publication, captured, result.html)
        ex = extract_article(
            result.html,
            url,
            result.rules,
            fallback,
            site_name=publication.name if publication else None,
            preclean=options.preclean,
            history=history,
            source_links=options.source_links,
        )
        result.extracted = ex
        result.page_type = ex.page_type
        result.problems += [f"extract:{p}" for p in ex.problems]
    result.seconds = time.perf_counter() - start
    return result


def _decode(result: PageResult, headers: Mapping[str, str] | None, options: PageOptions) -> None:
    """The gzip and decode steps: fills body (decompressed), html, encoding, content_encoding."""
    if options.decompress and result.body:
        label = next((v for k, v in (headers or {}).items() if str(k).lower() == "content-encoding"), None)
        dec = decompress(result.body, label, max_bytes=options.max_bytes)
        result.decompressed = dec
        result.body = dec.data
        if dec.applied:
            result.content_encoding = dec.content_encoding
        if dec.problem:
            result.problems.append(f"gzip:{dec.problem}")
    decoded = decode_html(result.body, headers)
    result.decoded = decoded
    result.problems += [f"decode:{p}" for p in decoded.problems]
    if decoded.is_binary:
        result.page_type = "binary"
        return
    if "empty" in decoded.problems:
        result.page_type = "empty"
    result.html = decoded.text  # "" still goes through extraction, which labels it empty
    result.encoding = decoded.encoding


__all__ = ["PageOptions", "PageResult", "choose_rules", "process_page"]
