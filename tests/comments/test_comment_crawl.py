"""Comment threads crawled for real: the demo publication against a loopback server replaying
Disqus-style JSON, on SQLite and on MongoDB.

Three runs over one store: the first finds the threads on the article pages (pagination, nested
replies, a deleted and a spam comment, a thread already closed, an on-page section); between runs the
replay changes (a thread closes, a comment is edited, another deleted, a new one posted); the second
and third runs read comments alone (``-a sources=comments``) and must update without duplicating,
mark the closed thread done, and spend no request on done threads.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crawlkit import run_crawl

from sacorpus.demo.disqus import DisqusReplay, Thread, post
from sacorpus.demo.server import SiteServer
from sacorpus.demo.site import build_site
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore

pytestmark = pytest.mark.slow
HOME = "http://demo.sacorpus.invalid"
LONG = f"{HOME}/news/2026/11/02/tshwane-water-outage-extended-in-eastern-suburbs-12301"
QUIET = f"{HOME}/news/2026/11/04/matric-exams-enter-final-stretch-amid-paper-leak-probe-12305"  # no thread


def long_thread() -> list[dict[str, Any]]:
    posts = [post(500 + i, "7001", f"Comment {i} about the water outage.", author=f"R{i}") for i in range(23)]
    posts[5] = post(505, "7001", "", isDeleted=True)
    posts[6] = post(506, "7001", "Cheap loans here", isSpam=True, isApproved=False)
    posts[8] = post(508, "7001", "A reply to comment seven.", parent=507, depth=1)
    posts[9] = post(509, "7001", "A reply to the reply.", parent=508, depth=2)
    return posts


@pytest.fixture(scope="module", params=["sqlite", "mongo"])
def backend(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield {}
    else:
        server = request.getfixturevalue("mongo_server")
        db = f"{server.database}_comments_crawl"
        yield {"MONGO_URI": server.uri, "MONGO_DATABASE": db}
        with MongoStore(server.uri, db) as store:
            store.drop()


@pytest.fixture(scope="module")
def replay(backend: dict[str, str]) -> DisqusReplay:
    """Fresh threads for each backend's runs (the runs change them)."""
    return DisqusReplay(
        [
            Thread("7001", "demogazette", ident="demo-12301", posts=long_thread()),
            Thread("7002", "demogazette", ident="demo-12302", posts=[post(600, "7002", "Open for now.")]),
            Thread(
                "7003", "demogazette", ident="demo-12303", closed=True, posts=[post(700, "7003", "Closed.")]
            ),
        ],
        page_limit=10,
    )


@pytest.fixture(scope="module")
def site(replay: DisqusReplay) -> Iterator[tuple[SiteServer, str]]:
    with SiteServer(build_site()) as server:
        yield server, replay.install(server, "/disqus")


def crawl(workdir: Path, site: tuple[SiteServer, str], env: dict[str, str], *args: str) -> Any:
    server, api = site
    run = run_crawl(
        "demo",
        workdir,
        "-a",
        f"base_url={server.base_url}",
        "-s",
        f"SACORPUS_DISQUS_API_BASE={api}",
        "-s",
        "SACORPUS_COMMENTS_POLL_INTERVAL=0",
        "-s",
        "SACORPUS_HOSTS_ONLY=True",
        *args,
        env=env,
    )
    assert run.returncode == 0, run.log[-3000:]
    return run


def open_store(workdir: Path, env: dict[str, str]) -> ArticleStore:
    if env:
        return MongoStore(env["MONGO_URI"], env["MONGO_DATABASE"]).__enter__()
    return SQLiteStore(str(workdir / "corpus.sqlite")).__enter__()


