"""Disqus comment threads read without a browser: the thread named by a page, and the JSON the embed loads.

Why the JSON API and not the rendered embed: the embed (``<forum>.disqus.com/embed.js``) builds its
iframe from the same public API (``/api/3.0``) with the public key it carries, so one plain request per
page of 100 comments reads a thread: no browser, and the fields come typed (ids, parents, depth,
likes) instead of scraped from markup. This module is pure (no Scrapy): it finds the thread a page
declares, builds the API URLs, and turns one answer into plain comment records, one page at a time,
so a thread of any length is read in bounded memory.

The answers' shapes: ``threads/details`` -> ``{"code": 0, "response": {"id", "isClosed", "posts",
"createdAt", "link", "identifiers", ...}}``; ``threads/listPostsThreaded`` -> ``{"code": 0, "cursor":
{"hasNext", "next", ...}, "response": [post, ...]}`` where a post has ``id, parent, thread, depth,
author {name, username, ...}, createdAt, raw_message, message, likes, dislikes, points, isDeleted,
isSpam, isApproved, isEdited`` (and presentation fields this module leaves behind: avatars, media,
badges, moderation labels).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from sacorpus.sources.dates import to_utc_iso

#: the public key the Disqus embed itself sends (visible in every embed's requests; not a secret)
PUBLIC_API_KEY = "E8Uh5l5fHZ6gD8U3KycjAIAk46f68Zw7C6eW8WSjZvCLXebZ7p0r1yrYDrLilk2F"
DEFAULT_API_BASE = "https://disqus.com/api/3.0"
MAX_PAGE_SIZE = 100  # the API's own maximum

_Q = r"""\s*[:=]\s*(['"])((?:\\.|(?!\1).)*)\1"""
_SHORTNAME = re.compile(r"disqus_shortname" + _Q)
_EMBED_SRC = re.compile(r"""//([a-z0-9][a-z0-9-]*)\.disqus\.com/(?:embed|count)\.js""", re.I)
_IDENTIFIER = re.compile(r"(?:this\.page\.identifier|disqus_identifier)" + _Q)
_URL = re.compile(r"(?:this\.page\.url|disqus_url)" + _Q)
_DATA_ATTRS = re.compile(r"""data-disqus-(identifier|url|shortname)\s*=\s*(['"])(.*?)\2""", re.I)
#: fields of a post the record keeps (the rest is presentation)
_KEPT = ("likes", "dislikes", "points")


class DisqusError(ValueError):
    """An answer that is not what the API sends (not JSON, an error code, a missing field)."""


@dataclass(frozen=True)
class DisqusThread:
    """The thread a page declares: its forum and identifier or URL (``thread:ident`` / ``thread:link``)."""

    forum: str
    identifier: str | None = None
    url: str | None = None

    @property
    def key(self) -> str:
        return f"disqus:{self.forum}:{self.identifier or self.url}"


def _unescape(value: str) -> str:
    return value.replace("\\/", "/").replace("\\'", "'").replace('\\"', '"').strip()


def find_thread(html: str, page_url: str | None = None, forum: str | None = None) -> DisqusThread | None:
    """The Disqus thread a page declares, or None.

    The forum comes from ``disqus_shortname``, a ``data-disqus-shortname`` attribute or the
    ``<forum>.disqus.com/embed.js`` source; the thread from ``this.page.identifier`` /
    ``disqus_identifier`` (else ``this.page.url`` / ``disqus_url``, else the page's own URL). When
    ``forum`` (the publication's declared forum) is given, a page naming another forum is not followed:
    the page's markup never chooses what the crawler asks for.
    """
    if not html or "disqus" not in html.lower():
        return None
    attrs = {m.group(1).lower(): _unescape(m.group(3)) for m in _DATA_ATTRS.finditer(html)}
    found = _SHORTNAME.search(html)
    embed = _EMBED_SRC.search(html)
    page_forum = (
        (found and _unescape(found.group(2)))
        or attrs.get("shortname")
        or (embed and embed.group(1).lower())
        or forum  # the embed is loaded without naming its forum: the declared one
    )
    if not page_forum or (forum and page_forum.lower() != forum.lower()):
        return None
    ident = _IDENTIFIER.search(html)
    url = _URL.search(html)
    identifier = (ident and _unescape(ident.group(2))) or attrs.get("identifier") or None
    thread_url = (url and _unescape(url.group(2))) or attrs.get("url") or page_url
    return DisqusThread(page_forum, identifier, thread_url if not identifier else None)


def details_url(base: str, thread: DisqusThread, api_key: str = PUBLIC_API_KEY) -> str:
    """``threads/details``: the thread's id, whether it is closed, how many posts it has."""
    query = {"api_key": api_key, "forum": thread.forum}
    if thread.identifier:
        query["thread:ident"] = thread.identifier
    else:
        query["thread:link"] = thread.url or ""
    return f"{base.rstrip('/')}/threads/details.json?{urlencode(query)}"


def posts_url(
    base: str,
    forum: str,
    thread_id: str,
    cursor: str | None = None,
    limit: int = MAX_PAGE_SIZE,
    api_key: str = PUBLIC_API_KEY,
) -> str:
    """``threads/listPostsThreaded``: one page of the thread, oldest first, from ``cursor`` on."""
    query = {
        "api_key": api_key,
        "forum": forum,
        "thread": thread_id,
        "limit": str(max(1, min(MAX_PAGE_SIZE, limit))),
        "order": "asc",
    }
    if cursor:
        query["cursor"] = cursor
    return f"{base.rstrip('/')}/threads/listPostsThreaded.json?{urlencode(query)}"


def _answer(body: bytes | str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DisqusError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DisqusError("not a JSON object")
    if data.get("code", 0) != 0:
        raise DisqusError(f"API error {data.get('code')}: {str(data.get('response'))[:120]}")
    return data


def parse_details(body: bytes | str) -> dict[str, Any]:
    """``{"id", "closed", "posts", "created_at", "link"}`` of a ``threads/details`` answer."""
    thread = _answer(body).get("response")
    if not isinstance(thread, dict) or not thread.get("id"):
        raise DisqusError("threads/details answer without a thread id")
    return {
        "id": str(thread["id"]),
        "closed": bool(thread.get("isClosed")),
        "posts": int(thread.get("posts") or 0),
        "created_at": to_utc_iso(str(thread.get("createdAt") or "")) if thread.get("createdAt") else None,
        "link": thread.get("link"),
    }


def parse_posts(body: bytes | str, forum: str, article_url: str) -> tuple[list[dict[str, Any]], str | None]:
    """The comment records of one page and the cursor of the next page (None: the last page).

    A post without an id is skipped (it cannot be kept apart from the others); everything else is
    kept, deleted and spam posts included, with their flags: a deleted comment updates the one stored.
    """
    data = _answer(body)
    posts = data.get("response")
    if not isinstance(posts, list):
        raise DisqusError("listPosts answer without a list of posts")
    records = [
        post_record(p, forum, article_url) for p in posts if isinstance(p, dict) and p.get("id") is not None
    ]
    found = data.get("cursor")
    cursor: dict[str, Any] = found if isinstance(found, dict) else {}
    more = bool(cursor.get("hasNext")) and bool(cursor.get("next"))
    return records, (str(cursor["next"]) if more else None)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def comment_url(article_url: str, comment_id: str) -> str:
    """A comment's permalink, the way Disqus links one: the article's URL and ``#comment-<id>``."""
    return f"{article_url.split('#', 1)[0]}#comment-{comment_id}"


def post_record(post: dict[str, Any], forum: str, article_url: str) -> dict[str, Any]:
    """The fields a ``Comment`` keeps from one Disqus post (no avatar or other presentation fields)."""
    given = post.get("author")
    author: dict[str, Any] = given if isinstance(given, dict) else {}
    created = str(post.get("createdAt") or "") or None
    created_utc = to_utc_iso(created)  # Disqus gives createdAt without an offset, in UTC (read as UTC)
    parent = post.get("parent")
    record: dict[str, Any] = {
        "url": comment_url(article_url, str(post["id"])),
        "article_url": article_url,
        "source": "disqus",
        "forum": forum,
        "comment_id": str(post["id"]),
        "thread": str(post["thread"]) if post.get("thread") is not None else None,
        "parent": str(parent) if parent not in (None, "", 0) else None,
        "depth": _int(post.get("depth")) or 0,
        "author_name": author.get("name"),
        "author_username": author.get("username"),
        "published_at": created_utc,
        "published_raw": created,
        "raw_message": post.get("raw_message"),
        "message": post.get("message"),
        "is_deleted": bool(post.get("isDeleted") or post.get("isDeletedByAuthor")),
        "is_spam": bool(post.get("isSpam")),
        "is_approved": post.get("isApproved") if isinstance(post.get("isApproved"), bool) else None,
        "is_edited": bool(post.get("isEdited")),
    }
    record.update({name: _int(post.get(name)) for name in _KEPT})
    return record


__all__ = [
    "DEFAULT_API_BASE",
    "MAX_PAGE_SIZE",
    "PUBLIC_API_KEY",
    "DisqusError",
    "DisqusThread",
    "comment_url",
    "details_url",
    "find_thread",
    "parse_details",
    "parse_posts",
    "post_record",
    "posts_url",
]
