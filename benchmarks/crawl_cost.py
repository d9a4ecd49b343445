"""What a crawl costs per page: the whole sacorpus pipeline against a bare Scrapy + trafilatura spider.

Both crawls fetch the same N real pages (``<data>/extraction``: the trafilatura evaluation pages and the
Fundus pages, cycled when N is larger, each copy under its own URL) from one loopback SiteServer that
lists them in a sitemap index, in the same run, each in a child process of its own:

  bare    a plain Scrapy SitemapSpider calling ``trafilatura.extract`` on each page (no store)
  whole   ``scrapy crawl bench -a base_url=...`` with the project's settings: every pipeline stage,
          the dedup index and the SQLite store (a publication file written for the run, no rules)

For each: CPU-ms per page in the crawl's process from engine start to engine stop and in its page
workers (``-s SACORPUS_PAGE_WORKERS=N``), pages per second from engine start to stop, peak RSS of the
crawl's process and of the whole process tree, RSS after every 1,000 pages and at the end (flat or
growing; anonymous and file-backed apart), pages stored, the load average, and the ratio whole / bare.
``--cpus 0`` runs both crawls on one core (``taskset``), to see how a crawl scales from 1 to 2 cores. ``--profile`` runs the whole crawl under cProfile and prints the costliest
functions, grouped by pipeline stage, to see where the time goes.

    python benchmarks/crawl_cost.py [DATA] [--pages 990] [--profile] [--only whole] [--cpus 0,1] [-s NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import gzip
import inspect
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from email.message import Message
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: resident memory is noted after every this many pages (``--rss-every``)
RSS_EVERY = int(os.environ.get("CRAWL_COST_RSS_EVERY", "1000"))
#: the anonymous RSS after this many pages and at the end are printed side by side (is the heap flat?)
FLAT_FROM = 1000
PER_SITEMAP = 1000  # below SACORPUS_SOURCE_MAX_ENTRIES: every page is listed and fetched
PUBLICATION = """name = "Crawl cost bench"
home = "http://bench.sacorpus.invalid/"
domains = ["bench.sacorpus.invalid"]
languages = ["en"]
country = "ZA"
description = "Real pages served on loopback for the crawl-cost benchmark."

[sources]
sitemaps = ["http://bench.sacorpus.invalid/sitemap_index.xml"]
robots = false

