"""Every rule entry of every publication is proven by a fixture page that fails without it.

``test_rules_proven.py`` proves every rule *version*; this test holds every *entry* (one title strip,
one selector, one filter, one static text) to the same standard, registry-wide: an entry whose removal
changes no expectation of its version's fixture pages (title, authors, date, furniture kept out, story
kept in) fails here. Such an entry either does what the generic page core already does (a
``meta[property="article:published_time"]`` date selector, a byline class the byline reader finds, a
related-links box pre-clean removes) and goes, or it needs a fixture page of the markup it targets
(fixture_specs.py, fixture_variants.py). ``python benchmarks/rule_ablation.py --unproven`` prints the
same lines.
"""

from __future__ import annotations

import pytest
from rule_fixtures import unproven_entries

from sacorpus.publications import load_all

PUBS = load_all()
VERSIONS = [(slug, rules.version) for slug, pub in sorted(PUBS.items()) for rules in pub.rules]


@pytest.mark.parametrize(("slug", "version"), VERSIONS)
def test_every_rule_entry_has_a_fixture_page_that_fails_without_it(slug: str, version: str) -> None:
    pub = PUBS[slug]
    rules = next(r for r in pub.rules if r.version == version)
    unproven = unproven_entries(pub, rules)
    assert not unproven, (
        "rule entries no fixture page proves (write the fixture page of the markup they target, or remove "
        "the entry when the page core already gets the field):\n" + "\n".join(unproven)
    )
