"""Which addresses the crawler may connect to: the pure checks behind the address guard."""

from __future__ import annotations

import pytest

from sacorpus.sources.addresses import address_problem, netloc_key, table_resolver, url_problem

HOSTS = table_resolver(
    {
        "news.example": "93.184.216.34",
        "intranet.news.example": "10.20.30.40",
        "meta.news.example": "169.254.169.254",
        "rebind.news.example": ["93.184.216.34", "192.168.1.5"],
        "v6.news.example": "::ffff:10.0.0.1",
    },
    fallback=None,
)


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.3.4.5", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.9", "private"),
        ("192.168.0.1", "private"),
        ("169.254.169.254", "private"),
        ("fe80::1", "private"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "private"),
        ("::ffff:192.168.1.1", "private"),
        ("100.64.0.1", "not global"),
    ],
)
def test_internal_addresses_are_refused(address: str, kind: str) -> None:
    problem = address_problem(address)
    assert problem is not None
    assert problem == kind or kind == "private"  # the first matching class is named


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert address_problem(address) is None


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("file:///etc/passwd", "scheme 'file'"),
        ("ftp://news.example/feed.xml", "scheme 'ftp'"),
        ("gopher://news.example/", "scheme 'gopher'"),
        ("http://intranet.news.example/admin", "private address (10.20.30.40)"),
        ("http://meta.news.example/latest/meta-data", "169.254.169.254"),
        ("http://rebind.news.example/", "192.168.1.5"),
        ("http://v6.news.example/", "::ffff:10.0.0.1"),
        ("http://127.0.0.1:6800/logs/", "loopback"),
        ("http://[::1]:6800/", "loopback"),
        ("http://unknown.news.example/", "does not resolve"),
    ],
)
def test_url_problems(url: str, fragment: str) -> None:
    problem = url_problem(url, HOSTS)
    assert problem is not None and fragment in problem


def test_public_host_and_explicitly_allowed_netloc_pass() -> None:
    assert url_problem("https://news.example/a/story-1", HOSTS) is None
    mirror = "http://127.0.0.1:8931/feed.xml"
    assert url_problem(mirror, HOSTS) is not None
    assert url_problem(mirror, HOSTS, frozenset({netloc_key(mirror)})) is None
    # only that port: another loopback port is still refused
    assert url_problem("http://127.0.0.1:6800/", HOSTS, frozenset({netloc_key(mirror)})) is not None


def test_netloc_key_makes_default_ports_explicit() -> None:
    assert netloc_key("http://News.Example/x") == "news.example:80"
    assert netloc_key("https://news.example/x") == "news.example:443"
    assert netloc_key("http://[::1]:81/") == "[::1]:81"
