"""The Demo Gazette's reader comments: Disqus-style threads and an on-page section (all invented).

Why both kinds: publications either embed Disqus (the page names its forum and thread; the comments
come from the Disqus API as JSON, page by page) or print their comments in the page. The demo has
both, so ``scrapy crawl demo -a comments=1`` shows the whole path offline: three Disqus threads
(one long enough to take several pages, with replies, a deleted and a spam comment; one closed) served
by :class:`~sacorpus.demo.disqus.DisqusReplay`, and two articles with an on-page section of nested
replies. Deterministic: the same comments on every run.
"""

from __future__ import annotations

import html

from sacorpus.demo.disqus import DisqusReplay, Thread, post

FORUM = "demogazette"
#: article id -> (Disqus thread id, comments, closed)
DISQUS_THREADS = {12301: ("7001", 24, False), 12302: ("7002", 6, False), 12303: ("7003", 3, True)}
#: articles whose comments are printed in the page
ON_PAGE = (12304, 12306)
#: the replay serves this many comments a page, so the long thread takes three pages
PAGE_LIMIT = 10

_SAYINGS = (
    "This has been going on for far too long in our area.",
    "Nobody from the municipality answers the phone any more.",
    "Good reporting, thank you for following up on this story.",
    "My neighbours and I have been waiting since last week.",
    "The same thing happened two years ago and nothing changed.",
    "Ngiyabonga ngalolu daba, kubalulekile kakhulu emphakathini wethu.",
    "Ons het dieselfde probleem hier in die Oos-Kaap gehad.",
    "Let us hope the new plan works better than the last one.",
)
_NAMES = ("Lindiwe M", "Pieter B", "Zanele K", "Ahmed S", "Naledi T", "Johan vd M", "Busisiwe N")


def _text(i: int) -> str:
    return f"{_SAYINGS[i % len(_SAYINGS)]} {_SAYINGS[(i * 3 + 1) % len(_SAYINGS)]}"


def thread_posts(thread_id: str, n: int, base_id: int) -> list[dict[str, object]]:
    """``n`` posts: every third answers the one before it; the 5th is deleted, the 7th is spam."""
    posts = []
    for i in range(n):
        reply = i % 3 == 2
        flags = {
            "isDeleted": i == 4,
            "isSpam": i == 6,
            "likes": i % 5,
            "dislikes": i % 2,
            "points": i % 5 - i % 2,
        }
        posts.append(
            post(
                base_id + i,
                thread_id,
                "" if i == 4 else _text(i),
                parent=base_id + i - 1 if reply else None,
                depth=1 if reply else 0,
                author=_NAMES[i % len(_NAMES)],
                created=f"2026-11-02T{8 + i // 6:02d}:{(i * 7) % 60:02d}:00",
                forum=FORUM,
                **flags,
            )
        )
    return posts


def demo_replay() -> DisqusReplay:
    """The demo's Disqus threads (fresh state: a crawl may close or change them in tests)."""
    threads = [
        Thread(tid, FORUM, ident=f"demo-{aid}", closed=closed, posts=thread_posts(tid, n, int(tid) * 100))
        for aid, (tid, n, closed) in DISQUS_THREADS.items()
    ]
    return DisqusReplay(threads, page_limit=PAGE_LIMIT)


def disqus_embed(article_id: int, path: str) -> str:
    """The embed snippet a Disqus publication puts under its story."""
    return (
        '<div id="disqus_thread"></div>\n<script>\n'
        "var disqus_config = function () {\n"
        f"  this.page.url = '{{base}}{path}';\n  this.page.identifier = 'demo-{article_id}';\n}};\n"
        "(function() { var d = document, s = d.createElement('script');\n"
        f"  s.src = 'https://{FORUM}.disqus.com/embed.js'; (d.head || d.body).appendChild(s); }})();\n"
        "</script>\n"
    )


def _li(cid: int, i: int, replies: str = "") -> str:
    return (
        f'<li class="comment" id="c-{cid}"><p class="comment-meta"><span class="comment-author">'
        f"{html.escape(_NAMES[i % len(_NAMES)])}</span> "
        f'<time datetime="2026-11-03T1{i}:15:00+02:00">3 November 2026</time></p>'
        f'<div class="comment-body"><p>{html.escape(_text(i + 2))}</p></div>{replies}</li>\n'
    )


def on_page_section(article_id: int) -> str:
    """Four comments, two of them replies nested in the comment they answer."""
    base = article_id * 10
    reply = _li(base + 2, 1, f'<ol class="replies">{_li(base + 3, 2)}</ol>')
    first = _li(base + 1, 0, f'<ol class="replies">{reply}</ol>')
    return (
        '<section class="reader-comments">\n  <h2>Readers\' comments</h2>\n'
        f'  <ol class="comment-list">\n{first}{_li(base + 4, 3)}  </ol>\n</section>\n'
    )


def comments_html(article_id: int, path: str) -> str:
    """What follows the story on the article's page: a Disqus embed, an on-page section, or nothing."""
    if article_id in DISQUS_THREADS:
        return disqus_embed(article_id, path)
    if article_id in ON_PAGE:
        return on_page_section(article_id)
    return ""


__all__ = ["FORUM", "comments_html", "demo_replay", "disqus_embed", "on_page_section", "thread_posts"]
