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
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sacorpus.demo.server import SiteServer

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


def _answer(site: Site, path: str, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
    """The misbehaving site: what each path answers, given what was asked before."""
    ua = headers.get("User-Agent", "")
    hits = site.hits.setdefault(path, [])
    hits.append((time.monotonic(), ua))
    html = {"Content-Type": "text/html; charset=utf-8"}
    if path == "/robots.txt":
        return 200, {"Content-Type": "text/plain"}, ROBOTS
    if path.startswith(("/blocked/", "/nobrowser/")):
        return (200, html, PAGE) if BROWSER_MARK in ua else (403, html, b"Forbidden")
    if path == "/gz/page":
        return 200, html, gzip.compress(PAGE)  # gzip body, no Content-Encoding
    if path == "/flaky":
        return (503, {**html, "Retry-After": "1"}, b"busy") if len(hits) == 1 else (200, html, PAGE)
    if path == "/backoff":
        return (502, html, b"bad gateway") if len(hits) <= 2 else (200, html, PAGE)
    if path.startswith("/rl/"):
        if sum(len(v) for k, v in site.hits.items() if k.startswith("/rl/")) == 1:
            return 429, {**html, "Retry-After": "1"}, b"slow down"
        time.sleep(0.2)  # a real server's latency: the 429 is handled while this is in flight
        return 200, html, PAGE
    if path == "/ratelimited":
        return 429, {**html, "Retry-After": "3600"}, b"slow down"
    if path == "/loop/a":
        return 302, {**html, "Location": "/loop/b"}, b""
    if path == "/loop/b":
        return 302, {**html, "Location": "/loop/a?utm_source=x"}, b""
    if path == "/missing":
        return 404, html, b"not here"
    if path == "/slow":
        time.sleep(3)
    if path == "/big":
        return 200, html, b"x" * 300_000
    return 200, html, PAGE


@pytest.fixture
def site() -> Iterator[Site]:
    """The project's loopback SiteServer with no static pages: every path is answered by :func:`_answer`."""
    server = SiteServer({})
    site = Site(port=0)
    server.add_route("/", lambda path, headers: _answer(site, path, headers))
    server.start()
    site.port = int(server.base_url.rsplit(":", 1)[1])
    try:
        yield site
    finally:
        server.stop()


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
