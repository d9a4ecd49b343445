"""docs/publications.md is the schema's, and the schema is the validation's: neither can drift.

Also: source URLs and the homepage without a scheme or a host are load errors naming file and key.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from sacorpus import publication_reader
from sacorpus.publication_schema import DOC, KEYS, example_toml, markdown
from sacorpus.publications import PublicationError, load_all, parse_publication

MINIMAL = """
name = "Test Times"
home = "https://www.test.co.za/"
domains = ["test.co.za"]
languages = ["en"]
[sources]
feeds = ["https://www.test.co.za/feed/"]
"""


def test_docs_are_generated_from_the_schema() -> None:
    assert DOC.is_file(), "docs/publications.md missing: python -m sacorpus.publication_schema --write"
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "docs/publications.md is out of date: python -m sacorpus.publication_schema --write"
    )


def test_a_file_with_every_documented_key_validates() -> None:
    pub = parse_publication("every_key", example_toml(), "every_key.toml")
    assert pub.render is not None and pub.sources.wayback is not None and pub.rules[0].filters


def _table(prefix: str) -> str:
    """``rules[0].`` -> ``rules``; ``sources.wayback.`` -> ``sources.wayback``."""
    return re.sub(r"\[\d+\]", "", prefix).rstrip(".")


def test_every_key_the_validation_reads_is_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key read while loading the example and every shipped file has a row in the reference."""
    read: set[tuple[str, str]] = set()
    original = publication_reader.TomlReader.get

    def recording(self: Any, key: str, *args: Any, **kwargs: Any) -> Any:
        read.add((_table(self.prefix), key))
        return original(self, key, *args, **kwargs)

    monkeypatch.setattr(publication_reader.TomlReader, "get", recording)
    parse_publication("every_key", example_toml())
    load_all()
    documented = {(k.table, k.name) for k in KEYS}
    tables = {k.table for k in KEYS}  # a table is documented by its section
    documented |= {(t.rpartition(".")[0], t.rpartition(".")[2]) for t in tables if t}
    nested = {t for t, _ in read if t.startswith("rules.filters")}  # {tag, attribute, value} in a row
    missing = {(t, k) for t, k in read if t not in nested} - documented
    assert not missing, f"keys read but not in sacorpus/publication_schema.py: {sorted(missing)}"
    assert {k for t, k in read if t in nested} == {"tag", "attribute", "value"}


def test_every_key_row_is_complete() -> None:
    for key in KEYS:
        assert key.type and key.default and key.meaning.endswith(".") and key.example, key


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('feeds = ["https://www.test.co.za/feed/"]', 'feeds = ["example.com/feed"]', "sources.feeds[0]"),
        ('feeds = ["https://www.test.co.za/feed/"]', 'feeds = ["https:///feed"]', "sources.feeds[0]"),
        (
            'feeds = ["https://www.test.co.za/feed/"]',
            'start_urls = ["www.test.co.za/news/"]',
            "sources.start_urls[0]",
        ),
        ('home = "https://www.test.co.za/"', 'home = "https:///"', "home"),
        ('home = "https://www.test.co.za/"', 'home = "www.test.co.za"', "home"),
    ],
)
def test_urls_without_scheme_or_host_are_rejected(old: str, new: str, key: str) -> None:
    assert old in MINIMAL
    with pytest.raises(PublicationError) as err:
        parse_publication("test", MINIMAL.replace(old, new), "publications/test.toml")
    assert str(err.value).startswith(f"publications/test.toml: key '{key}': must be an absolute http(s) URL")


def test_wayback_homepage_without_host_is_rejected() -> None:
    text = MINIMAL + '[sources.wayback]\nhomepage = "https:///"\n'
    with pytest.raises(PublicationError, match=re.escape("key 'sources.wayback.homepage'")):
        parse_publication("test", text, "publications/test.toml")
