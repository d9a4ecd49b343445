"""Faults injected into real crawls of a 1,000+ article loopback site: what is lost, doubled or mislabelled.

Each scenario runs ``scrapy crawl demo -a base_url=...`` as a user would, against a generated Demo
Gazette (``sacorpus.demo.bigsite``: N articles, every twentieth a syndicated copy published after its
original but listed before it), injects one fault, lets the next run do its recovery (resume, spill
re-import, catch-up labelling) and then counts, in the store:

  lost        articles of the site not in the store
  twice       rows beyond one per URL
  reset       rows with text but no dedup label
  unfp        rows with text but no fingerprint in the dedup index
  relabel     rows whose label differs from what ``scrapy dedup --rebuild`` gives
  orig!=uniq  originals (published first) not labelled ``unique``
  exits       the exit status of each run of the scenario (the fault run first)

Faults: kill -9 mid-crawl and resume (SQLite, MongoDB); the MongoDB-wire server (SecantusDB) stopped
mid-crawl for ``--outage`` seconds and restarted (articles/s during the outage); an unreachable store
at start (seconds to stop); SQLite locked by another writer mid-crawl with the spill directory on
another path; a page too large for one MongoDB document. Slow (several minutes per scenario); not CI.

    python benchmarks/faults.py [--articles 1200] [--outage 90] [--only kill9-sqlite,outage-mongo]
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sacorpus.demo.bigsite import BigSite, build_big_site
from sacorpus.demo.server import SiteServer
from sacorpus.storage.base import ArticleStore
from sacorpus.storage.mongo import MongoStore
from sacorpus.storage.sqlite import SQLiteStore
from sacorpus.testing.mongo import RestartableMongo
from sacorpus.testing.servers import free_port
from sacorpus.text.dedup import DedupConfig
from sacorpus.text.dedup_rebuild import rebuild_index

REPO = Path(__file__).resolve().parent.parent
PUBLIC = "http://demo.sacorpus.invalid"
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "LOG_LEVEL=INFO"]


@dataclass
class Outcome:
    name: str
    exits: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class Crawl:
    """``scrapy crawl demo`` against the site, with its store, JOBDIR and spill directory under ``work``."""

    def __init__(self, base_url: str, work: Path, env: dict[str, str] | None = None) -> None:
        self.base_url, self.work, self.env = base_url, work, env or {}
        self.runs = 0

    def command(self, *extra: str) -> list[str]:
        w = self.work
        return [
            sys.executable, "-m", "scrapy", "crawl", "demo", "-a", f"base_url={self.base_url}", *FAST,
            "-s", f"SACORPUS_SQLITE_PATH={w / 'store' / 'corpus.sqlite'}",
            "-s", f"SACORPUS_JOBDIR_ROOT={w / 'jobs'}",
            "-s", f"SACORPUS_STORE_SPILL_DIR={w / 'spill'}",
            *extra,
        ]  # fmt: skip

    def start(self, *extra: str) -> subprocess.Popen[bytes]:
        self.runs += 1
        env = {**os.environ, **self.env}
        for name in ("MONGO_URI", "SACORPUS_REDIS_URL", "REDIS_URL"):
            if name not in self.env:
                env.pop(name, None)
        log = open(self.work / f"run{self.runs}.log", "wb")  # noqa: SIM115 - the crawl writes it
        return subprocess.Popen(self.command(*extra), cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)

    def run(self, *extra: str, timeout: float = 1800) -> int:
        proc = self.start(*extra)
        return proc.wait(timeout)

    def log(self, n: int) -> str:
        return (self.work / f"run{n}.log").read_text(errors="replace")


@contextmanager
def served(site: BigSite) -> Iterator[str]:
    server = SiteServer(site.resources).start()
    try:
        yield server.base_url
    finally:
        server.stop()


def sqlite_store(work: Path) -> ArticleStore:
    return SQLiteStore(str(work / "store" / "corpus.sqlite"), spill_path=None)


def stored_count(open_store: Callable[[], ArticleStore]) -> int:
    try:
        with open_store() as store:
            return store.count()
    except Exception:
        return 0


def wait_until(cond: Callable[[], bool], proc: subprocess.Popen[bytes], timeout: float = 1200) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if proc.poll() is not None or time.monotonic() > end:
            raise RuntimeError("the crawl ended before the fault could be injected")
        time.sleep(0.5)


def measure(store: ArticleStore, site: BigSite, out: Outcome) -> None:
    """Count losses, doubles, resets, missing fingerprints, labels a rebuild changes, and originals."""
    rows = list(store.iter_articles(fields=["url", "text", "dedup_label", "dedup_evidence", "problems"]))
    urls = [r["url"] for r in rows]
    expected = {PUBLIC + a.path for a in site.articles}
    with_text = [r for r in rows if (r.get("text") or "").strip()]
    fps = store.dedup_fingerprints([r["url"] for r in with_text])
    labels = {r["url"]: r.get("dedup_label") for r in rows}
    by_id = {a.id: PUBLIC + a.path for a in site.articles}
    out.counts.update(
        stored=len(rows),
        lost=len(expected - set(urls)),
        twice=len(urls) - len(set(urls)),
        reset=sum(1 for r in with_text if not r.get("dedup_label")),
        unfp=sum(1 for r in with_text if r["url"] not in fps),
        trimmed=sum(1 for r in rows if any("store:trimmed" in str(p) for p in r.get("problems") or [])),
    )
    out.counts["orig!=uniq"] = sum(1 for o in site.copies.values() if labels.get(by_id[o]) != "unique")
    rebuild_index(store, DedupConfig(), progress=False)
    after = {r["url"]: r.get("dedup_label") for r in store.iter_articles(fields=["dedup_label"])}
    out.counts["relabel"] = sum(1 for u, label in labels.items() if after.get(u) != label)


def spill_files(work: Path) -> int:
    return len(list((work / "spill").glob("*.jsonl"))) if (work / "spill").is_dir() else 0


# --- scenarios ---------------------------------------------------------------------------------------


def baseline(site: BigSite, base: str, work: Path, args: argparse.Namespace) -> Outcome:
    out = Outcome("baseline-sqlite")
    crawl = Crawl(base, work)
    t0 = time.monotonic()
    out.exits.append(crawl.run())
    out.notes.append(f"{len(site.articles) / (time.monotonic() - t0):.1f} articles/s")
    with sqlite_store(work) as store:
        measure(store, site, out)
    return out


def kill9(site: BigSite, base: str, work: Path, args: argparse.Namespace, mongo: bool) -> Outcome:
    out = Outcome("kill9-mongo" if mongo else "kill9-sqlite")
    with mongo_daemon(work, mongo) as daemon:
        env = {"MONGO_URI": daemon.uri, "MONGO_DATABASE": "faults"} if daemon else {}
        opener = (lambda: MongoStore(daemon.uri, "faults")) if daemon else (lambda: sqlite_store(work))
        crawl = Crawl(base, work, env)
        for k in range(3):  # kill -9 three times, at 1/4, 2/4 and 3/4 of the site, then let it finish
            proc = crawl.start()
            target = len(site.articles) * (k + 1) // 4
            wait_until(lambda t=target: stored_count(opener) >= t, proc)
            proc.send_signal(signal.SIGKILL)
            out.exits.append(proc.wait())
        out.exits.append(crawl.run())
        out.exits.append(crawl.run())  # the next run: nothing new, exit 0
        with opener() as store:
            measure(store, site, out)
    return out


@contextmanager
def mongo_daemon(work: Path, wanted: bool = True) -> Iterator[RestartableMongo | None]:
    if not wanted:
        yield None
        return
    daemon = RestartableMongo(str(work))
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.stop()


def outage(site: BigSite, base: str, work: Path, args: argparse.Namespace) -> Outcome:
    out = Outcome(f"outage-mongo-{args.outage}s")
    with mongo_daemon(work) as daemon:
        assert daemon is not None
        crawl = Crawl(base, work, {"MONGO_URI": daemon.uri, "MONGO_DATABASE": "faults"})
        exported = work / "items.jsonl"
        proc = crawl.start("-O", str(exported))
        wait_until(
            lambda: stored_count(lambda: MongoStore(daemon.uri, "faults")) >= len(site.articles) // 4, proc
        )
        daemon.stop()
        before, t0 = _lines(exported), time.monotonic()
        while time.monotonic() - t0 < args.outage and proc.poll() is None:
            time.sleep(1)
        during, seconds = _lines(exported) - before, time.monotonic() - t0
        daemon.start()
        out.exits.append(proc.wait(3600))
        out.notes.append(f"{during} articles in the {seconds:.0f} s outage: {during / seconds:.1f}/s")
        if proc.poll() is not None:
            out.notes.append("(the crawl ended while the server was down)")
        out.notes.append(f"spill files after the fault run: {spill_files(work)}")
        out.exits.append(crawl.run())  # the next run re-imports the spill file
        out.notes.append(f"spill files after the next run: {spill_files(work)}")
        with MongoStore(daemon.uri, "faults") as store:
            measure(store, site, out)
    return out


def _lines(path: Path) -> int:
    try:
        with path.open("rb") as fh:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    except FileNotFoundError:
        return 0


def unreachable(site: BigSite, base: str, work: Path, args: argparse.Namespace) -> Outcome:
    out = Outcome("unreachable-mongo-at-start")
    crawl = Crawl(base, work, {"MONGO_URI": f"mongodb://127.0.0.1:{free_port()}", "MONGO_DATABASE": "faults"})
    t0 = time.monotonic()
    out.exits.append(crawl.run(timeout=600))
    log = crawl.log(1)
    stamps = [line[:19] for line in log.splitlines() if line[:4].isdigit() and line[19:21] == " ["]
    span = (_when(stamps[-1]) - _when(stamps[0])) if stamps else float("nan")
    out.notes.append(f"stopped {time.monotonic() - t0:.1f} s after the command started ({span:.0f} s of log)")
    last = [line for line in log.splitlines() if "ERROR" in line]
    out.notes.append(f"error lines: {len(last)}; {last[0][-160:] if last else ''}")
    out.counts["fetched"] = crawl.log(1).count("DEBUG: Crawled")
    return out


def _when(stamp: str) -> float:
    return time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S"))


def sqlite_locked(site: BigSite, base: str, work: Path, args: argparse.Namespace) -> Outcome:
    """Another writer holds the SQLite file for a while mid-crawl (as a full or read-only disk makes
    every write fail); the spill directory is on another path."""
    out = Outcome("sqlite-locked-mid-crawl")
    crawl = Crawl(base, work, {})
    proc = crawl.start("-s", "SACORPUS_SQLITE_TIMEOUT=1")
    wait_until(lambda: stored_count(lambda: sqlite_store(work)) >= len(site.articles) // 4, proc)
    db = sqlite3.connect(work / "store" / "corpus.sqlite", timeout=60)
    db.execute("BEGIN EXCLUSIVE")
    stop = threading.Event()
    stop.wait(min(args.outage, 60))
    db.rollback()
    db.close()
    out.exits.append(proc.wait(3600))
    out.notes.append(f"spill files after the fault run: {spill_files(work)}")
    out.exits.append(crawl.run())
    out.notes.append(f"spill files after the next run: {spill_files(work)}")
    with sqlite_store(work) as store:
        measure(store, site, out)
    return out


def huge_page(site: BigSite, base: str, work: Path, args: argparse.Namespace) -> Outcome:
    out = Outcome("page-over-16MB-mongo")
    with mongo_daemon(work) as daemon:
        assert daemon is not None
        crawl = Crawl(base, work, {"MONGO_URI": daemon.uri, "MONGO_DATABASE": "faults"})
        out.exits.append(crawl.run())
        out.exits.append(crawl.run())  # later runs are not poisoned
        out.notes.append(f"spill files: {spill_files(work)}")
        with MongoStore(daemon.uri, "faults") as store:
            measure(store, site, out)
    return out


SCENARIOS: dict[str, Callable[..., Outcome]] = {
    "baseline-sqlite": baseline,
    "kill9-sqlite": lambda *a: kill9(*a, mongo=False),
    "kill9-mongo": lambda *a: kill9(*a, mongo=True),
    "outage-mongo": outage,
    "unreachable-mongo": unreachable,
    "sqlite-locked": sqlite_locked,
    "huge-page-mongo": huge_page,
}

COLUMNS = ("stored", "lost", "twice", "reset", "unfp", "relabel", "orig!=uniq", "trimmed")


def table(outcomes: list[Outcome]) -> str:
    head = f"{'scenario':<28}" + "".join(f"{c:>11}" for c in COLUMNS) + "  exits"
    lines = [head, "-" * len(head)]
    for o in outcomes:
        cells = "".join(f"{o.counts.get(c, '-')!s:>11}" for c in COLUMNS)
        lines.append(f"{o.name:<28}{cells}  {o.exits}")
        lines.extend(f"{'':<28}{note}" for note in o.notes)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--articles", type=int, default=1200)
    ap.add_argument("--outage", type=int, default=90, help="seconds the MongoDB-wire server is down")
    ap.add_argument("--outage-at", type=float, default=0.1, help="share of the site stored when it starts")
    ap.add_argument("--huge-mb", type=int, default=24, help="size of the page too large for MongoDB")
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(SCENARIOS)
    outcomes = []
    for name in names:
        site = build_big_site(args.articles, huge_mb=args.huge_mb if name == "huge-page-mongo" else 0)
        work = Path(tempfile.mkdtemp(prefix=f"sacorpus-faults-{name}-"))
        started = time.monotonic()
        with served(site) as base:
            outcome = SCENARIOS[name](site, base, work, args)
        outcome.notes.append(f"{time.monotonic() - started:.0f} s in all; work dir {work}")
        outcomes.append(outcome)
        print(table([outcome]), flush=True)
    print(f"\n{args.articles} articles (+ copies every 20th)\n" + table(outcomes))


if __name__ == "__main__":
    main()