[urls]
article = ['/news/\\d{4}/\\d{2}/\\d{2}/page-\\d+$']
"""


def page_files(data: Path) -> list[Path]:
    ex = data / "extraction"
    files = sorted((ex / "trafilatura_eval").glob("*/*.html.gz")) + sorted(
        (ex / "fundus_dev" / "raw").rglob("*.html.gz")
    )
    if not files:
        raise SystemExit(f"no pages under {ex}")
    return files


def page_path(i: int) -> str:
    return f"/news/2026/{1 + i % 12:02d}/{1 + i % 28:02d}/page-{100000 + i}"


class RealPages:
    """Answers the sitemap index, its sitemaps and the pages, reading each page from disk when asked
    (10,000 pages held in memory would weigh on the machine and not on the crawl)."""

    def __init__(self, files: list[Path], n: int) -> None:
        self.files = files
        self.n = n

    def __call__(self, raw_path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        path = raw_path.split("?")[0]
        xml = {"Content-Type": "application/xml"}
        if path == "/sitemap_index.xml":
            entries = "".join(
                f"<sitemap><loc>{self.base}/sitemap-{k}.xml</loc></sitemap>"
                for k in range((self.n + PER_SITEMAP - 1) // PER_SITEMAP)
            )
            return 200, xml, _xml("sitemapindex", entries)
        if path.startswith("/sitemap-") and path.endswith(".xml"):
            k = int(path[len("/sitemap-") : -4])
            urls = range(k * PER_SITEMAP, min(self.n, (k + 1) * PER_SITEMAP))
            return (
                200,
                xml,
                _xml("urlset", "".join(f"<url><loc>{self.base}{page_path(i)}</loc></url>" for i in urls)),
            )
        if path.startswith("/news/") and "/page-" in path:
            i = int(path.rsplit("-", 1)[1]) - 100000
            if 0 <= i < self.n:
                body = gzip.decompress(self.files[i % len(self.files)].read_bytes())
                return 200, {"Content-Type": "text/html"}, body
        return None

    base = "http://bench.sacorpus.invalid"


def _xml(root: str, inner: str) -> bytes:
    ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
    return f'<?xml version="1.0" encoding="UTF-8"?><{root} xmlns="{ns}">{inner}</{root}>'.encode()


# --- the child processes ------------------------------------------------------------------------


class Meter:
    """CPU from engine start to engine stop (the crawl's process and its page workers apart), wall time,
    RSS every 1,000 pages, peak RSS of the crawl's process and of the whole process tree."""

    def __init__(self, crawler: Any) -> None:
        from scrapy import signals

        self.pages = 0
        self.rss: list[str] = []
        self.cpu0 = self.cpu1 = 0.0
        self.kids0 = self.kids1 = 0.0
        self.wall0 = self.wall1 = 0.0
        self.peak_tree = 0
        self.peak_anon = 0  # MB, sampled every 100 pages and at the end
        self.anon_at: dict[str, int] = {}  # anonymous RSS MB after FLAT_FROM pages and at the end
        self.snapshot: tracemalloc.Snapshot | None = None
        crawler.signals.connect(self.started, signal=signals.engine_started)
        crawler.signals.connect(self.stopped, signal=signals.engine_stopped)
        crawler.signals.connect(self.scraped, signal=signals.item_scraped)
        self.crawler = crawler

    def started(self) -> None:
        self.cpu0, self.kids0 = time.process_time(), _children_cpu()
        self.wall0 = time.monotonic()

    def stopped(self) -> None:
        # page workers are joined when the page stage closes, before the engine stops: their CPU is in
        # RUSAGE_CHILDREN by now
        self.cpu1, self.kids1 = time.process_time(), _children_cpu()
        self.wall1 = time.monotonic()
        self.rss.append(f"end {_rss_mb()}")
        self.anon_at["end"] = _anon_mb()
        self.peak_anon = max(self.peak_anon, self.anon_at["end"])
        if self.snapshot is not None:
            now = tracemalloc.take_snapshot()
            print("Python memory held at the end, by allocation site, largest first:", file=sys.stderr)
            for stat in now.statistics("lineno")[:25]:
                frame = stat.traceback[0]
                print(
                    f"  {stat.size // 1024:8d} KB {stat.count:8d} blocks  "
                    f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}",
                    file=sys.stderr,
                )
            grown = now.compare_to(self.snapshot, "traceback")
            print(f"Python memory grown since page {RSS_EVERY}, largest first:", file=sys.stderr)
            for stat in grown[:15]:
                frames = [f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in stat.traceback]
                print(
                    f"  {stat.size_diff // 1024:8d} KB {stat.count_diff:8d} blocks  {' < '.join(frames[-4:])}",
                    file=sys.stderr,
                )

    def scraped(self, item: Any) -> None:
        self.pages += 1
        if self.pages % 100 == 0:
            self.peak_tree = max(self.peak_tree, _tree_rss_kb())
            self.peak_anon = max(self.peak_anon, _anon_mb())
        if self.pages == FLAT_FROM:
            self.anon_at[str(FLAT_FROM)] = _anon_mb()
        if self.pages % RSS_EVERY == 0:
            self.rss.append(f"{self.pages}: {_rss_mb()} tree {_tree_rss_kb() // 1024}")
            print(f"{self.crawler.spider.name}: RSS MB after {self.rss[-1]}", file=sys.stderr, flush=True)
            if self.pages == RSS_EVERY and tracemalloc.is_tracing():
                self.snapshot = tracemalloc.take_snapshot()

    def report(self) -> dict[str, Any]:
        stats = self.crawler.stats.get_stats()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return {
            "pages": self.pages,
            "cpu_s": self.cpu1 - self.cpu0,
            "workers_cpu_s": self.kids1 - self.kids0,
            "engine_wall_s": self.wall1 - self.wall0,
            "peak_mb": peak,
            "peak_tree_mb": max(peak, self.peak_tree / 1024),
            "rss": self.rss,
            "peak_anon_mb": self.peak_anon,
            "anon_at": self.anon_at,
            "stored": stats.get("sacorpus/store/stored", stats.get("item_scraped_count", 0)),
            "workers": {k.split("/")[-1]: v for k, v in stats.items() if k.startswith("sacorpus/workers/")},
            "store": {k.split("/")[-1]: v for k, v in stats.items() if k.startswith("sacorpus/store/")},
        }


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _tree_rss_kb() -> int:
    """Resident KB of this process and its children (the page workers)."""
    pids = [os.getpid()]
    for task in Path("/proc/self/task").glob("*"):
        try:
            pids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
        except OSError:
            continue
    return total


