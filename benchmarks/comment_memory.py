"""Memory of reading one long comment thread: N comments over N/50 API pages against a baseline thread of
a tenth of the size, measured in the same run.

    python benchmarks/comment_memory.py             # 5,000 comments over 100 pages (baseline 500 / 10)
    python benchmarks/comment_memory.py -n 1000

The thread is served by the loopback Disqus replay (sacorpus.demo.disqus, posts generated when asked
for); the crawl is a real ``scrapy crawl demo -a sources=comments`` subprocess whose store already knows
the thread, so it reads nothing but the thread. Reported per size: wall time, comments stored, API pages
read, and the crawl's peak RSS (``ru_maxrss`` of that one process, from ``os.wait4``). Reading page by page
keeps the peak near the baseline's; a reader that gathered the thread first would grow with it. Part of
what grows is the SQLite page cache filling with the growing file (``--cache-mb`` bounds it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sacorpus.demo.disqus import DisqusReplay, GeneratedPosts, Thread  # noqa: E402
from sacorpus.demo.server import SiteServer  # noqa: E402
from sacorpus.demo.site import build_site  # noqa: E402
from sacorpus.sources.comment_threads import new_thread  # noqa: E402
from sacorpus.sources.dates import utc_now_iso  # noqa: E402
from sacorpus.storage.sqlite import SQLiteStore  # noqa: E402

ARTICLE = (
    "http://demo.sacorpus.invalid/news/2026/11/02/tshwane-water-outage-extended-in-eastern-suburbs-12301"
)
PAGE = 50


def run(n: int, root: Path, cache_mb: int) -> dict[str, float | int]:
    root.mkdir(parents=True)
    db = root / "corpus.sqlite"
    with SQLiteStore(str(db)) as store:  # the thread was found on an earlier run
        key = "disqus:demogazette:demo-12301"
        store.set_thread(
            new_thread(
                key, "demo", ARTICLE, "disqus", utc_now_iso(), forum="demogazette", identifier="demo-12301"
            )
        )
    replay = DisqusReplay(
        [Thread("7001", "demogazette", ident="demo-12301", posts=GeneratedPosts(n, "7001"))]
    )
    with SiteServer(build_site()) as server:
        api = replay.install(server, "/disqus")
        cmd = [sys.executable, "-m", "scrapy", "crawl", "demo", "-a", f"base_url={server.base_url}"]
        cmd += [
            "-a",
            "sources=comments",
            "-s",
            f"SACORPUS_DISQUS_API_BASE={api}",
            "-s",
            f"SACORPUS_DISQUS_PAGE_SIZE={PAGE}",
        ]
        cmd += ["-s", f"SACORPUS_SQLITE_PATH={db}", "-s", "JOBDIR=", "-s", "LOG_LEVEL=WARNING"]
        cmd += ["-s", f"SACORPUS_SQLITE_CACHE_MB={cache_mb}"]
        cmd += [
            "-s",
            f"SACORPUS_STORE_SPILL_DIR={root / 'spill'}",
            "-s",
            "AUTOTHROTTLE_ENABLED=False",
            "-s",
            "DOWNLOAD_DELAY=0",
        ]
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - start
    with SQLiteStore(str(db)) as store:
        stored = store.count_comments()
    return {
        "comments": n,
        "exit": os.waitstatus_to_exitcode(status),
        "stored": stored,
        "pages": replay.requests.get("listPostsThreaded", 0),
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=5000, help="comments in the long thread")
    parser.add_argument(
        "--cache-mb",
        type=int,
        default=64,
        help="SACORPUS_SQLITE_CACHE_MB (the store's page cache grows with its file)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [
            run(max(PAGE, args.n // 10), Path(tmp) / "baseline", args.cache_mb),
            run(args.n, Path(tmp) / "long", args.cache_mb),
        ]
    for label, r in zip(("baseline", "long thread"), results, strict=True):
        print(f"{label:12} " + "  ".join(f"{k}={v}" for k, v in r.items()))
    base, long = results
    print(
        f"peak RSS growth for {long['comments'] / base['comments']:.0f}x the comments: "
        f"{long['peak_rss_mb'] - base['peak_rss_mb']:+.1f} MB ({long['peak_rss_mb'] / base['peak_rss_mb']:.2f}x)"
    )


if __name__ == "__main__":
    main()
