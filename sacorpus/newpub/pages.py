"""What sample pages of a new publication teach: selectors the page core needs, furniture, language.

Why: the page core reads bylines and dates on most sites unaided; a rule is proposed only where it
misses them on a sample, and kept only when it then works on every sample (a rule that fits one page
is a guess). Furniture is a text line the core keeps on every sample page: a line shared by all
samples of different stories is the site's, not the story's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from lxml import html as lxml_html

from sacorpus.publications import Publication
from sacorpus.sources.dates import parse_date
from sacorpus.text.analysis import language_fields
from sacorpus.text.boilerplate import MAX_CHARS, MIN_CHARS
from sacorpus.text.page import PageResult, process_page

_BYLINE_HINT = re.compile(r"author|byline|writer|reporter|skrywer|joernalis|umbhali|intatheli", re.I)
_DATE_HINT = re.compile(r"date|time|publish|posted|datum|usuku", re.I)


@dataclass
class Sample:
    """One sampled article page: where it is, its HTML, and what the page core made of it."""

    url: str
    body: bytes
    headers: dict[str, str]
    result: PageResult

    @property
    def html(self) -> str:
        return self.result.html or ""

    def field(self, name: str) -> object:
        ex = self.result.extracted
        return getattr(ex, name) if ex is not None else None


def read_sample(url: str, body: bytes, headers: dict[str, str], publication: Publication) -> Sample:
    return Sample(url, body, headers, process_page(body, headers, url, publication))


def rerun(samples: list[Sample], publication: Publication) -> list[Sample]:
    """The samples read again with ``publication``'s rules (to check a proposed rule on every one)."""
    return [read_sample(s.url, s.body, s.headers, publication) for s in samples]


def _selector(el: lxml_html.HtmlElement) -> str | None:
    """``tag.class`` (first class), or ``tag[itemprop=...]``: short selectors that survive redesigns
    of the rest of the page."""
    for attr in ("itemprop", "rel"):
        value = (el.get(attr) or "").strip()
        if value and re.fullmatch(r"[\w-]+", value):
            return f'{el.tag}[{attr}="{value}"]'
    classes = (el.get("class") or "").split()
    for cls in classes:
        if re.fullmatch(r"-?[A-Za-z_][\w-]*", cls):
            return f"{el.tag}.{cls}"
    return None


def _candidates(samples: Iterable[Sample], hint: re.Pattern[str], accept: object) -> Counter[str]:
    """Selectors of hinted elements whose text ``accept`` takes, counted once per sample."""
    found: Counter[str] = Counter()
    for sample in samples:
        try:
            root = lxml_html.fromstring(sample.html)
        except (ValueError, TypeError, lxml_html.etree.ParserError):
            continue
        seen: set[str] = set()
        for el in root.iter():
            if not isinstance(el.tag, str) or el.tag in ("html", "body", "article", "main", "section"):
                continue
            marks = " ".join(el.get(a) or "" for a in ("class", "itemprop", "rel", "id"))
            if not hint.search(marks):
                continue
            selector = _selector(el)
            text = " ".join(el.text_content().split())
            if selector and selector not in seen and accept(text, el):  # type: ignore[operator]
                seen.add(selector)
                found[selector] += 1
    return found


def _date_text(text: str, el: lxml_html.HtmlElement) -> bool:
    value = el.get("datetime") or el.get("content") or text
    return len(value) <= 80 and parse_date(value) is not None


def _byline_text(text: str, _el: lxml_html.HtmlElement) -> bool:
    return 2 < len(text) <= 120 and parse_date(text, allow_text=False) is None


@dataclass
class Proposal:
    """A rule the samples need, the key it goes to, and the evidence for it."""

    key: str
    selector: str
    why: str


def propose_selectors(samples: list[Sample], publication: Publication) -> tuple[list[Proposal], list[str]]:
    """Author and date selectors for what the page core misses, each checked on every sample.

    Returns the proposals and the fields still missing (printed as "could not be determined")."""
    proposals: list[Proposal] = []
    missing: list[str] = []
    for key, field_name, hint, accept in (
        ("date_selectors", "published_at", _DATE_HINT, _date_text),
        ("author_selectors", "authors", _BYLINE_HINT, _byline_text),
    ):
        lacking = [s for s in samples if not s.field(field_name)]
        if not lacking:
            continue
        chosen = _first_working(samples, publication, key, field_name, _candidates(samples, hint, accept))
        if chosen is None:
            missing.append(
                f"{field_name}: the page core finds none on {len(lacking)} of {len(samples)} samples"
            )
            continue
        proposals.append(
            Proposal(
                key,
                chosen,
                f"the page core missed {field_name} on {len(lacking)} of {len(samples)} "
                f"samples; with this selector all {len(samples)} have it",
            )
        )
        publication = with_rules(publication, **{key: (chosen,)})
    return proposals, missing


def _first_working(
    samples: list[Sample], publication: Publication, key: str, field_name: str, found: Counter[str]
) -> str | None:
    for selector, count in found.most_common(5):
        if count < len(samples):
            break
        trial = rerun(samples, with_rules(publication, **{key: (selector,)}))
        if all(s.field(field_name) for s in trial):
            return selector
    return None


def with_rules(publication: Publication, **changes: Any) -> Publication:
    """``publication`` with its current rule set changed (a trial of a proposed rule)."""
    return replace(publication, rules=(replace(publication.rules_for(None), **changes),))


def repeated_lines(samples: list[Sample]) -> list[str]:
    """Text lines the page core keeps on every sample (at least three): the site's, not the story's."""
    if len(samples) < 3:
        return []
    counts: Counter[str] = Counter()
    for sample in samples:
        lines = {ln.strip() for ln in str(sample.field("text") or "").splitlines()}
        counts.update(ln for ln in lines if MIN_CHARS <= len(ln) <= MAX_CHARS)
    return sorted(ln for ln, n in counts.items() if n == len(samples))


def sample_languages(samples: list[Sample]) -> list[tuple[str, int]]:
    """The language of each sample's text by the project's identifier, most frequent first."""
    counts: Counter[str] = Counter()
    for sample in samples:
        lang = language_fields(str(sample.field("text") or ""))["language"]
        if lang and lang != "und":
            counts[lang] += 1
    return counts.most_common()


__all__ = [
    "Proposal",
    "Sample",
    "propose_selectors",
    "read_sample",
    "repeated_lines",
    "rerun",
    "sample_languages",
    "with_rules",
]
