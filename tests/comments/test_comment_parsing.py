"""The pure comment core: finding a page's Disqus thread, reading API answers, on-page sections, the
comment's cleaned text, and when a thread is polled again or done."""

from __future__ import annotations

import json

import pytest

from sacorpus.demo.disqus import DisqusReplay, Thread, post
from sacorpus.publication_comments import CommentRules
from sacorpus.publications import PublicationError, parse_publication
from sacorpus.sources import disqus
from sacorpus.sources.comment_threads import after_poll, is_due, new_thread
from sacorpus.text.comments import comment_text, page_comments

ARTICLE = "https://news.example/2026/11/02/story-1"


@pytest.mark.parametrize(
    ("snippet", "forum", "ident", "url"),
    [
        ("var disqus_shortname = 'mypaper'; var disqus_identifier = '12345';", "mypaper", "12345", None),
        (
            "var disqus_config = function () { this.page.url = 'https://news.example/a';"
            ' this.page.identifier = "art-9"; };'
            " s.src = 'https://mypaper.disqus.com/embed.js';",
            "mypaper",
            "art-9",
            None,
        ),
        (
            "var disqus_config = function () { this.page.url = 'https:\\/\\/news.example\\/b'; };"
            '<script src="//mypaper.disqus.com/embed.js"></script>',
            "mypaper",
            None,
            "https://news.example/b",
        ),
        ('<div id="disqus_thread" data-disqus-identifier="x-1"></div>', "mypaper", "x-1", None),
    ],
)
def test_the_thread_a_page_declares(snippet: str, forum: str, ident: str | None, url: str | None) -> None:
    thread = disqus.find_thread(f"<html><body>{snippet}</body></html>", ARTICLE, "mypaper")
    assert thread == disqus.DisqusThread(forum, ident, url)


def test_a_page_naming_another_forum_or_none_is_not_followed() -> None:
    other = "<script>var disqus_shortname = 'somebodyelse';</script>"
    assert disqus.find_thread(other, ARTICLE, "mypaper") is None
    assert disqus.find_thread("<p>No comments here.</p>", ARTICLE, "mypaper") is None
    # the embed loaded without a forum name in the page: the declared forum, the page's URL
    assert disqus.find_thread("<div id='disqus_thread'></div>", ARTICLE, "mypaper") == disqus.DisqusThread(
        "mypaper", None, ARTICLE
    )


def test_api_urls_carry_forum_thread_cursor_and_the_public_key() -> None:
    details = disqus.details_url("http://127.0.0.1:9/api/3.0", disqus.DisqusThread("f", "id 1"))
    assert details.startswith("http://127.0.0.1:9/api/3.0/threads/details.json?")
    assert "thread%3Aident=id+1" in details and "forum=f" in details and disqus.PUBLIC_API_KEY in details
    page = disqus.posts_url("http://h/api/3.0/", "f", "77", cursor="10:0:0", limit=500)
    assert "/threads/listPostsThreaded.json?" in page
    assert "thread=77" in page and "cursor=10%3A0%3A0" in page and "limit=100" in page


def test_posts_keep_the_comment_fields_and_drop_presentation() -> None:
    answer = {
        "code": 0,
        "cursor": {"hasNext": True, "next": "25:0:0"},
        "response": [
            post(1, "77", "First!\n\nSecond paragraph.", likes=3, dislikes=1, points=2),
            post(2, "77", "A reply", parent=1, depth=1, isEdited=True),
            post(3, "77", "", isDeleted=True),
            post(4, "77", "Buy cheap watches", isSpam=True, isApproved=False),
        ],
    }
    records, cursor = disqus.parse_posts(json.dumps(answer), "mypaper", ARTICLE)
    assert cursor == "25:0:0"
    first, reply, deleted, spam = records
    assert first["url"] == f"{ARTICLE}#comment-1" and first["article_url"] == ARTICLE
    assert (first["likes"], first["dislikes"], first["points"]) == (3, 1, 2)
    assert first["author_name"] == "Reader" and first["author_username"] == "reader"
    assert first["published_at"] == "2026-11-02T08:00:00Z" and first["thread"] == "77"
    assert first["raw_message"] == "First!\n\nSecond paragraph."
    assert (reply["parent"], reply["depth"], reply["is_edited"]) == ("1", 1, True)
    assert deleted["is_deleted"] and spam["is_spam"] and spam["is_approved"] is False
    assert not any("avatar" in str(key) or key in ("media", "author") for key in first)
    last = {"code": 0, "cursor": {"hasNext": False, "next": "50:0:0"}, "response": []}
    assert disqus.parse_posts(json.dumps(last), "mypaper", ARTICLE) == ([], None)


@pytest.mark.parametrize(
    "body",
    [b"<html>rate limited</html>", b'{"code": 2, "response": "Invalid argument"}', b"[]", b'{"code": 0}'],
)
def test_bad_answers_are_one_clear_error(body: bytes) -> None:
    with pytest.raises(disqus.DisqusError):
        disqus.parse_posts(body, "f", ARTICLE)
    with pytest.raises(disqus.DisqusError):
        disqus.parse_details(body)


