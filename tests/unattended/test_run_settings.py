"""Settings come from wherever Scrapy users give them: ``-s`` on the command line selects the store and
the User-Agent, not only the environment the settings module saw when it was imported."""

from __future__ import annotations

import subprocess
import sys

import pytest
from crawlkit import REPO
from pymongo import MongoClient

from sacorpus.demo.server import SiteServer
from sacorpus.demo.site import build_site
from sacorpus.storage.base import MONGO_STORE, store_path

pytestmark = pytest.mark.slow


def test_the_store_is_chosen_from_final_settings():
    assert store_path({}) == "sacorpus.storage.sqlite.SQLiteStore"
    assert store_path({"MONGO_URI": "mongodb://127.0.0.1:1"}) == MONGO_STORE
    explicit = {"MONGO_URI": "mongodb://127.0.0.1:1", "SACORPUS_STORE": "sacorpus.storage.sqlite.SQLiteStore"}
    assert store_path(explicit) == "sacorpus.storage.sqlite.SQLiteStore"


def test_s_mongo_uri_stores_in_mongodb_and_corpus_commands_read_it(crawl, mongo_server, tmp_path):
    database = f"{mongo_server.database}_s_uri"
    uri_args = ["-s", f"MONGO_URI={mongo_server.uri}", "-s", f"MONGO_DATABASE={database}"]
    run = crawl("demo", *uri_args, export=False)
    assert run.returncode == 0, run.log[-3000:]
    client: MongoClient = MongoClient(mongo_server.uri, serverSelectionTimeoutMS=5000)
    try:
        stored = client[database]["articles"].count_documents({"publication": "demo"})
        assert stored >= 6
        assert not run.sqlite_path.exists(), "articles went to SQLite although -s MONGO_URI was given"
        stats = subprocess.run(
            [sys.executable, "-m", "scrapy", "stats", *uri_args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert stats.returncode == 0, stats.stdout + stats.stderr
        assert str(stored) in stats.stdout
    finally:
        client.drop_database(database)
        client.close()


def test_s_contact_url_reaches_the_user_agent(crawl, tmp_path):
    seen: list[str] = []
    site = build_site()
    robots = site.pop("/robots.txt")

    def answer(path: str, headers):  # records who asked, then serves the demo's robots.txt
        seen.append(headers.get("User-Agent", ""))
        return 200, {"Content-Type": "text/plain"}, robots.body.replace(b"{base}", server.base_url.encode())

    with SiteServer(site) as server:
        server.add_route("/robots.txt", answer)
        run = crawl(
            "demo",
            "-a",
            f"base_url={server.base_url}",
            "-s",
            "SACORPUS_CONTACT_URL=https://contact.example/corpus-team",
            export=False,
        )
    assert run.returncode == 0, run.log[-3000:]
    assert seen and all("+https://contact.example/corpus-team;" in agent for agent in seen), seen
