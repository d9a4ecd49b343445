"""What the corpus browser tests share: the running server's handle, its store arguments, starting it."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from sacorpus.testing.mongo import MongoServer
from sacorpus.testing.servers import free_port, wait_until_listening

REPO = Path(__file__).resolve().parents[2]
PAGE_SIZE = 2  # small pages, so that a handful of articles spans several


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]


@dataclass
class Served:
    """A running `scrapy serve`: its base URL and the store arguments it was given."""

    url: str
    store_args: list[str]

    def get(self, path: str, method: str = "GET") -> Answer:
        request = urllib.request.Request(self.url + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(response.status, response.read().decode(), dict(response.headers))
        except urllib.error.HTTPError as exc:
            return Answer(exc.code, exc.read().decode(), dict(exc.headers))


def sqlite_args(path: Path) -> list[str]:
    return [
        "-s",
        f"SACORPUS_SQLITE_PATH={path}",
        "-s",
        f"SACORPUS_STORE_SPILL_PATH={path.parent / 'spill.jsonl'}",
    ]


def mongo_args(server: MongoServer, workdir: Path) -> list[str]:
    return [
        "-s", "SACORPUS_STORE=sacorpus.storage.mongo.MongoStore",
        "-s", f"MONGO_URI={server.uri}",
        "-s", f"MONGO_DATABASE={server.database}",
        "-s", f"SACORPUS_STORE_SPILL_PATH={workdir / 'spill.jsonl'}",
    ]  # fmt: skip


def start_server(store_args: list[str], log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "scrapy", "serve", "--port", str(port), *store_args, *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("MONGO_URI", "SACORPUS_SQLITE_PATH")}
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_until_listening(port, proc, "scrapy serve", log=log)
    return proc, f"http://127.0.0.1:{port}"
