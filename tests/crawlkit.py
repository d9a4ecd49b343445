"""Test helpers shared by the crawl, deploy and storage tests: free ports, running real crawls in a subprocess, the MongoDB-wire server.

Crawls run as ``scrapy crawl`` subprocesses (a Twisted reactor cannot be restarted in one process), in
a temporary directory with their own SQLite file and JOBDIR, so each test sees only its own data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sacorpus.testing.servers import free_port, stop_process, wait_until_listening

__all__ = [
    "REPO",
    "CrawlRun",
    "feed_publication",
    "fixture_pages",
    "free_port",
    "run_crawl",
    "stop_process",
    "wait_until_listening",
]

REPO = Path(__file__).resolve().parent.parent
SCRAPY = [sys.executable, "-m", "scrapy"]

# Loopback servers need no politeness; tests must not wait on AutoThrottle.
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO"]


@dataclass
class CrawlRun:
    returncode: int
    log: str
    workdir: Path
    items: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sqlite_path(self) -> Path:
        return self.workdir / "corpus.sqlite"


def run_crawl(
    slug: str,
    workdir: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    export: bool = True,
    project: Path | None = None,
) -> CrawlRun:
    """Run ``scrapy crawl slug`` from the repo (or a copy of it, ``project``) with its store and JOBDIR
    under ``workdir``."""
    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / "out.jsonl"
    if out.exists():
        out.unlink()
    cmd = [
        *SCRAPY,
        "crawl",
        slug,
        *FAST,
        "-s",
        f"SACORPUS_SQLITE_PATH={workdir / 'corpus.sqlite'}",
        "-s",
        f"SACORPUS_JOBDIR_ROOT={workdir / 'jobs'}",
        *args,
    ]
    if export:
        cmd += ["-O", str(out)]
    full_env = {**os.environ, **(env or {})}
    if project is not None:
        full_env["PYTHONPATH"] = str(project)
    for name in ("MONGO_URI", "SACORPUS_REDIS_URL", "REDIS_URL"):  # only what the test itself passes
        if not (env or {}).get(name):
            full_env.pop(name, None)
    proc = subprocess.run(
        cmd, cwd=project or REPO, env=full_env, capture_output=True, text=True, timeout=timeout
    )
    items = []
    if export and out.exists():
        items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    return CrawlRun(proc.returncode, proc.stdout + proc.stderr, workdir, items)


def fixture_pages() -> list[str]:
    """HTML of every page of the demo site and of the publications' fixture sites (``tests/sites``):
    the written pages that equivalence tests run old and new code paths over."""
    from sacorpus.demo.site import build_site

    pages = [
        res.body.decode("utf-8") for res in build_site().values() if res.content_type.startswith("text/html")
    ]
    pages += [p.read_text(encoding="utf-8") for p in sorted((REPO / "tests" / "sites").rglob("*.html"))]
    return pages


def feed_publication(
    root: Path, slug: str, name: str, host: str, pages: dict[str, tuple[str, str | bytes]]
) -> tuple[Path, dict[str, str]]:
    """A publication of our own and its site, for a real crawl: ``root/pubs/<slug>.toml`` (one RSS feed
    at ``https://<host>/feed/``) and ``root/site`` (that feed, listing ``pages`` in order: URL path ->
    (feed title, HTML), each page at ``<path>/index.html``). Returns the site's directory (for
    :meth:`SiteServer.from_directory`) and the environment that makes a crawl read the publication."""
    pubs, site = root / "pubs", root / "site"
    pubs.mkdir(parents=True)
    (pubs / f"{slug}.toml").write_text(
        f'name = "{name}"\nhome = "https://{host}/"\ndomains = ["{host.removeprefix("www.")}"]\n'
        f'languages = ["en"]\n\n[sources]\nfeeds = ["https://{host}/feed/"]\n'
    )
    items = "".join(
        f"<item><title>{t}</title><link>{{base}}/{path}/</link></item>" for path, (t, _) in pages.items()
    )
    (site / "feed").mkdir(parents=True)
    (site / "feed" / "index.xml").write_text(
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>{items}</channel></rss>'
    )
    for path, (_, html) in pages.items():
        (site / path).mkdir(parents=True)
        (site / path / "index.html").write_bytes(html if isinstance(html, bytes) else html.encode("utf-8"))
    return site, {"SACORPUS_PUBLICATIONS_DIR": str(pubs)}
