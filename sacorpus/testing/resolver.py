"""A DNS resolver for tests: every name is 127.0.0.1, and no DNS query ever leaves the machine.

Why: tests of the address guard give hostile names fake private or link-local addresses (through
``SACORPUS_HOSTS``), which is what the guard checks. If the guard let such a request through, Scrapy
would resolve the name for real and send a packet to a resolver and then to an internal address. With
``DNS_RESOLVER = "sacorpus.testing.resolver.LoopbackResolver"`` it connects to 127.0.0.1 on the URL's
port instead, where the test runs a server that records the hit: a failing guard is a recorded request,
never traffic leaving the machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scrapy.resolver import CachingThreadedResolver
from twisted.internet import defer
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer


@implementer(IResolverSimple)
class LoopbackResolver(CachingThreadedResolver):
    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Any:
        return defer.succeed("127.0.0.1")


__all__ = ["LoopbackResolver"]
