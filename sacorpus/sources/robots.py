"""robots.txt reading outside a crawl: decoding, rule checks, crawl delay, sitemap discovery.

Scrapy's RobotsTxtMiddleware enforces robots.txt during a crawl; this is the same parser
(Protego, a Scrapy dependency but not Scrapy) for code that plans a crawl or checks a URL without
one - e.g. deciding whether a browser-User-Agent retry would be allowed, or listing sitemaps.
Real robots files come with UTF-8/UTF-16 byte-order marks and junk lines; nothing here raises.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from protego import Protego

from sacorpus.sources.sitemaps import sitemaps_from_robots

MAX_ROBOTS_BYTES = 512 * 1024  # Google reads the first 500 KiB


def decode_robots(body: bytes | str) -> str:
    """Text of a robots.txt body: BOM-aware (UTF-8, UTF-16 LE/BE), else UTF-8 with replacement."""
    if isinstance(body, str):
        return body.lstrip("\ufeff")
    body = body[:MAX_ROBOTS_BYTES]
    if body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return body.decode("utf-16", errors="replace").lstrip("\ufeff")
    return body.decode("utf-8", errors="replace").lstrip("\ufeff")


@dataclass
class Robots:
    text: str
    _parser: Protego | None = None

    @classmethod
    def parse(cls, body: bytes | str) -> Robots:
        text = decode_robots(body)
        try:
            parser = Protego.parse(text)
        except Exception:  # an unparsable robots.txt allows everything (RFC 9309 2.3.1.3)
            parser = None
        return cls(text, parser)

    def allowed(self, url: str, user_agents: Iterable[str]) -> bool:
        """True when every one of ``user_agents`` may fetch ``url``."""
        if self._parser is None:
            return True
        return all(self._parser.can_fetch(url, ua) for ua in user_agents)

    def crawl_delay(self, user_agent: str) -> float | None:
        if self._parser is None:
            return None
        delay = self._parser.crawl_delay(user_agent)
        return float(delay) if delay is not None else None

    def sitemaps(self, base_url: str) -> list[str]:
        return sitemaps_from_robots(self.text, base_url)