def _anon_mb() -> int:
    """Anonymous resident MB of this process: its heap, without mapped files."""
    with open("/proc/self/status") as fh:
        return next((int(line.split()[1]) // 1024 for line in fh if line.startswith("RssAnon:")), 0)


def _rss_mb() -> str:
    """Resident MB as ``total (anon + file)``: file-backed pages are the SQLite store's memory map
    (``SACORPUS_SQLITE_CACHE_MB`` x 4), which grows with the store and is given back under pressure;
    the anonymous part is the crawl's own heap, which must stay flat."""
    fields = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                fields[name] = int(value.split()[0]) // 1024
    return f"{fields.get('VmRSS', 0)} ({fields.get('RssAnon', 0)} + {fields.get('RssFile', 0)})"


def child_bare(base: str, out: Path) -> None:
    import trafilatura
    from scrapy.crawler import CrawlerProcess
    from scrapy.spiders import SitemapSpider

    class Bare(SitemapSpider):
        name = "bare"
        sitemap_urls = [base + "/sitemap_index.xml"]

        def parse(self, response: Any) -> Any:
            cpu = time.thread_time()
            text = trafilatura.extract(response.text, url=response.url)
            spent["trafilatura.extract"] = spent.get("trafilatura.extract", 0.0) + time.thread_time() - cpu
            yield {"url": response.url, "text": text}

    spent: dict[str, float] = {}

    settings = {"LOG_LEVEL": "WARNING", "TELNETCONSOLE_ENABLED": False, "CONCURRENT_REQUESTS": 16}
    settings["CONCURRENT_REQUESTS_PER_DOMAIN"] = 16
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Bare)
    meter = Meter(crawler)
    process.crawl(crawler)
    process.start()
    out.write_text(json.dumps(meter.report() | {"stages": spent}))


def child_whole(base: str, out: Path, work: Path, extra: list[str], profile: bool) -> None:
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    os.chdir(REPO)
    settings = get_project_settings()
    fast = {"AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0, "LOG_LEVEL": "WARNING"}
    fast |= {"CONCURRENT_REQUESTS_PER_DOMAIN": 16, "SACORPUS_HEALTH_ENABLED": False}
    fast |= {"SACORPUS_SQLITE_PATH": str(work / "corpus.sqlite"), "SACORPUS_JOBDIR_ROOT": str(work / "jobs")}
    fast |= {"SACORPUS_STORE_SPILL_DIR": str(work / "spill")}
    for pair in extra:
        name, _, value = pair.partition("=")
        fast[name] = value
    settings.setdict(fast, priority="cmdline")
    spent = time_stages()
    process = CrawlerProcess(settings)
    crawler = process.create_crawler("bench")
    meter = Meter(crawler)
    process.crawl(crawler, base_url=base)
    if profile:
        import cProfile

        prof = cProfile.Profile()
        prof.runcall(process.start)
        prof.dump_stats(str(work / "whole.prof"))
    else:
        process.start()
    out.write_text(json.dumps(meter.report() | {"stages": spent}))


#: stage -> (module, class, method) whose CPU is timed on the thread that runs it: the dedup and store
#: stages work on threads of their own (which cProfile does not see), the others on the reactor's
TIMED = {
    "page (300)": ("sacorpus.pipelines.page", "PagePipeline", "_here"),
    "language (400)": ("sacorpus.pipelines.language", "LanguagePipeline", "process_item"),
    "tokenize (500)": ("sacorpus.pipelines.tokenize", "TokenizePipeline", "process_item"),
    "dedup (600)": ("sacorpus.pipelines.dedup", "DedupPipeline", "_label"),
    "store (900)": ("sacorpus.pipelines.store", "BatchedStoreStage", "_write"),
    "source candidates": ("sacorpus.candidates", "SourceCandidates", "item_scraped"),
}


def time_stages() -> dict[str, float]:
    """Wrap each stage's work in a per-thread CPU clock; returns the seconds it adds up per stage."""
    import importlib

    spent: dict[str, float] = {}
    for stage, (module, name, method) in TIMED.items():
        owner = getattr(importlib.import_module(module), name)
        setattr(owner, method, _timed(getattr(owner, method), stage, spent))
    return spent


def _timed(f: Any, stage: str, spent: dict[str, float]) -> Any:
    takes = set(inspect.signature(f).parameters)  # a signal handler is offered more than it takes

    def timed(*args: Any, **kwargs: Any) -> Any:
        cpu = time.thread_time()
        try:
            return f(*args, **{k: v for k, v in kwargs.items() if k in takes})
        finally:
            spent[stage] = spent.get(stage, 0.0) + time.thread_time() - cpu

    return timed


# --- the parent --------------------------------------------------------------------------------


STAGES = {  # file fragments -> stage, for the profile summary
    "trafilatura": "extraction (trafilatura)",
    "sacorpus/text/extract.py": "extraction (sacorpus)",
    "sacorpus/text/preclean.py": "preclean",
    "sacorpus/text/metadata.py": "metadata",
    "sacorpus/text/metareaders.py": "metadata",
    "sacorpus/text/authors.py": "metadata",
    "sacorpus/text/bylines.py": "metadata",
    "sacorpus/text/dates.py": "metadata",
    "sacorpus/text/title": "metadata",
    "htmldate": "metadata",
    "dateparser": "metadata",
    "sacorpus/text/blocks.py": "preclean",
    "sacorpus/text/rules.py": "preclean",
    "sacorpus/text/linefilters.py": "extraction (sacorpus)",
    "sacorpus/text/boilerplate.py": "extraction (sacorpus)",
    "sacorpus/sources/candidates.py": "source candidates",
    "sacorpus/candidates.py": "source candidates",
    "lingua": "language",
    "punkt": "tokenize",
    "nltk": "tokenize",
    "sacorpus/text/annotate.py": "tokenize",
    "sacorpus/text/decode.py": "decode",
    "sacorpus/text/langid.py": "language",
    "sacorpus/text/tokenize.py": "tokenize",
    "sacorpus/text/analysis.py": "analysis",
    "sacorpus/text/dedup": "dedup",
    "sacorpus/storage/": "store",
    "sacorpus/pipelines/store.py": "store",
}


def profile_summary(path: Path, pages: int) -> None:
    import pstats

    st = pstats.Stats(str(path))
    print("\ncostliest functions (cumulative CPU-ms per page, whole crawl):")
    rows = sorted(st.stats.items(), key=lambda kv: kv[1][3], reverse=True)  # type: ignore[attr-defined]
    shown = 0
    for (file, line, fn), (_cc, _nc, _tt, ct, _callers) in rows:
        if "sacorpus" in file or "trafilatura" in file or "lxml" in file or "justext" in file:
            print(
                f"  {1000 * ct / pages:8.2f}  {fn} ({file.split('site-packages/')[-1].split('wt-i16crawl/')[-1]}:{line})"
            )
            shown += 1
        if shown >= 40:
            break
    print("\nown CPU-ms per page, costliest functions:")
    for (file, line, fn), (_cc, _nc, tt, _ct, _callers) in sorted(
        st.stats.items(),
        key=lambda kv: kv[1][2],
        reverse=True,  # type: ignore[attr-defined]
    )[:25]:
        print(
            f"  {1000 * tt / pages:8.2f}  {fn} ({file.split('site-packages/')[-1].split('wt-i16crawl/')[-1]}:{line})"
        )
    own: dict[str, float] = {}
    for (file, _line, _fn), (_cc, _nc, tt, _ct, _callers) in st.stats.items():  # type: ignore[attr-defined]
        stage = next((s for frag, s in STAGES.items() if frag in file), "other")
        own[stage] = own.get(stage, 0.0) + tt
    print("\nown CPU-ms per page by where the code lives:")
    for stage, tt in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {1000 * tt / pages:8.2f}  {stage}")


def memory_line(kind: str, r: dict[str, Any]) -> str:
    """``memory:`` peak RSS and the anonymous RSS at FLAT_FROM pages and at the end, and their growth."""
    anon = r.get("anon_at") or {}
    first, end = anon.get(str(FLAT_FROM)), anon.get("end")
    growth = f"{100 * (end - first) / first:+.0f}%" if first and end is not None else "n/a"
    at_first = f"{first} MB" if first is not None else f"n/a (under {FLAT_FROM} pages)"
    return (
        f"memory: {kind} peak RSS {r['peak_mb']:.0f} MB (with workers {r['peak_tree_mb']:.0f} MB), peak anon "
        f"{r.get('peak_anon_mb', 0)} MB; anon RSS {at_first} at {FLAT_FROM} pages, {end} MB at the end "
        f"({r['pages']} pages): {growth}"
    )


def run_child(kind: str, base: str, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    out = work / f"{kind}.json"
    env = dict(os.environ, SACORPUS_PUBLICATIONS_DIR=str(work / "publications"))
    env["CRAWL_COST_RSS_EVERY"] = str(args.rss_every)
    if args.tracemalloc:
        env["PYTHONTRACEMALLOC"] = "6"  # allocation sites: the costliest frames first
    cmd = ["taskset", "-c", args.cpus] if args.cpus else []
    cmd += [sys.executable, __file__, "--child", kind, "--base", base, "--work", str(work), "--out", str(out)]
    for pair in args.set or []:
        cmd += ["-s", pair]
    if args.profile and kind == "whole":
        cmd.append("--profile")
    start = time.monotonic()
    subprocess.run(cmd, check=True, env=env, cwd=REPO)
    report = dict(json.loads(out.read_text()))
    report["wall_s"] = time.monotonic() - start
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(REPO.parent / "shared" / "data"))
    parser.add_argument("--pages", type=int, default=990)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--tracemalloc", action="store_true", help="print what Python memory grew by")
    parser.add_argument("--rss-every", type=int, default=1000, help="note RSS after every N pages")
    parser.add_argument("--profile-out", help="keep the whole crawl's cProfile data in this file")
    parser.add_argument("--only", choices=["bare", "whole"])
    parser.add_argument("--cpus", help="run both crawls on these CPUs only (taskset -c, e.g. 0 or 0,1)")
    parser.add_argument("-s", "--set", action="append", help="a setting for the whole crawl (NAME=VALUE)")
    parser.add_argument("--child", choices=["bare", "whole"], help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "bare":
        child_bare(args.base, Path(args.out))
        return 0
    if args.child == "whole":
        child_whole(args.base, Path(args.out), Path(args.work), args.set or [], args.profile)
        return 0
    from sacorpus.demo.server import SiteServer

    files = page_files(Path(args.data))
    with tempfile.TemporaryDirectory(prefix="crawl-cost-") as tmp, SiteServer({}) as server:
        work = Path(tmp)
        (work / "publications").mkdir()
        (work / "publications" / "bench.toml").write_text(PUBLICATION)
        pages = RealPages(files, args.pages)
        pages.base = server.base_url
        server.add_route("/", pages)
        print(f"{args.pages} pages ({len(files)} distinct real pages) from {server.base_url}")
        reports = {
            k: run_child(k, server.base_url, work, args) for k in ("bare", "whole") if args.only in (None, k)
        }
        load = os.getloadavg()
        print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; CPUs {args.cpus or 'all'}")
        for kind, r in reports.items():
            n = max(1, r["pages"])
            print(
                f"{kind:6} {r['pages']:6d} pages  {1000 * r['cpu_s'] / n:7.1f} CPU-ms/page main"
                f"  {1000 * r['workers_cpu_s'] / n:6.1f} in workers"
                f"  {n / max(r['engine_wall_s'], 1e-9):6.1f} pages/s (engine)"
                f"  peak {r['peak_mb']:6.0f} MB main, {r['peak_tree_mb']:6.0f} MB with workers"
                f"  wall {r['wall_s']:6.1f} s  RSS MB (anon + file) {r['rss']}"
            )
            print(memory_line(kind, r))
            if r.get("store"):  # how far the store's writer fell behind (back-pressure: max_pending, waited)
                print(f"       store: {r['store']}")
            if r.get("workers"):
                print(f"       workers: {r['workers']}")
            stages = r.get("stages") or {}
            if stages:
                rest = r["cpu_s"] - sum(stages.values())
                parts = [f"{name} {1000 * s / n:.1f}" for name, s in stages.items()]
                print(
                    f"       CPU-ms/page by stage: {', '.join(parts)}; the rest (Scrapy, spider) {1000 * rest / n:.1f}"
                )
        if len(reports) == 2:
            bare, whole = reports["bare"], reports["whole"]
            per = [1000 * r["cpu_s"] / max(1, r["pages"]) for r in (bare, whole)]
            total = 1000 * (whole["cpu_s"] + whole["workers_cpu_s"]) / max(1, whole["pages"])
            print(
                f"ratio whole/bare: {per[1] / per[0]:.2f}x main process, {total / per[0]:.2f}x with workers"
            )
        if args.profile and "whole" in reports:
            profile_summary(work / "whole.prof", max(1, reports["whole"]["pages"]))
            if args.profile_out:
                shutil.copyfile(work / "whole.prof", args.profile_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
