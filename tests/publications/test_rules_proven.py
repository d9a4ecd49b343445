"""Every rule version of every publication in the registry is proven by a fixture page of its layout.

For each ``[[rules]]`` version: (a) ``tests/sites/<slug>/expected.json`` lists a layout page for it
whose capture date selects it (the crawl picks dated rules by the Wayback capture date); (b) with the
publication's rules, the page core gets every expectation right (title, authors, date, furniture
``absent``, story text ``present``) and distrusts no rule; (c) with that version removed (the page
falls to another version, or to no rules) at least one expectation fails. A publication or version
added without such a fixture fails here. The pages go through the crawl's own page core
(``process_page``) on their bytes; no crawl is needed. Fixtures: fixture_specs.py, built by
build_fixture_sites.py.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from rule_fixtures import chosen, extract, failures, fixture_pages, without_version

from sacorpus.publications import load_all
from sacorpus.text.analysis import language_fields
from sacorpus.text.preclean import strip_static_text

PUBS = load_all()
VERSIONS = [(slug, rules.version) for slug, pub in sorted(PUBS.items()) for rules in pub.rules]


def _rules(slug: str, version: str):
    return next(r for r in PUBS[slug].rules if r.version == version)


@pytest.mark.parametrize(("slug", "version"), VERSIONS)
def test_rule_version_has_a_fixture_that_fails_without_it(slug: str, version: str) -> None:
    pub = PUBS[slug]
    rules = _rules(slug, version)
    pages = [p for p in fixture_pages(pub) if p.want.get("version") == version]
    assert pages, (
        f"{slug} rules version {version!r} has no fixture page of its layout: add one to "
        "tests/publications/fixture_specs.py and run tests/publications/build_fixture_sites.py"
    )
    for page in pages:
        assert chosen(pub, page) is rules, (
            f"{slug}{page.path}: captured {page.captured} selects version "
            f"{chosen(pub, page).version!r}, not {version!r}"
        )
        html = unescape(page.body.decode("utf-8"))
        for text in (*page.want.get("absent", []), *page.want.get("present", [])):
            assert text in html, f"{slug}{page.path}: {text!r} is not in the page, so it proves nothing"
        ex = extract(page, pub)
        assert not failures(ex, page.want), f"{slug}{page.path} with its rules: {failures(ex, page.want)}"
        assert not [p for p in ex.problems if p.startswith("rules-distrusted")], (
            slug,
            page.path,
            ex.problems,
        )
        if page.want.get("language"):
            assert language_fields(ex.text)["language"] == page.want["language"], (slug, page.path)
    without = without_version(pub, rules)
    assert any(failures(extract(page, without), page.want) for page in pages), (
        f"{slug} rules version {version!r}: its fixture pages come out the same without it; "
        "the version does nothing on its own layout"
    )


def test_every_fixture_page_names_a_version_of_its_publication() -> None:
    """A layout page that names a version the toml no longer has is a stale fixture."""
    stale = [
        (slug, page.path, page.want["version"])
        for slug, pub in PUBS.items()
        for page in fixture_pages(pub)
        if "version" in page.want and page.want["version"] not in {r.version for r in pub.rules}
    ]
    assert not stale, stale


STATIC_TEXTS = [
    (slug, r.version, t) for slug, pub in sorted(PUBS.items()) for r in pub.rules for t in r.strip_text
]


def _literal(pattern: str) -> str:
    """The words a static-text entry names ("^Gallery$" -> "Gallery")."""
    text = pattern.removeprefix("^")
    text = text.removesuffix(".*$") if text.endswith(".*$") else text.removesuffix("$")
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.parametrize(("slug", "version", "pattern"), STATIC_TEXTS)
def test_static_text_drops_furniture_lines_never_words_of_a_story_sentence(
    slug: str, version: str, pattern: str
) -> None:
    """``strip_text`` removes the furniture line it names; a story sentence that mentions the same words
    ("the National Gallery", "subscribe to") keeps them (an unanchored "Gallery" used to cut them out)."""
    words = _literal(pattern)
    assert strip_static_text(words, [pattern]) == "", f"{slug} {version}: {pattern!r} misses its own line"
    sentence = f"Readers wrote that {words} was not what they expected."
    assert strip_static_text(sentence, [pattern]) == sentence, (
        f"{slug} {version}: {pattern!r} edits a sentence"
    )