def test_details_say_whether_the_thread_is_closed() -> None:
    replay = DisqusReplay([Thread("77", "f", ident="a", closed=True, posts=[post(1, "77", "x")])])
    answer = replay._details(replay.find("f", "a", None))
    details = disqus.parse_details(json.dumps(answer))
    assert details == {
        "id": "77",
        "closed": True,
        "posts": 1,
        "created_at": "2026-11-02T07:00:00Z",
        "link": None,
    }


def test_comment_text_is_cleaned_like_an_article() -> None:
    message = '<p>Bundes\u00adregierung said e\u0301nough.It was</p><p style="display:none">hidden</p><p>Line<br>two</p>'
    assert comment_text(message) == "Bundesregierung said énough. It was\nLine\ntwo"
    assert comment_text(None, "  typed   text\n\nnext ") == "typed text\nnext"
    assert comment_text("") == ""


SECTION = """<html><body><article><p>The story.</p></article>
<ol class="comments">
 <li class="c" id="c1"><span class="who">Ann</span><time datetime="2026-11-03T10:00:00+02:00">today</time>
   <div class="txt"><p>Top comment.</p></div>
   <ol><li class="c" id="c2"><span class="who">Bob</span><div class="txt"><p>A reply.</p></div>
     <ol><li class="c" id="c3"><span class="who">Cy</span><div class="txt"><p>Reply to reply.</p></div></li></ol>
   </li></ol>
 </li>
 <li class="c" data-parent="c1"><span class="who">Dee</span><div class="txt"></div></li>
</ol></body></html>"""


def test_on_page_sections_keep_nesting_authors_dates_and_deletions() -> None:
    rules = CommentRules(item="li.c", body=".txt", author=".who", date="time", parent_attribute="data-parent")
    records = page_comments(SECTION, rules, ARTICLE)
    assert [(r["comment_id"], r["parent"], r["depth"], r["author_name"]) for r in records] == [
        ("c1", None, 0, "Ann"),
        ("c2", "c1", 1, "Bob"),
        ("c3", "c2", 2, "Cy"),
        (records[3]["comment_id"], "c1", 0, "Dee"),
    ]
    assert [r["raw_message"] for r in records[:3]] == ["Top comment.", "A reply.", "Reply to reply."]
    assert records[0]["published_at"] == "2026-11-03T08:00:00Z"
    assert records[0]["url"] == f"{ARTICLE}#comment-c1"
    assert records[3]["is_deleted"] and records[3]["comment_id"].startswith("h")
    assert page_comments(SECTION, rules, ARTICLE) == records  # the same keys on every poll


def test_thread_polls_until_closed_or_too_old() -> None:
    state = new_thread(
        "k", "demo", ARTICLE, "disqus", "2026-11-02T00:00:00Z", created_at="2026-11-01T00:00:00Z"
    )
    assert is_due(state, "2026-11-02T00:00:00Z") and is_due(None, "2026-11-02T00:00:00Z")
    open_ = after_poll(
        state, "2026-11-02T00:00:00Z", closed=False, comments=5, interval=86_400, max_age_days=30
    )
    assert open_["next_poll"] == "2026-11-03T00:00:00Z" and not open_["done"] and open_["polls"] == 1
    assert not is_due(open_, "2026-11-02T12:00:00Z") and is_due(open_, "2026-11-03T00:00:00Z")
    closed = after_poll(open_, "2026-11-03T00:00:00Z", closed=True, comments=6)
    assert closed["done"] and closed["done_reason"] == "closed" and not is_due(closed, "2027-01-01T00:00:00Z")
    old = after_poll(open_, "2026-12-01T00:00:00Z", closed=False, comments=6, max_age_days=30)
    assert old["done"] and old["done_reason"] == "too-old" and old["first_polled"] == "2026-11-02T00:00:00Z"


def test_the_comments_table_of_a_publication_file_is_checked() -> None:
    head = 'name = "X"\nhome = "https://x.example/"\ndomains = ["x.example"]\nlanguages = ["en"]\n[sources]\nrobots = true\n'
    pub = parse_publication("x", head + '[comments]\ndisqus_forum = "xpaper"\n')
    assert pub.comments == CommentRules(disqus_forum="xpaper")
    for bad in (
        '[comments]\ndisqus_forum = "Not A Forum!"\n',
        "[comments]\n",
        '[comments]\nitem = "li.c"\n',  # no body selector
        '[comments]\ndisqus_forum = "x"\nbody = ".t"\n',  # body without item
        '[comments]\nitem = "li[["\nbody = ".t"\n',
        '[comments]\ndisqus_forum = "x"\nforum = "y"\n',
    ):
        with pytest.raises(PublicationError):
            parse_publication("x", head + bad)
