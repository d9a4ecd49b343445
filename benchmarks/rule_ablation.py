"""Does every publication rule earn its place? Each rule entry removed in turn, on the fixture pages.

For each publication with a fixture site (``tests/sites/<slug>/expected.json``) and each of its rule
versions, every entry (each title strip, selector, filter, static text, prune XPath, body selector) is
removed in turn and the fixture pages are extracted again: an entry is *proven* when its removal makes an
expectation of ``expected.json`` fail (title, authors, date, an ``absent`` string). Versions with no
fixture page of their layout are listed. ``scrapy evaluate`` shows the same question on real pages
(per publication, with and without rules, in one run).

    python benchmarks/rule_ablation.py [--unproven]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from sacorpus.publications import Publication, RuleSet, load_all
from sacorpus.text.extract import Extracted, extract_article

SITES = Path(__file__).resolve().parents[1] / "tests" / "sites"
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
)


def fixture_pages(slug: str, publication: Publication) -> list[tuple[str, str, dict]]:
    expected = json.loads((SITES / slug / "expected.json").read_text(encoding="utf-8"))
    pages = []
    for path, want in expected.get("articles", expected).items():
        if not isinstance(want, dict):
            continue
        file = SITES / slug / path.strip("/") / "index.html"
        if not file.is_file():
            continue
        html = file.read_text(encoding="utf-8").replace("{base}", publication.home.rstrip("/"))
        pages.append((publication.home.rstrip("/") + path, html, want))
    return pages


def failures(ex: Extracted, want: dict) -> int:
    bad = 0
    bad += "title_clean" in want and ex.title_clean != want["title_clean"]
    bad += "authors" in want and ex.authors != want["authors"]
    bad += bool(want.get("published")) and (ex.published_at or "")[:10] != want["published"][:10]
    bad += sum(1 for text in want.get("absent", []) if text in ex.text)
    return bad


def without(rules: RuleSet, name: str, index: int) -> RuleSet:
    return replace(rules, **{name: tuple(v for i, v in enumerate(getattr(rules, name)) if i != index)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unproven", action="store_true", help="list every unproven entry")
    args = parser.parse_args(argv)
    total = proven = unfixtured = 0
    for slug, pub in sorted(load_all().items()):
        if not (SITES / slug / "expected.json").is_file():
            continue
        pages = fixture_pages(slug, pub)
        for rules in pub.rules:
            entries = [(name, i) for name in ENTRIES for i in range(len(getattr(rules, name)))]
            total += len(entries)
            if rules.valid_until is not None:  # the fixture sites show today's layouts only
                unfixtured += len(entries)
                print(
                    f"{slug:<16} {rules.version:<10} {len(entries):>3} entries, no fixture page of this layout"
                )
                continue
            base = [
                failures(extract_article(html, url, rules, site_name=pub.name), want)
                for url, html, want in pages
            ]
            ok = []
            for name, i in entries:
                after = [
                    failures(extract_article(html, url, without(rules, name, i), site_name=pub.name), want)
                    for url, html, want in pages
                ]
                if any(a > b for a, b in zip(after, base, strict=True)):
                    ok.append((name, i))
                elif args.unproven:
                    print(f"  unproven: {slug} {rules.version} {name}[{i}] = {getattr(rules, name)[i]!r}")
            proven += len(ok)
            print(f"{slug:<16} {rules.version:<10} {len(entries):>3} entries, {len(ok)} proven by a fixture")
    print(
        f"{total} rule entries: {proven} proven, {total - proven - unfixtured} unproven on fixtures, "
        f"{unfixtured} in versions without a fixture page"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
