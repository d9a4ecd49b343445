"""URL canonicalisation and the per-publication URL policy."""

from __future__ import annotations

import pytest

from sacorpus.publications import Publication, UrlRules
from sacorpus.sources.urls import UrlPolicy, canonicalize


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("HTTPS://WWW.Example.CO.ZA:443/news/a-1?utm_source=tw&utm_medium=social#comments",
         "https://www.example.co.za/news/a-1"),
        ("http://www.example.co.za:80/news/a-1?b=2&a=1&fbclid=XYZ", "http://www.example.co.za/news/a-1?a=1&b=2"),
        ("https://www.example.co.za/news/a-1/amp/", "https://www.example.co.za/news/a-1/"),
        ("https://www.example.co.za/news/a-1/amp", "https://www.example.co.za/news/a-1"),
        ("https://www.example.co.za/amp/news/a-1", "https://www.example.co.za/news/a-1"),
        ("https://www.example.co.za/news/a-1.amp.html", "https://www.example.co.za/news/a-1"),
        ("https://www.example.co.za/news/a-1?amp=1", "https://www.example.co.za/news/a-1"),
        ("https://m.example.co.za/news/a-1", "https://www.example.co.za/news/a-1"),
        ("https://amp.example.co.za/news/a-1", "https://www.example.co.za/news/a-1"),
        ("https://www-example-co-za.cdn.ampproject.org/c/s/www.example.co.za/news/a-1/amp/",
         "https://www.example.co.za/news/a-1/"),
        ("https://www.example.co.za//news//a-%7e1", "https://www.example.co.za/news/a-~1"),
        ("https://www.example.co.za/news/a-1?id=5&page=2", "https://www.example.co.za/news/a-1?id=5&page=2"),
        ("mailto:desk@example.co.za", "mailto:desk@example.co.za"),
        ("  not a url ", "not a url"),
    ],
)  # fmt: skip
def test_canonicalize(url, expected):
    assert canonicalize(url) == expected


def test_canonicalize_keep_params():
    assert canonicalize("https://x.org/a?ref=5&utm_source=y", keep_params={"ref"}) == "https://x.org/a?ref=5"


def test_canonicalize_never_raises():
    for url in ("http://[::1", "http://x.org:99999/", "", "http://", "\x00"):
        assert isinstance(canonicalize(url), str)


PUB = Publication(
    slug="example",
    name="Example",
    home="https://www.example.co.za/",
    domains=("example.co.za",),
    languages=("en",),
    mirrors=("example-news.com",),
    urls=UrlRules(
        deny=("/video/", "/gallery/", "/pictures/"),
        article=(r"-\d{6,}$",),
        id_pattern=r"-(?P<id>\d{6,})/?$",
    ),
)


def test_policy_scope_and_deny():
    policy = UrlPolicy.from_publication(PUB)
    assert policy.allowed("https://www.example.co.za/news/a-123456")
    assert policy.allowed("https://sport.example.co.za/rugby/b-123456")
    assert policy.allowed("https://example-news.com/news/a-123456")  # mirror
    assert not policy.allowed("https://notexample.co.za/news/a-123456")
    assert not policy.allowed("https://www.example.co.za/video/a-123456")
    assert not policy.allowed("https://www.example.co.za/gallery/a-123456?utm_source=x")
    assert not policy.allowed("https://www.example.co.za/images/photo.JPG")
    assert not policy.allowed("mailto:desk@example.co.za")
    assert policy.is_article("https://www.example.co.za/news/a-123456?utm_source=x")
    assert not policy.is_article("https://www.example.co.za/news/")


def test_policy_allow_list():
    pub = Publication("p", "P", "https://p.org/", ("p.org",), ("en",), urls=UrlRules(allow=("^/news/",)))
    policy = UrlPolicy.from_publication(pub)
    assert policy.allowed("https://p.org/news/x") and not policy.allowed("https://p.org/shop/x")


def test_policy_canonical_maps_mirror_and_mobile_hosts_to_home():
    policy = UrlPolicy.from_publication(PUB)
    assert policy.is_mirror("https://example-news.com/x") and not policy.is_mirror("https://example.co.za/x")
    assert policy.canonical("https://example-news.com/news/a-123456?utm_source=x") == (
        "https://www.example.co.za/news/a-123456"
    )
    assert (
        policy.canonical("https://m.example.co.za/news/a-123456") == "https://www.example.co.za/news/a-123456"
    )
    assert (
        policy.canonical("https://example.co.za/news/a-123456") == "https://www.example.co.za/news/a-123456"
    )
    assert policy.canonical("https://sport.example.co.za/x") == "https://sport.example.co.za/x"


def test_slug_key_same_slug_changed_id():
    policy = UrlPolicy.from_publication(PUB)
    old = "https://www.example.co.za/news/zuma-says-1234567"
    new = "https://m.example.co.za/news/zuma-says-7654321/?utm_source=fb"
    assert policy.slug_key(old) == policy.slug_key(new) == "/news/zuma-says"
    assert policy.slug_key("https://www.example.co.za/news/other-says-1234567") != policy.slug_key(old)
    assert policy.slug_key("https://www.example.co.za/news/") is None
