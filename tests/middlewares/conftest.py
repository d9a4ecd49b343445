"""A loopback HTTP site that misbehaves in the ways real news sites do, and a crawl runner.

The crawl runs in a subprocess (``scrapy runspider``) so each test gets a fresh reactor; the
spider writes its items and the final stats to files the test reads.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BROWSER_MARK = "Mozilla/5.0"
ROBOTS = b"User-agent: *\nDisallow: /forbidden/\n\nUser-agent: Mozilla\nDisallow: /nobrowser/\nDisallow: /forbidden/\n"
PAGE = b"<html><head><title>ok</title></head><body><p>An article body.</p></body></html>"


@dataclass
class Site:
    port: int
    hits: dict[str, list[tuple[float, str]]] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _make_handler(site: Site):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            headers = {"Content-Type": "text/html; charset=utf-8", **(headers or {})}
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            path = self.path
            ua = self.headers.get("User-Agent", "")
            hits = site.hits.setdefault(path, [])
            hits.append((time.monotonic(), ua))
            if path == "/robots.txt":
                self.send(200, ROBOTS, {"Content-Type": "text/plain"})
            elif path.startswith(("/blocked/", "/nobrowser/")):
                if BROWSER_MARK in ua:
                    self.send(200, PAGE)
                else:
                    self.send(403, b"Forbidden")
            elif path == "/gz/page":
                self.send(200, gzip.compress(PAGE))  # gzip body, no Content-Encoding
            elif path == "/flaky":
                if len(hits) == 1:
                    self.send(503, b"busy", {"Retry-After": "1"})
                else:
                    self.send(200, PAGE)
            elif path == "/backoff":
                if len(hits) <= 2:
                    self.send(502, b"bad gateway")
                else:
                    self.send(200, PAGE)
            elif path.startswith("/rl/"):
                first = sum(len(v) for k, v in site.hits.items() if k.startswith("/rl/")) == 1
                if first:
                    self.send(429, b"slow down", {"Retry-After": "1"})
                else:
                    time.sleep(0.2)  # a real server's latency: the 429 is handled while this is in flight
                    self.send(200, PAGE)
            elif path == "/ratelimited":
                self.send(429, b"slow down", {"Retry-After": "3600"})
            elif path == "/loop/a":
                self.send(302, b"", {"Location": "/loop/b"})
            elif path == "/loop/b":
                self.send(302, b"", {"Location": "/loop/a?utm_source=x"})
            elif path == "/missing":
                self.send(404, b"not here")
            elif path == "/slow":
                time.sleep(3)
                self.send(200, PAGE)
            elif path == "/big":
                self.send(200, b"x" * 300_000)
            else:
                self.send(200, PAGE)

    return Handler


@pytest.fixture
def site() -> Iterator[Site]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), None)  # type: ignore[arg-type]
    site = Site(port=server.server_address[1])
    server.RequestHandlerClass = _make_handler(site)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


SPIDER = """
import json
import scrapy
from sacorpus.settings import DOWNLOADER_MIDDLEWARES


class ProbeSpider(scrapy.Spider):
    name = "probe"
    custom_settings = {
        "DOWNLOADER_MIDDLEWARES": DOWNLOADER_MIDDLEWARES,
        "USER_AGENT": "sacorpus-test (+https://example.org/bot)",
        "ROBOTSTXT_OBEY": True,
        "HTTPERROR_ALLOW_ALL": True,
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 8,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }

    def __init__(self, base, paths, out, **kw):
        super().__init__(**kw)
        self.base, self.paths, self.out = base, paths.split(","), out

    async def start(self):
        for path in self.paths:
            yield scrapy.Request(self.base + path, callback=self.parse, errback=self.failed, cb_kwargs={"path": path})

    def parse(self, response, path):
        yield {"path": path, "status": response.status, "type": type(response).__name__,
               "body": response.body[:200].decode("latin-1"),
               "ua": response.request.headers.get("User-Agent", b"").decode()}

    def failed(self, failure):
        self.logger.info("failed: %s", failure.value)

    def closed(self, reason):
        with open(self.out, "w") as fh:
            json.dump(self.crawler.stats.get_stats(), fh, default=str)
"""


@dataclass
class CrawlResult:
    items: dict[str, dict]
    stats: dict
    log: str
    seconds: float


@pytest.fixture
def crawl(tmp_path: Path):
    spider_file = tmp_path / "probe_spider.py"
    spider_file.write_text(SPIDER)

    def run(site: Site, paths: list[str], *settings: str) -> CrawlResult:
        items_file, stats_file = tmp_path / "items.jsonl", tmp_path / "stats.json"
        items_file.unlink(missing_ok=True)
        args = [sys.executable, "-m", "scrapy", "runspider", str(spider_file), "-O", f"{items_file}:jsonlines",
                "-a", f"base={site.base}", "-a", f"paths={','.join(paths)}", "-a", f"out={stats_file}"]  # fmt: skip
        for setting in settings:
            args += ["-s", setting]
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        env.pop("SCRAPY_SETTINGS_MODULE", None)
        start = time.monotonic()
        proc = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
        seconds = time.monotonic() - start
        assert proc.returncode == 0, proc.stderr[-3000:]
        items = {}
        if items_file.exists():
            for line in items_file.read_text().splitlines():
                item = json.loads(line)
                items[item["path"]] = item
        return CrawlResult(items, json.loads(stats_file.read_text()), proc.stderr, seconds)

    return run