def by_url(store: ArticleStore) -> dict[str, dict[str, Any]]:
    return {c["url"]: c for c in store.iter_comments()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, site, replay, backend) -> dict[str, Any]:
    """The three runs, with what the store and the replay held after each."""
    work = tmp_path_factory.mktemp("comments")
    out: dict[str, Any] = {"first": crawl(work, site, backend, "-a", "comments=1")}
    with open_store(work, backend) as store:
        out["after_first"] = by_url(store)
        out["articles"] = store.count()
    long, closing = replay.threads[0], replay.threads[1]
    closing.closed = True
    long.posts = list(long.posts)
    long.posts[0] = post(500, "7001", "Comment 0, corrected by its author.", author="R0", isEdited=True)
    long.posts[1] = post(501, "7001", "", author="R1", isDeleted=True)
    long.posts.append(post(599, "7001", "A late comment.", author="Late"))
    before = len(replay.asked)
    out["second"] = crawl(work, site, backend, "-a", "sources=comments")
    out["asked_second"] = replay.asked[before:]
    with open_store(work, backend) as store:
        out["after_second"] = by_url(store)
        out["threads"] = {k: store.get_thread(f"disqus:demogazette:demo-{k}") for k in (12301, 12302, 12303)}
        out["quiet"] = store.get_thread(f"none:{QUIET}")
    before = len(replay.asked)
    out["third"] = crawl(work, site, backend, "-a", "sources=comments")
    out["asked_third"] = replay.asked[before:]
    with open_store(work, backend) as store:
        out["after_third"] = by_url(store)
    return out


def test_first_run_reads_every_page_of_every_thread(runs: dict[str, Any]) -> None:
    comments = runs["after_first"]
    disqus = [c for c in comments.values() if c["source"] == "disqus"]
    page = [c for c in comments.values() if c["source"] == "page"]
    assert len(disqus) == 23 + 1 + 1 and len(page) == 8
    assert runs["articles"] >= 25  # the articles were crawled too, and kept apart
    long = [c for c in disqus if c["article_url"] == LONG]
    assert len(long) == 23  # three pages of ten
    assert f"{LONG}#comment-522" in comments
    deleted, spam = comments[f"{LONG}#comment-505"], comments[f"{LONG}#comment-506"]
    assert deleted["is_deleted"] and deleted["text"] == ""
    assert spam["is_spam"] and spam["is_approved"] is False
    reply = comments[f"{LONG}#comment-509"]
    assert (reply["parent"], reply["depth"]) == ("508", 2)
    first = comments[f"{LONG}#comment-500"]
    assert first["language"] == "en" and first["tokens"][:2] == ["Comment", "0"] and first["word_count"] > 3
    assert "avatar" not in str(first) and "profileUrl" not in str(first)
    nested = [c for c in page if c["parent"]]
    assert len(nested) == 4 and {c["depth"] for c in page} == {0, 1, 2}


def test_a_repoll_updates_edits_and_deletions_without_duplicates(runs: dict[str, Any]) -> None:
    before, after = runs["after_first"], runs["after_second"]
    assert len(after) == len(before) + 1  # the late comment, nothing twice
    edited = after[f"{LONG}#comment-500"]
    assert edited["raw_message"] == "Comment 0, corrected by its author." and edited["is_edited"]
    assert "corrected" in edited["text"] and edited["updated_at"]
    assert edited["first_seen_at"] == before[f"{LONG}#comment-500"]["first_seen_at"]
    assert after[f"{LONG}#comment-501"]["is_deleted"] and after[f"{LONG}#comment-501"]["text"] == ""
    assert after[f"{LONG}#comment-599"]["author_name"] == "Late"
    assert after[f"{LONG}#comment-502"].get("updated_at") is None  # unchanged: untouched


def test_a_thread_that_closed_between_polls_is_done_and_costs_no_request(runs: dict[str, Any]) -> None:
    threads = runs["threads"]
    assert threads[12302]["done"] and threads[12302]["done_reason"] == "closed"
    assert threads[12303]["done"] and threads[12303]["polls"] == 1  # closed when found: read once
    assert not threads[12301]["done"] and threads[12301]["polls"] == 2
    second = {named for _endpoint, named in runs["asked_second"]}
    assert "demo-12303" not in second and "demo-12302" in second
    third = runs["asked_third"]
    assert third and all(named in ("demo-12301", "7001") for _endpoint, named in third)
    assert runs["after_third"].keys() == runs["after_second"].keys()
    # a stored article without a thread is read once, then marked: later runs skip it unread
    assert runs["quiet"]["done"] and runs["quiet"]["kind"] == "none"


def test_comment_runs_say_what_they_did(runs: dict[str, Any]) -> None:
    log = runs["second"].log
    assert "'sacorpus/comments/store/updated': 2" in log or "store/updated=2" in log
    assert "sacorpus/article/requested" not in log  # comments only: no article source ran
