"""Which publication a URL belongs to when several share a host (IOL and its titles' sections)."""

from __future__ import annotations

from sacorpus.publications import load_all
from sacorpus.sources.urls import owner_of

PUBS = load_all()


def test_a_shared_host_goes_to_the_publication_whose_rules_allow_the_path() -> None:
    uid = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    owner = lambda url: (owner_of(url, PUBS.values()) or PUBS["demo"]).slug  # noqa: E731
    assert owner(f"https://www.iol.co.za/capetimes/news/a-story-{uid}") == "capetimes"
    assert owner(f"https://www.iol.co.za/the-star/news/a-story-{uid}") == "thestar"
    assert owner(f"https://www.iol.co.za/news/south-africa/a-story-{uid}") == "iol"
    assert owner("https://mg.co.za/news/2026-11-03-a-story/") == "mg"
    assert owner_of("https://unknown.example/news/a-story/", PUBS.values()) is None
