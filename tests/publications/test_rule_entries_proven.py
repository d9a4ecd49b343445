"""No new rule entry without a fixture page that fails without it; the known unproven ones only shrink.

``test_rules_proven.py`` proves every rule *version*; this test holds every *entry* (one title strip,
one selector, one filter) to the same standard. Entries that no fixture proved when the check was
introduced are listed in ``unproven_rule_entries.txt``: an entry missing from that list and proven by
no fixture fails here (write the fixture spec that needs it, or remove the entry), and so does a listed
entry that is now proven or gone (take it off the list). ``python benchmarks/rule_ablation.py
--unproven`` prints the same lines.
"""

from __future__ import annotations

from pathlib import Path

from rule_fixtures import unproven_entries

from sacorpus.publications import load_all

KNOWN = Path(__file__).with_name("unproven_rule_entries.txt")


def _listed() -> set[str]:
    lines = KNOWN.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line.strip() and not line.startswith("#")}


def test_every_rule_entry_is_proven_or_on_the_shrinking_list() -> None:
    found = {
        line for pub in load_all().values() for rules in pub.rules for line in unproven_entries(pub, rules)
    }
    new = sorted(found - _listed())
    stale = sorted(_listed() - found)
    assert not new, (
        "rule entries no fixture page proves (write the fixture or remove the entry):\n" + "\n".join(new)
    )
    assert not stale, f"proven or removed: take these off {KNOWN.name}:\n" + "\n".join(stale)
