"""Fixture publications whose feeds gain items at different rates on a (sped-up) clock.

One loopback SiteServer serves every publication under its own path prefix (``/<slug>/feed.xml`` and
``/<slug>/article-<n>``); a publication's item ``n`` appears at ``n * period`` clock seconds after the
clock's origin (items 0-2 exist from the start; a period of 0 means no new items ever). The server
records every feed request with the clock time and the items it listed, so a test can tell what was
polled when and which items a feed showed before they scrolled off.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from sacorpus.demo.server import SiteServer
from sacorpus.sources import pollstate
from sacorpus.sources.clock import Clock

FEED_SIZE = 20  # items a feed lists, newest first
INITIAL = 3  # items present at the origin
WORDS = [
    "council",
    "water",
    "budget",
    "residents",
    "clinic",
    "school",
    "teachers",
    "taxi",
    "road",
    "rain",
    "farmers",
    "harvest",
    "market",
    "trade",
    "union",
    "wages",
    "court",
    "judge",
    "hearing",
    "minister",
    "province",
    "municipality",
    "drought",
    "electricity",
    "tariff",
]


@dataclass
class Pace:
    slug: str
    period: float  # clock seconds between new items; 0: none after the initial ones


@dataclass
class FeedPoll:
    slug: str
    at: float  # clock seconds after the origin
    items: tuple[int, ...]


@dataclass
class PacedSites:
    clock: Clock
    paces: list[Pace]
    polls: list[FeedPoll] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: SiteServer | None = None

    def host(self, slug: str) -> str:
        return f"{slug}.paced.invalid"

    def elapsed(self) -> float:
        assert self.clock.origin is not None
        return self.clock.timestamp() - self.clock.origin

    def published(self, pace: Pace, until: float) -> list[int]:
        """Items of ``pace`` that exist at ``until`` clock seconds after the origin."""
        later = int(until // pace.period) if pace.period else 0
        return list(range(INITIAL + max(later, 0)))

    def feed_url(self, slug: str) -> str:
        return f"http://{self.host(slug)}/{slug}/feed.xml"

    def prior_state(self, pace: Pace, minutes: int = 30) -> dict[str, Any]:
        """The poll state a feed has after being polled every minute for ``minutes`` before the
        origin at its own rate (as a corpus crawled before the scheduler started would hold)."""
        assert self.clock.origin is not None
        origin = datetime.fromtimestamp(self.clock.origin, UTC)
        state = pollstate.new_state()
        for t in range(-60 * minutes, 0, 60):
            count = int((t + 60 * minutes) // pace.period) + 1 if pace.period else 1
            guids = [f"before-{j}" for j in range(count)][-FEED_SIZE:]
            pollstate.record_poll(state, guids, now=origin + timedelta(seconds=t))
        return state

    def article_url(self, slug: str, n: int) -> str:
        return f"http://{self.host(slug)}/{slug}/article-{n}"

    def write_publications(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        for pace in self.paces:
            host = self.host(pace.slug)
            (directory / f"{pace.slug}.toml").write_text(
                f'name = "Paced {pace.slug}"\nhome = "http://{host}/"\ndomains = ["{host}"]\n'
                'languages = ["en"]\n\n[sources]\n'
                f'feeds = ["http://{host}/{pace.slug}/feed.xml"]\n\n'
                f"[urls]\narticle = ['/{pace.slug}/article-\\d+$']\n",
                encoding="utf-8",
            )

    def start(self) -> SiteServer:
        server = SiteServer({})
        for pace in self.paces:
            server.add_route(f"/{pace.slug}/", self._answer_for(pace))
        self.server = server.start()
        return server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    def _answer_for(self, pace: Pace):  # type: ignore[no-untyped-def]
        def answer(path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
            now = self.elapsed()
            items = self.published(pace, now)
            if path == f"/{pace.slug}/feed.xml":
                shown = items[-FEED_SIZE:][::-1]
                with self.lock:
                    self.polls.append(FeedPoll(pace.slug, now, tuple(shown)))
                return 200, {"Content-Type": "application/rss+xml"}, self._feed(pace, shown)
            prefix = f"/{pace.slug}/article-"
            if path.startswith(prefix) and path[len(prefix) :].isdigit():
                n = int(path[len(prefix) :])
                if n in items:
                    return 200, {"Content-Type": "text/html; charset=utf-8"}, self._article(pace, n)
            return None

        return answer

    def _feed(self, pace: Pace, shown: list[int]) -> bytes:
        entries = "".join(
            f"<item><title>{escape(self._title(pace, n))}</title><link>{self.article_url(pace.slug, n)}</link>"
            f"<guid>{self.article_url(pace.slug, n)}</guid></item>"
            for n in shown
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
            f"<title>{pace.slug}</title><link>http://{self.host(pace.slug)}/</link>{entries}</channel></rss>"
        ).encode()

    def _title(self, pace: Pace, n: int) -> str:
        return f"{WORDS[n % len(WORDS)].title()} report number {n} from the {pace.slug} desk"

    def _article(self, pace: Pace, n: int) -> bytes:
        paragraphs = []
        for p in range(6):
            words = [WORDS[(n * 7 + p * 3 + k) % len(WORDS)] for k in range(12)]
            paragraphs.append(
                f"<p>In story {n} of the {pace.slug} desk, paragraph {p + 1} says the {' '.join(words)} "
                f"matter to people who wrote to us about item {n * 31 + p}, and they asked for answers.</p>"
            )
        title = escape(self._title(pace, n))
        return (
            f"<!doctype html><html lang='en'><head><title>{title}</title></head><body>"
            f"<article><h1>{title}</h1>{''.join(paragraphs)}</article></body></html>"
        ).encode()
