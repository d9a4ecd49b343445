"""Rendering cost: a crawl of N script-built pages rendered in Chromium against the same crawl without
a browser (the baseline), measured in the same run.

    python benchmarks/rendering.py              # 200 pages
    python benchmarks/rendering.py -n 400 --max-pages 4

The site is sacorpus.testing.jssite on a loopback SiteServer; each crawl is a real ``scrapy crawl``
subprocess from a copy of the project. While it runs, the resident memory of its whole process tree
(crawler, Playwright driver, Chromium processes; RSS summed, so shared pages count once per process)
is sampled with psutil together with the number of pages served. Reported per configuration: wall
time, pages per second, peak RSS, RSS peak after the first 50 pages and over the last 50, browser
pages opened and the most open at once, and whether the script-built text was extracted.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sacorpus.demo.server import SiteServer  # noqa: E402
from sacorpus.storage.sqlite import SQLiteStore  # noqa: E402
from sacorpus.testing import jssite  # noqa: E402

MB = 1024 * 1024


def run(pages: int, render: bool, max_pages: int, root: Path) -> dict[str, float | int | str]:
    project = jssite.make_project(REPO, root / "project", render=render)
    samples: list[tuple[int, int]] = []
    with SiteServer(jssite.site(pages, 0)) as server:
        start = time.monotonic()
        proc = jssite.start_crawl(
            project, root / "run", server.base_url, f"SACORPUS_RENDER_MAX_PAGES={max_pages}", "JOBDIR="
        )
        while proc.poll() is None:
            served = sum(1 for _m, path in list(server.requests) if path.startswith("/live/"))
            samples.append((served, jssite.tree_rss(proc.pid)))
            time.sleep(0.2)
        wall = time.monotonic() - start
    log = (root / "run" / "crawl.log").read_text()
    stats = {
        k: int(v)
        for k, v in re.findall(r"'([\w/.-]+)': (\d+)[,}]", log.rsplit("Dumping Scrapy stats", 1)[-1])
    }
    store = SQLiteStore(str(root / "run" / "corpus.sqlite"))
    store.open()
    texts = [a.get("text") or "" for a in store.iter_articles(fields=["text"])]
    store.close()
    found = sum(1 for n in range(pages) if any(jssite.paragraphs(n)[1] in t for t in texts))
    after50 = [rss for served, rss in samples if 50 <= served <= 75] or [0]
    last50 = [rss for served, rss in samples if served >= pages - 50] or [0]
    return {
        "exit": proc.returncode,
        "wall_s": round(wall, 1),
        "pages_per_s": round(pages / wall, 2),
        "peak_rss_mb": round(max(r for _s, r in samples) / MB) if samples else 0,
        "rss_after_50_mb": round(max(after50) / MB),
        "rss_last_50_mb": round(max(last50) / MB),
        "browser_pages": stats.get("playwright/page_count", 0),
        "max_open_pages": stats.get("playwright/page_count/max_concurrent", 0),
        "text_found": f"{found}/{pages}",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--pages", type=int, default=200)
    parser.add_argument("--max-pages", type=int, default=4, help="SACORPUS_RENDER_MAX_PAGES")
    opts = parser.parse_args()
    results = {}
    for name, render in (("baseline (no browser)", False), ("rendered (Chromium)", True)):
        with tempfile.TemporaryDirectory(prefix="sacorpus-render-bench-") as tmp:
            results[name] = run(opts.pages, render, opts.max_pages, Path(tmp))
    keys = list(next(iter(results.values())))
    print(f"{'':24}" + "".join(f"{k:>16}" for k in keys))
    for name, row in results.items():
        print(f"{name:24}" + "".join(f"{row[k]!s:>16}" for k in keys))
    return 0 if all(r["exit"] == 0 for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
