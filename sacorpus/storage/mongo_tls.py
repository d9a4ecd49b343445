"""Keep pymongo from importing pyOpenSSL and cryptography when the connection asks for no TLS.

Why: ``import pymongo`` imports its pyOpenSSL context whenever pyOpenSSL is installed (it is:
Scrapy needs it), and with it ``cryptography`` and ``service_identity``: about 0.4 s of CPU at every
corpus command, longer than an indexed MongoDB query takes. pymongo uses that context only for TLS
connections (for OCSP checks) and falls back to the standard library's ``ssl`` without it. So a
read-only corpus command whose URI asks for no TLS marks the context as absent before pymongo is
first imported; a URI with TLS (or ``mongodb+srv://``, TLS by default) keeps it. Never called from a
crawl: Twisted's TLS there needs pyOpenSSL itself (which this leaves importable in any case).
"""

from __future__ import annotations

import sys
from urllib.parse import parse_qsl, urlsplit

_CONTEXT = "pymongo.pyopenssl_context"


def asks_for_tls(uri: str) -> bool:
    """Does the connection string ask for TLS (``tls``/``ssl`` true, or an SRV URI)?"""
    parts = urlsplit(uri)
    if parts.scheme == "mongodb+srv":
        return True
    options = {k.lower(): v.lower() for k, v in parse_qsl(parts.query)}
    return any(options.get(name) == "true" for name in ("tls", "ssl"))


def skip_pyopenssl(uri: str) -> bool:
    """Mark pymongo's pyOpenSSL context absent when ``uri`` asks for no TLS and pymongo is not yet
    imported; returns whether it did."""
    if not uri or asks_for_tls(uri) or "pymongo" in sys.modules:
        return False
    sys.modules.setdefault(_CONTEXT, None)  # type: ignore[arg-type]  # None: "import fails"
    return True
