"""Which addresses a crawler that reads other people's pages may connect to.

Why: a page, a redirect, a sitemap entry or a ``Sitemap:`` line in robots.txt is written by whoever
runs the site. Followed blindly, it makes the crawler fetch ``http://127.0.0.1:6800/logs/`` (scrapyd),
a cloud metadata endpoint or a router, and store the answer as an article. Only http(s) URLs whose host
resolves to public addresses are fetched, unless an address is allowed explicitly (the demo, fixture
sites and ``base_url`` mirrors on loopback allow themselves). Pure functions, no Scrapy.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Mapping
from urllib.parse import urlsplit

Resolver = Callable[[str], list[str]]

ALLOWED_SCHEMES = ("http", "https")


def address_problem(address: str) -> str | None:
    """Why ``address`` (an IP literal) is not public, or None when it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    checks = (
        ("loopback", ip.is_loopback),
        ("private", ip.is_private),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("unspecified", ip.is_unspecified),
        ("not global", not ip.is_global),
    )
    for name, hit in checks:
        if hit:
            return name
    return None


def system_resolver(host: str) -> list[str]:
    """Every address the system resolver gives for ``host`` (blocking: call it off the reactor)."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return sorted({str(info[4][0]) for info in infos})


def table_resolver(
    table: Mapping[str, Iterable[str] | str], fallback: Resolver | None = system_resolver
) -> Resolver:
    """A resolver that answers from ``table`` (like /etc/hosts) before ``fallback``; with no fallback, a
    name missing from the table does not resolve (tests: no DNS packet ever leaves the machine)."""
    fixed = {k.lower(): [v] if isinstance(v, str) else list(v) for k, v in table.items()}

    def resolve(host: str) -> list[str]:
        host = host.lower()
        if host in fixed:
            return fixed[host]
        if fallback is None:
            raise OSError(f"{host} is not in the host table")
        return fallback(host)

    return resolve


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


def url_problem(url: str, resolve: Resolver, allowed_netlocs: frozenset[str] = frozenset()) -> str | None:
    """Why ``url`` must not be fetched (scheme, host, a non-public address), or None.

    ``allowed_netlocs`` (``host:port`` as in the URL, lower case) are trusted as they are: the run's
    own mirror or replay server. Every address of the host must be public: one private answer among
    public ones is how DNS rebinding starts.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        return f"scheme {scheme or 'none'!r} is not fetched"
    host = (parts.hostname or "").lower()
    if not host:
        return "no host"
    if parts.netloc.lower() in allowed_netlocs or netloc_key(url) in allowed_netlocs:
        return None
    try:
        addresses = [host] if is_ip_literal(host) else resolve(host)
    except (OSError, UnicodeError) as exc:
        return f"{host} does not resolve ({exc.__class__.__name__})"
    if not addresses:
        return f"{host} does not resolve"
    for address in addresses:
        problem = address_problem(address)
        if problem:
            return f"{host} is a {problem} address ({address})"
    return None


def netloc_key(url: str) -> str:
    """``host:port`` of ``url`` with the scheme's default port made explicit, lower case."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    port = port or (443 if parts.scheme.lower() == "https" else 80)
    return f"{host}:{port}"


__all__ = [
    "ALLOWED_SCHEMES",
    "Resolver",
    "address_problem",
    "is_ip_literal",
    "netloc_key",
    "system_resolver",
    "table_resolver",
    "url_problem",
]
