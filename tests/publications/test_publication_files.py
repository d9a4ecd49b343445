"""Every shipped publication file validates, and malformed files fail naming the file and the key."""

from __future__ import annotations

from datetime import date

import pytest

from sacorpus.publications import (
    PublicationError,
    PublicationRegistry,
    load_all,
    parse_publication,
    publication_slugs,
)
from sacorpus.text.rules import choose_layout

REQUIRED = {
    "iol",
    "mg",
    "news24",
    "dailymaverick",
    "timeslive",
    "citizen",
    "sowetanlive",
    "dispatchlive",
    "businesslive",
    "grocotts",
    "sabc",
    "thenewage",
    "demo",
}

VALID = """
name = "Test Times"
home = "https://www.test.co.za/"
domains = ["test.co.za"]
languages = ["en"]
[sources]
feeds = ["https://www.test.co.za/feed/"]
"""


def test_every_shipped_publication_validates() -> None:
    pubs = load_all()
    assert set(pubs) >= REQUIRED, f"missing: {sorted(REQUIRED - set(pubs))}"
    assert set(pubs) == set(publication_slugs())


def test_at_least_twelve_south_african_publications() -> None:
    za = [p for p in load_all().values() if p.country == "ZA" and p.slug != "demo"]
    assert len(za) >= 12


@pytest.mark.parametrize("slug", sorted(set(publication_slugs())))
def test_publication_has_sources_on_its_domains(slug: str) -> None:
    """(Title strips and author selectors are no longer required of every file: site names are stripped
    and bylines found on any site, and test_rules_proven.py checks every layout's title and authors
    through the page core, so an entry is there only where a layout needs it.)"""
    pub = load_all()[slug]
    src = pub.sources
    assert src.feeds or src.sitemaps or src.news_sitemaps or src.start_urls or src.wayback
    for url in (*src.feeds, *src.sitemaps, *src.news_sitemaps, *src.start_urls):
        from urllib.parse import urlsplit

        assert pub.owns(urlsplit(url).hostname or ""), f"{slug}: source {url} is outside its domains"


def test_thenewage_is_wayback_only() -> None:
    pub = load_all()["thenewage"]
    assert pub.sources.wayback is not None
    assert not (pub.sources.feeds or pub.sources.sitemaps or pub.sources.news_sitemaps or pub.sources.robots)
    assert pub.sources.wayback.end is not None and pub.sources.wayback.end.year == 2018


def test_languages_cover_zulu_and_afrikaans() -> None:
    langs = {lang for p in load_all().values() for lang in p.languages}
    assert {"en", "zu", "af"} <= langs


def test_valid_minimal_text_parses() -> None:
    pub = parse_publication("test", VALID)
    assert pub.sources.feeds == ("https://www.test.co.za/feed/",)


BROKEN = [
    ("unknown top-level key", VALID + 'colour = "blue"\n', "colour"),
    ("typo in sources", VALID.replace("feeds =", "feedz ="), "feedz"),
    ("bad regex in deny", VALID + "[urls]\ndeny = ['(unclosed']\n", "urls.deny[0]"),
    ("bad regex in title_strip", VALID + "[[rules]]\ntitle_strip = ['[x']\n", "title_strip[0]"),
    ("missing name", VALID.replace('name = "Test Times"\n', ""), "name"),
    ("wrong type", VALID.replace('languages = ["en"]', 'languages = "en"'), "languages"),
    ("bad date", VALID + '[[rules]]\nvalid_until = "2019-13-45"\n', "valid_until"),
    ("id_pattern without id group", VALID + "[urls]\nid_pattern = '-(\\d+)$'\n", "id_pattern"),
    ("no sources", VALID.split("[sources]")[0], "sources"),
    ("bad filter key", VALID + '[[rules]]\nfilters = [{ tag = "div", attr = "class" }]\n', "filters[0]"),
    (
        "layout class not a class name",
        VALID + "[[rules]]\nlayout_classes = ['div.story']\n",
        "layout_classes[0]",
    ),
    ("home not a URL", VALID.replace('https://www.test.co.za/"', 'www.test.co.za"'), "home"),
]


@pytest.mark.parametrize(("case", "text", "key"), BROKEN, ids=[b[0] for b in BROKEN])
def test_malformed_file_fails_naming_file_and_key(case: str, text: str, key: str) -> None:
    with pytest.raises(PublicationError) as info:
        parse_publication("broken", text, "publications/broken.toml")
    message = str(info.value)
    assert "publications/broken.toml" in message, message
    assert key in message, message


def test_rules_for_picks_the_dated_rule_set() -> None:
    text = (
        VALID
        + """
[[rules]]
version = "old"
valid_until = "2014-12-31"
title_strip = [' - Old$']
[[rules]]
version = "mid"
valid_until = "2019-06-30"
[[rules]]
version = "current"
"""
    )
    pub = parse_publication("test", text)
    assert pub.rules_for(date(2012, 5, 1)).version == "old"
    assert pub.rules_for(date(2014, 12, 31)).version == "old"
    assert pub.rules_for(date(2015, 1, 1)).version == "mid"
    assert pub.rules_for(date(2022, 1, 1)).version == "current"
    assert pub.rules_for(None).version == "current"


def test_a_page_of_an_older_layout_gets_that_layout_whatever_its_date() -> None:
    """The capture date picks the version unless the page's markup carries another version's layout
    classes: an old template still served today, or a date range drawn too short."""
    text = VALID + (
        '[[rules]]\nversion = "old"\nvalid_until = "2014-12-31"\nlayout_classes = ["story-widget"]\n'
        '[[rules]]\nversion = "new"\nlayout_classes = ["b-body"]\n'
    )
    pub = parse_publication("test", text)
    old = "<div class=story-widget><p>x</p></div>"
    new = '<article class="c-stack b-body"><p>x</p></article>'
    assert choose_layout(pub, None, old).version == "old"
    assert choose_layout(pub, date(2012, 1, 1), new).version == "new"
    assert choose_layout(pub, date(2012, 1, 1), old + new).version == "old"  # the date's layout is there
    assert choose_layout(pub, date(2012, 1, 1), "<p>neither</p>").version == "old"
    assert choose_layout(pub, None, '<div class="story-widget-x b-body-y">').version == "new"  # whole names


def test_shipped_dated_rules_resolve() -> None:
    iol = load_all()["iol"]
    assert iol.rules_for(date(2015, 3, 1)).valid_until is not None
    assert iol.rules_for(date(2025, 3, 1)).valid_until is None


def test_the_registry_reads_the_directory_the_settings_name(tmp_path, monkeypatch) -> None:
    """A crawl's ``-s SACORPUS_PUBLICATIONS_DIR=...`` reaches the stages that look rules up by slug."""
    monkeypatch.delenv("SACORPUS_PUBLICATIONS_DIR", raising=False)
    (tmp_path / "testtimes.toml").write_text(VALID)
    assert PublicationRegistry().get("testtimes") is None  # not shipped, no directory given
    found = PublicationRegistry.from_settings({"SACORPUS_PUBLICATIONS_DIR": str(tmp_path)}).get("testtimes")
    assert found is not None and found.name == "Test Times"
    assert PublicationRegistry.from_settings({}).get("iol") is not None  # the shipped files still
