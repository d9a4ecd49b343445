"""A Disqus-speaking JSON server on loopback: the demo's comment threads, and the tests' replay.

Why our own: the demo must show comments offline, and tests must never reach disqus.com. The answers
have the shapes of the public API the Disqus embed loads (``/api/3.0/threads/details.json`` and
``/api/3.0/threads/listPostsThreaded.json``: ``code``, ``response``, ``cursor.hasNext`` /
``cursor.next``), presentation fields included (avatars, media) so the reader is seen to drop them.
Threads are mutable between polls (close one, edit or delete a comment), posts may be generated on
demand (a thread of 5,000 comments costs no memory until a page of it is asked for), and every request
is counted by endpoint.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, overload
from urllib.parse import parse_qs, urlsplit

from sacorpus.demo.server import SiteServer

API_PATH = "/api/3.0"


def post(
    pid: int | str,
    thread: str,
    message: str,
    *,
    parent: int | str | None = None,
    depth: int = 0,
    author: str = "Reader",
    created: str = "2026-11-02T08:00:00",
    **flags: Any,
) -> dict[str, Any]:
    """One post as the API gives it (with the presentation fields a reader must leave behind)."""
    username = author.lower().replace(" ", "_")
    return {
        "id": str(pid),
        "thread": thread,
        "forum": flags.pop("forum", "demogazette"),
        "parent": int(parent) if parent is not None else None,
        "depth": depth,
        "createdAt": created,
        "author": {
            "name": author,
            "username": username,
            "isAnonymous": False,
            "profileUrl": f"https://disqus.com/by/{username}/",
            "avatar": {"cache": "https://c.disquscdn.com/uploads/avatar.jpg", "permalink": "x"},
        },
        "raw_message": message,
        "message": "".join(f"<p>{p}</p>" for p in message.split("\n\n")),
        "likes": flags.pop("likes", 0),
        "dislikes": flags.pop("dislikes", 0),
        "points": flags.pop("points", 0),
        "isDeleted": flags.pop("isDeleted", False),
        "isSpam": flags.pop("isSpam", False),
        "isApproved": flags.pop("isApproved", True),
        "isEdited": flags.pop("isEdited", False),
        "media": [],
        "moderationLabels": [],
        "isHighlighted": False,
        **flags,
    }


class GeneratedPosts(Sequence[dict[str, Any]]):
    """``n`` posts made when asked for (bounded memory on the server side too)."""

    def __init__(self, n: int, thread: str) -> None:
        self.n = n
        self.thread = thread

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if not 0 <= index < self.n:
            raise IndexError(index)
        text = f"Comment {index} on the long thread: readers argue about the matter at some length here."
        return post(
            100_000 + index, self.thread, text, author=f"Reader {index % 97}", created="2026-11-02T09:00:00"
        )


@dataclass
class Thread:
    id: str
    forum: str
    ident: str | None = None
    link: str | None = None
    closed: bool = False
    created: str = "2026-11-02T07:00:00"
    posts: Sequence[dict[str, Any]] = field(default_factory=list)


class DisqusReplay:
    """Threads served under ``<prefix>/api/3.0`` of a :class:`SiteServer`; ``requests`` counts calls."""

    def __init__(self, threads: Sequence[Thread] = (), page_limit: int | None = None) -> None:
        self.threads = list(threads)
        self.page_limit = page_limit  # a smaller page than asked for (pagination with few comments)
        self.requests: dict[str, int] = {}
        self.asked: list[tuple[str, str]] = []  # (endpoint, thread identifier or id), in order
        self._lock = threading.Lock()

    def install(self, server: SiteServer, prefix: str = "") -> str:
        """Answer under ``prefix`` of a started server; returns the API base URL to give the crawl."""
        server.add_route(prefix + API_PATH + "/", self.answer)
        return server.base_url + prefix + API_PATH

    def find(self, forum: str, ident: str | None, link: str | None, tid: str | None = None) -> Thread | None:
        for thread in self.threads:
            if thread.forum != forum:
                continue
            if (
                (tid and thread.id == tid)
                or (ident and thread.ident == ident)
                or (link and thread.link == link)
            ):
                return thread
        return None

    def answer(self, raw_path: str, _headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        parts = urlsplit(raw_path)
        endpoint = parts.path.rsplit("/threads/", 1)[-1].removesuffix(".json")
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        named = query.get("thread:ident") or query.get("thread:link") or query.get("thread") or ""
        with self._lock:
            self.requests[endpoint] = self.requests.get(endpoint, 0) + 1
            self.asked.append((endpoint, named))
        forum = query.get("forum", "")
        if endpoint == "details":
            thread = self.find(forum, query.get("thread:ident"), query.get("thread:link"))
            return self._json(self._details(thread))
        if endpoint == "listPostsThreaded":
            thread = self.find(forum, None, None, query.get("thread"))
            return self._json(self._page(thread, query))
        return None

    @staticmethod
    def _json(data: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        status = 400 if data.get("code") else 200
        return status, {"Content-Type": "application/json"}, json.dumps(data).encode()

    @staticmethod
    def _details(thread: Thread | None) -> dict[str, Any]:
        if thread is None:
            return {"code": 2, "response": "Invalid argument, 'thread': Unable to find thread"}
        return {
            "code": 0,
            "response": {
                "id": thread.id,
                "forum": thread.forum,
                "identifiers": [thread.ident] if thread.ident else [],
                "link": thread.link,
                "isClosed": thread.closed,
                "posts": len(thread.posts),
                "createdAt": thread.created,
                "title": "A thread",
            },
        }

    def _page(self, thread: Thread | None, query: dict[str, str]) -> dict[str, Any]:
        if thread is None:
            return {"code": 2, "response": "Invalid argument, 'thread'"}
        limit = min(int(query.get("limit") or 25), self.page_limit or 100)
        start = int((query.get("cursor") or "0:0:0").split(":", 1)[0])
        posts = list(thread.posts[start : start + limit])
        more = start + limit < len(thread.posts)
        cursor = {
            "prev": None,
            "hasNext": more,
            "next": f"{start + limit}:0:0" if more else None,
            "hasPrev": start > 0,
            "total": None,
            "id": f"{start}:0:0",
            "more": more,
        }
        return {"code": 0, "cursor": cursor, "response": posts}


__all__ = ["API_PATH", "DisqusReplay", "GeneratedPosts", "Thread", "post"]
