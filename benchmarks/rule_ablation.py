"""Does every publication rule earn its place? Each rule entry removed in turn, on the fixture pages.

For each publication and each of its rule versions, the fixture pages whose capture date selects that
version (``tests/sites/<slug>/expected.json``: the crawled ``articles`` get today's rules, each
``layouts`` page carries the capture date of its layout) go through the crawl's page core
(``process_page`` on the page bytes, rules chosen by capture date, as in a crawl). Then every entry
(each title strip, selector, filter, static text, prune XPath, body selector) is removed in turn: an
entry is *proven* when its removal makes an expectation fail (title, authors, date, an ``absent``
furniture string kept, a ``present`` story string lost). A version is proven when removing the whole
version makes one fail. Versions with no fixture page are listed. ``scrapy evaluate`` asks the same
question on real pages (per publication, with and without rules, in one run).

    python benchmarks/rule_ablation.py [--unproven]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publications"))
from rule_fixtures import ENTRIES, failure_counts, unproven_entries, version_pages, without_version

from sacorpus.publications import Publication, RuleSet, load_all


def ablate(pub: Publication, rules: RuleSet, unproven: bool) -> tuple[int, int, bool | None]:
    """(entries, entries proven, version proven or None without a fixture page) for one version."""
    entries = sum(len(getattr(rules, name)) for name in ENTRIES)
    pages = version_pages(pub, rules)
    if not pages:
        print(f"{pub.slug:<16} {rules.version:<10} {entries:>3} entries, no fixture page of this layout")
        return entries, 0, None
    base = failure_counts(pages, pub)
    after = failure_counts(pages, without_version(pub, rules))
    version_ok = any(a > b for a, b in zip(after, base, strict=True))
    missing = unproven_entries(pub, rules)
    if unproven:
        for line in missing:
            print(f"  unproven: {line}")
    broken = f", {sum(1 for b in base if b)} page(s) failing WITH the rules" if any(base) else ""
    print(
        f"{pub.slug:<16} {rules.version:<10} {entries:>3} entries, {entries - len(missing)} proven by a fixture; "
        f"version {'proven' if version_ok else 'NOT proven'} on {len(pages)} page(s){broken}"
    )
    return entries, entries - len(missing), version_ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unproven", action="store_true", help="list every unproven entry")
    args = parser.parse_args(argv)
    total = proven = unfixtured = versions = versions_ok = 0
    for _slug, pub in sorted(load_all().items()):
        for rules in pub.rules:
            n, ok, version_ok = ablate(pub, rules, args.unproven)
            total, proven, versions = total + n, proven + ok, versions + 1
            unfixtured += n if version_ok is None else 0
            versions_ok += bool(version_ok)
    print(
        f"{total} rule entries: {proven} proven, {total - proven - unfixtured} unproven on fixtures, "
        f"{unfixtured} in versions without a fixture page; {versions_ok} of {versions} rule versions proven"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
