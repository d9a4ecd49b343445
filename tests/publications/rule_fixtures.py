"""Fixture pages of every publication rule version, run through the crawl's page core.

Shared by ``test_rules_proven.py`` (every rule version of every publication has a fixture page that
fails without it) and ``benchmarks/rule_ablation.py`` (which rule *entries* a fixture proves).

``tests/sites/<slug>/expected.json`` holds ``articles`` (the pages the crawl test fetches; captured
live, so the current rule set applies) and ``layouts`` (pages of older or other layouts, never linked
from the site's feeds, each with the ``captured`` date a Wayback capture of it would carry: the crawl
picks a dated rule set by that date, see ``Publication.rules_for``). Pages are read as bytes and go
through :func:`sacorpus.text.page.process_page`, exactly as the crawl and ``scrapy evaluate`` do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from sacorpus.publications import Publication, RuleSet
from sacorpus.text.extract import Extracted
from sacorpus.text.page import choose_rules, process_page

SITES = Path(__file__).resolve().parents[1] / "sites"


@dataclass(frozen=True)
class FixturePage:
    """One fixture page: its URL on the publication's host, its bytes, capture date and expectations."""

    slug: str
    path: str
    url: str
    body: bytes
    captured: date | None
    want: dict


def page_file(site: Path, path: str) -> Path:
    """The file that serves ``path`` (the builder's mapping: a path ending in / is a directory index)."""
    rel = path.strip("/") + ("/index.html" if path.endswith("/") else "")
    return site / rel


def expected_tables(slug: str) -> dict[str, dict[str, dict]]:
    """``{"articles": {...}, "layouts": {...}}`` of a fixture site (a flat file is all articles)."""
    file = SITES / slug / "expected.json"
    if not file.is_file():
        return {}
    data = json.loads(file.read_text(encoding="utf-8"))
    if "articles" not in data and "layouts" not in data:
        data = {"articles": data}
    return {k: {p: w for p, w in v.items() if isinstance(w, dict)} for k, v in data.items()}


def fixture_pages(publication: Publication) -> list[FixturePage]:
    """Every article and layout page of the publication's fixture site that exists on disk."""
    home = publication.home.rstrip("/")
    pages = []
    for table in expected_tables(publication.slug).values():
        for path, want in table.items():
            file = page_file(SITES / publication.slug, path)
            if not file.is_file():
                continue
            body = file.read_bytes().replace(b"{base}", home.encode())
            captured = date.fromisoformat(want["captured"]) if want.get("captured") else None
            pages.append(FixturePage(publication.slug, path, home + path, body, captured, want))
    return pages


def extract(page: FixturePage, publication: Publication | None) -> Extracted:
    """The page core on the fixture's bytes, with the rules ``publication`` picks for its capture date."""
    headers = {"Content-Type": "text/html; charset=utf-8"}
    result = process_page(page.body, headers, page.url, publication, page.captured)
    assert result.extracted is not None, page.url
    return result.extracted


def failures(ex: Extracted, want: dict) -> list[str]:
    """The expectations of ``want`` the extraction misses (empty: all hold)."""
    bad = []
    if "title_clean" in want and ex.title_clean != want["title_clean"]:
        bad.append(f"title_clean {ex.title_clean!r}")
    if "authors" in want and ex.authors != want["authors"]:
        bad.append(f"authors {ex.authors!r}")
    if want.get("published") and (ex.published_day or ex.published_at or "")[:10] != want["published"][:10]:
        bad.append(f"published {ex.published_at!r}")
    bad += [f"absent {t!r} kept" for t in want.get("absent", []) if t in ex.text]
    bad += [f"present {t!r} lost" for t in want.get("present", []) if t not in ex.text]
    return bad


def version_pages(publication: Publication, rules: RuleSet) -> list[FixturePage]:
    """The fixture pages whose capture date (or layout) selects ``rules`` (the crawl's choice for that page)."""
    return [p for p in fixture_pages(publication) if chosen(publication, p) is rules]


def chosen(publication: Publication, page: FixturePage) -> RuleSet:
    """The rule version the page core picks for ``page``: by capture date, or the layout its markup names."""
    return choose_rules(publication, page.captured, page.body.decode("utf-8"))


def without_version(publication: Publication, rules: RuleSet) -> Publication:
    """The publication with one rule version removed (its pages fall to another version, or none)."""
    rest = tuple(r for r in publication.rules if r is not rules)
    return replace(publication, rules=rest or (RuleSet(),))


def with_rules(publication: Publication, old: RuleSet, new: RuleSet) -> Publication:
    """The publication with rule version ``old`` replaced by ``new`` (an entry ablation)."""
    return replace(publication, rules=tuple(new if r is old else r for r in publication.rules))


# every kind of rule entry a version can hold; each is removed in turn by the entry ablation
ENTRIES = (
    "title_strip",
    "author_selectors",
    "author_strip",
    "date_selectors",
    "section_selectors",
    "prune_xpaths",
    "filters",
    "strip_text",
    "body_selectors",
    "layout_classes",
)


def without_entry(rules: RuleSet, name: str, index: int) -> RuleSet:
    """``rules`` with entry ``index`` of the list ``name`` removed."""
    return replace(rules, **{name: tuple(v for i, v in enumerate(getattr(rules, name)) if i != index)})


def failure_counts(pages: list[FixturePage], publication: Publication) -> list[int]:
    return [len(failures(extract(page, publication), page.want)) for page in pages]


def unproven_entries(publication: Publication, rules: RuleSet) -> list[str]:
    """The entries of one version whose removal makes no expectation of its fixture pages fail, as
    ``"slug version name[i] = value"`` lines (every entry when the version has no fixture page)."""
    pages = version_pages(publication, rules)
    base = failure_counts(pages, publication) if pages else []
    out = []
    for name in ENTRIES:
        for i, value in enumerate(getattr(rules, name)):
            if pages:
                after = failure_counts(pages, with_rules(publication, rules, without_entry(rules, name, i)))
                if any(a > b for a, b in zip(after, base, strict=True)):
                    continue
            out.append(f"{publication.slug} {rules.version} {name}[{i}] = {value!r}")
    return out
