"""htmldate's page-wide date search with dateparser in every language, against the languages of the words.

The page core's last resort for a date is htmldate's page-wide search
(:func:`sacorpus.text.date_languages.find_page_date`). It asks dateparser, for each string, in English
and the languages that know the string's words, where htmldate asks every language. This runs the
search over every real page in ``<data>/extraction`` (a crawl reaches it only on pages nothing else
dates), once each way, each in a fresh process of its own, and prints for each way: the dates found,
CPU seconds, the Python memory the search left allocated (``tracemalloc``), the growth of resident
memory, the modules it imported and the dateparser languages it loaded; then how many pages got a
different date. It exits 1 when any page's date differs.

    python benchmarks/date_languages.py [DATA] [--limit N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _pages(data: Path, limit: int | None) -> list[Path]:
    from crawl_cost import page_files

    files = page_files(data)
    return files[:limit] if limit else files


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run(way: str, data: Path, limit: int | None) -> dict[str, Any]:
    """One way over every page, in this process (a fresh one: what was loaded is this way's)."""
    import lxml.html
    from htmldate import find_date

    from sacorpus.text.date_languages import date_words, find_page_date

    roots = []
    for path in _pages(data, limit):
        body = gzip.decompress(path.read_bytes())
        try:
            roots.append(lxml.html.document_fromstring(body))
        except Exception:  # an empty or broken page is no date question
            continue
    import dateparser  # noqa: F401  (both ways load it: not counted as the way's growth)
    from dateparser.languages.loader import default_loader

    date_words()  # the table (1.5 MB) is counted neither way

    modules, rss = len(sys.modules), _rss_kb()
    tracemalloc.start()
    cpu = time.process_time()
    dates = []
    for root in roots:
        if way == "words":
            dates.append(find_page_date(root, None))
        else:
            found = find_date(root, original_date=True, extensive_search=True)
            dates.append(found if isinstance(found, str) else None)
    cpu = time.process_time() - cpu
    held = tracemalloc.get_traced_memory()[0]
    return {
        "dates": dates,
        "cpu_s": round(cpu, 2),
        "python_mb": round(held / 1e6, 1),
        "rss_mb": round((_rss_kb() - rss) / 1024, 1),
        "modules": len(sys.modules) - modules,
        "languages": len(default_loader._loaded_locales),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(REPO.parent / "shared" / "data"))
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
    parser.add_argument("--way", choices=["all", "words"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = Path(args.data)
    if args.way:
        json.dump(run(args.way, data, args.limit), sys.stdout)
        return 0
    extra = ["--limit", str(args.limit)] if args.limit else []
    results: dict[str, dict[str, Any]] = {}
    for way in ("all", "words"):
        out = subprocess.run(
            [sys.executable, __file__, str(data), "--way", way, *extra],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        results[way] = json.loads(out)
    before, after = results["all"], results["words"]
    pages = len(before["dates"])
    found = sum(d is not None for d in before["dates"])
    differ = [i for i, (a, b) in enumerate(zip(before["dates"], after["dates"], strict=True)) if a != b]
    print(f"{pages} real pages, htmldate's page-wide search on each (a date found on {found})")
    print(
        f"{'dateparser asked in':<30} {'CPU s':>7} {'Python MB held':>15} {'RSS MB grown':>13} {'modules':>8}"
        f" {'languages loaded':>17}"
    )
    for label, r in (("every language (htmldate)", before), ("the languages of the words", after)):
        print(
            f"{label:<30} {r['cpu_s']:>7} {r['python_mb']:>15} {r['rss_mb']:>13} {r['modules']:>8}"
            f" {r['languages']:>17}"
        )
    print(f"pages whose date differs: {len(differ)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
