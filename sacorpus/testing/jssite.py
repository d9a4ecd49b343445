"""A news site whose article text is built by JavaScript, and a publication that crawls it.

Why: rendering is only proven by a page whose text is not in the HTML the server sends. Each
``/live/<n>.html`` page carries its paragraphs base64-encoded in a script that writes them into
``<article>`` after load (and asks for a script on a link-local address, which the browser must not
fetch); ``/news/<n>.html`` pages are plain HTML. All text is invented. The tests and
``benchmarks/rendering.py`` serve it with :class:`~sacorpus.demo.server.SiteServer` and crawl it from a
copy of the project holding the publication file (:func:`make_project`).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from sacorpus.demo.server import Resource

SLUG = "jsnews"
HOME = "http://jsnews.sacorpus.invalid/"
INTERNAL_SCRIPT = "http://169.254.169.254/latest/meta-data/script.js"  # a page may name it; never fetched

PUBLICATION = """\
name = "The Scripted Times"
home = "http://jsnews.sacorpus.invalid/"
domains = ["jsnews.sacorpus.invalid"]
languages = ["en"]

[sources]
feeds = ["http://jsnews.sacorpus.invalid/feed.xml"]
"""

RENDER_TABLE = """
[render]
urls = ['/live/']
wait_for = "article#story p.built"
"""

SPIDER = f'''"""The Scripted Times: everything is in publications/{SLUG}.toml."""

from sacorpus.spiders.base import PublicationSpider


class JsNewsSpider(PublicationSpider):
    name = "{SLUG}"
'''

_TOPICS = ["water", "power", "harbour", "rail", "clinic", "library", "bridge", "market", "school", "dam"]


def paragraphs(n: int) -> list[str]:
    """The invented text of article ``n`` (what extraction must find)."""
    topic = _TOPICS[n % len(_TOPICS)]
    return [
        f"Story {n}: the {topic} committee of the Scripted Times district met on Tuesday evening.",
        f"Residents asked why the {topic} project number {n} had been delayed for a second year running \u2013 "
        "and the chairperson promised a \u201cwritten answer\u201d within fourteen days.",
        f"Councillors agreed to publish the {topic} budget for story {n} in full before the next meeting, "
        "together with the minutes of every meeting held since March.",
    ]


def live_page(n: int) -> bytes:
    """An article whose body a script inserts after load; the HTML sent holds none of its text."""
    data = base64.b64encode(json.dumps(paragraphs(n)).encode()).decode()
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Live: story {n} | The Scripted Times</title>
<script src="{INTERNAL_SCRIPT}"></script></head>
<body><header><nav><a href="/">Home</a></nav></header>
<main><h1>Live: story {n}</h1><article id="story"><p class="loading">Loading ...</p></article></main>
<script>
window.addEventListener("load", function () {{
  setTimeout(function () {{
    var story = document.getElementById("story");
    story.innerHTML = "";
    JSON.parse(atob("{data}")).forEach(function (text) {{
      var p = document.createElement("p"); p.className = "built"; p.textContent = text; story.appendChild(p);
    }});
  }}, 50);
}});
</script></body></html>
""".encode()


def plain_page(n: int) -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs(n))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>News: story {n} | The Scripted Times</title></head>
<body><main><h1>News: story {n}</h1><article id="story">{body}</article></main></body></html>
""".encode()


def feed(paths: list[str]) -> bytes:
    items = "".join(
        f"<item><title>{p}</title><link>{HOME.rstrip('/')}{p}</link>"
        f"<pubDate>Mon, 02 Nov 2026 0{i % 10}:00:00 GMT</pubDate></item>"
        for i, p in enumerate(paths)
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>The Scripted Times</title><link>{HOME}</link>{items}</channel></rss>
""".encode()


def site(live: int, plain: int) -> dict[str, Resource]:
    """``live`` script-built article pages (``/live/<n>.html``) and ``plain`` plain ones (``/news/``)."""
    html = "text/html; charset=utf-8"
    out = {f"/live/{n}.html": Resource(live_page(n), html) for n in range(live)}
    out.update({f"/news/{n}.html": Resource(plain_page(n), html) for n in range(plain)})
    out["/feed.xml"] = Resource(feed(sorted(out)), "application/rss+xml; charset=utf-8")
    out["/robots.txt"] = Resource(b"User-agent: *\nAllow: /\n", "text/plain; charset=utf-8")
    return out


def make_project(repo: Path, target: Path, *, render: bool = True, extra: str = "") -> Path:
    """A copy of the project at ``target`` with this publication (its ``[render]`` table when
    ``render``; ``extra`` TOML appended) and its spider file; crawl from there with PYTHONPATH=target."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(repo / "sacorpus", target / "sacorpus", ignore=ignore, dirs_exist_ok=True)
    shutil.copytree(repo / "publications", target / "publications", ignore=ignore, dirs_exist_ok=True)
    shutil.copy(repo / "scrapy.cfg", target / "scrapy.cfg")
    toml = PUBLICATION + (RENDER_TABLE if render else "") + extra
    (target / "publications" / f"{SLUG}.toml").write_text(toml, encoding="utf-8")
    (target / "sacorpus" / "spiders" / f"{SLUG}.py").write_text(SPIDER, encoding="utf-8")
    return target


__all__ = [
    "HOME",
    "INTERNAL_SCRIPT",
    "SLUG",
    "browser_processes",
    "live_page",
    "make_project",
    "paragraphs",
    "plain_page",
    "site",
    "start_crawl",
    "tree_rss",
]


def start_crawl(project: Path, workdir: Path, base_url: str, *args: str) -> subprocess.Popen[bytes]:
    """Start ``scrapy crawl jsnews`` from ``project`` against the site at ``base_url``, its store, JOBDIR
    and log (``crawl.log``) under ``workdir``; the caller waits for it (and may watch its memory)."""
    workdir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "scrapy", "crawl", SLUG, "-a", f"base_url={base_url}"]
    for setting in (
        "AUTOTHROTTLE_ENABLED=False",
        "DOWNLOAD_DELAY=0",
        f"SACORPUS_SQLITE_PATH={workdir / 'corpus.sqlite'}",
        f"SACORPUS_JOBDIR_ROOT={workdir / 'jobs'}",
        f"LOG_FILE={workdir / 'crawl.log'}",
        *args,
    ):
        cmd += ["-s", setting]
    env = {**os.environ, "PYTHONPATH": str(project)}
    for name in ("MONGO_URI", "SACORPUS_REDIS_URL", "REDIS_URL", "SPLASH_URL"):
        env.pop(name, None)
    return subprocess.Popen(cmd, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def tree_rss(pid: int) -> int:
    """Resident memory (bytes) of process ``pid`` and all its descendants: the crawl, Playwright's
    driver and every Chromium process."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def browser_processes(pid: int) -> int:
    """How many Chromium processes descend from ``pid``."""
    import psutil

    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return 0
    count = 0
    for child in children:
        try:
            count += "chrom" in child.name().lower()
        except psutil.NoSuchProcess:
            continue
    return count
