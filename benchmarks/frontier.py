"""Frontier memory benchmark (issue 3, item 7): peak RSS of a crawl holding N queued requests,
with the JOBDIR disk queue + disk seen filter (sacorpus defaults) against Scrapy's memory queue +
in-memory RFPDupeFilter, measured in the same run.

    python benchmarks/frontier.py                 # 1,000,000 requests
    python benchmarks/frontier.py -n 200000       # quicker

Each configuration runs in its own subprocess (a fresh Twisted reactor and a clean peak-RSS
counter). A spider's start() yields N requests to a loopback server that answers at once;
CONCURRENT_REQUESTS=1 keeps downloads slow compared to enqueueing, so nearly all N requests sit in
the scheduler at the same time. After start() is exhausted the spider drains ``--drain`` more
requests from the queue (proving the disk queue is read back) and closes itself; its peak RSS (VmHWM from /proc/self/status, Linux) and the scheduler's queue length at
that moment are reported. No data files are needed (the data-path argument is accepted for the
benchmark convention only).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONFIGS = {
    # sacorpus: JOBDIR disk queue, DiskDupeFilter (SQLite seen set, bounded RAM cache), ResumableScheduler
    "disk": {},
    # Scrapy's stock frontier: memory queue (no JOBDIR) and the in-memory RFPDupeFilter
    "memory": {
        "SCHEDULER": "scrapy.core.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy.dupefilters.RFPDupeFilter",
    },
}


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- child: one crawl ---------------------------------------------------------------------------------


def child(config: str, n: int, port: int, out: str, jobdir: str, drain: int) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.exceptions import CloseSpider
    from scrapy.utils.project import get_project_settings

    class FrontierBench(scrapy.Spider):
        name = "frontier_bench"

        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.enqueued_all = False
            self.started = time.monotonic()
            self.enqueue_seconds = None
            self.queued_at_close = None
            self.queued_when_enqueued = None
            self.drained = 0

        async def start(self):
            for i in range(n):
                yield scrapy.Request(f"http://127.0.0.1:{port}/article/{i}", callback=self.parse)
            self.enqueued_all = True
            self.enqueue_seconds = time.monotonic() - self.started

        def parse(self, response):
            self.crawler.stats.inc_value("bench/parsed")
            if not self.enqueued_all:
                return
            if self.queued_when_enqueued is None:
                self.queued_when_enqueued = len(self.crawler.engine._slot.scheduler)
            self.drained += 1
            if self.drained >= drain:
                self.queued_at_close = len(self.crawler.engine._slot.scheduler)
                raise CloseSpider("all_enqueued_and_drained")

        def closed(self, reason):
            result = {
                "config": config,
                "n": n,
                "reason": reason,
                "peak_rss_mb": peak_rss_mb(),
                "enqueue_seconds": self.enqueue_seconds,
                "queued_at_close": self.queued_at_close,
                "queued_when_enqueued": self.queued_when_enqueued,
                "parsed": self.crawler.stats.get_value("bench/parsed", 0),
                "filtered": self.crawler.stats.get_value("dupefilter/filtered", 0),
            }
            Path(out).write_text(json.dumps(result))

    settings = get_project_settings()
    settings.setdict(
        {
            "JOBDIR": jobdir if config == "disk" else None,
            "SACORPUS_JOBDIR_ROOT": None,
            "ITEM_PIPELINES": {},
            "EXTENSIONS": {},
            "ROBOTSTXT_OBEY": False,
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS": 1,
            "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False,
            "SACORPUS_STORE_ENABLED": False,
            "MEMUSAGE_ENABLED": False,
            "RETRY_ENABLED": False,
            # the benchmark's own loopback server is the one address the guard lets through
            "SACORPUS_ALLOWED_HOSTS": [f"127.0.0.1:{port}"],
            **CONFIGS[config],
        },
        priority="cmdline",
    )
    process = CrawlerProcess(settings)
    process.crawl(FrontierBench)
    process.start()


# --- parent: server, both runs, report --------------------------------------------------------------------


def _ok(_path: str, _headers: object) -> tuple[int, dict[str, str], bytes]:
    """Every request is answered at once with a tiny body (the benchmark measures the queue, not pages)."""
    return 200, {"Content-Type": "text/plain"}, b"ok"


def run(config: str, n: int, port: int, timeout: float, drain: int) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"frontier-{config}-") as tmp:
        out = Path(tmp, "result.json")
        t0 = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                config,
                "-n",
                str(n),
                "--port",
                str(port),
                "--out",
                str(out),
                "--jobdir",
                str(Path(tmp, "job")),
                "--drain",
                str(drain),
            ],
            cwd=REPO,
            timeout=timeout,
            capture_output=True,
            text=True,
        )
        if not out.exists():
            raise SystemExit(f"{config} run failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        result = json.loads(out.read_text())
        result["wall_seconds"] = round(time.monotonic() - t0, 1)
        return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "data", nargs="?", default=str(REPO.parent / "shared" / "data"), help="unused (convention)"
    )
    ap.add_argument("-n", type=int, default=1_000_000, help="requests queued per run")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per run")
    ap.add_argument("--drain", type=int, default=2000, help="requests answered after all are enqueued")
    ap.add_argument("--child", choices=sorted(CONFIGS))
    ap.add_argument("--port", type=int)
    ap.add_argument("--out")
    ap.add_argument("--jobdir")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.n, args.port, args.out, args.jobdir, args.drain)
        return
    from sacorpus.demo.server import SiteServer

    with SiteServer({}) as server:  # the project's one loopback server, answering every path
        server.add_route("/", _ok)
        port = int(server.base_url.rsplit(":", 1)[1])
        results = {c: run(c, args.n, port, args.timeout, args.drain) for c in ("disk", "memory")}
    for r in results.values():
        print(
            f"{r['config']:>6}: peak RSS {r['peak_rss_mb']:7.1f} MB | {r['n']:,} requests enqueued in "
            f"{r['enqueue_seconds']:.1f} s, {r['queued_when_enqueued']:,} queued at once, "
            f"{r['parsed']:,} answered, {r['queued_at_close']:,} left | wall {r['wall_seconds']} s"
        )
    disk, mem = results["disk"]["peak_rss_mb"], results["memory"]["peak_rss_mb"]
    ratio = disk / mem
    print(f"ratio disk/memory peak RSS: {ratio:.3f}  (goal: disk <= 300 MB and ratio <= 0.25)")
    print("goal met" if disk <= 300 and ratio <= 0.25 else "goal NOT met")


if __name__ == "__main__":
    main()
