"""What the publication check and source-candidate recording cost, against a baseline in the same run.

1. ``scrapy check-publications`` work per publication (one source, one article, the page core), on every
   shipped publication's fixture site served on loopback; baseline: the page core alone on the same
   articles (what a crawl spends on them anyway).
2. Source-candidate detection per crawled page (``find_candidates`` on the decoded HTML, as the
   extension runs it on every stored article); baseline: the page core on the same page.

    python benchmarks/publication_check.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from sacorpus.demo.server import SiteServer
from sacorpus.health.checkup import check_publication
from sacorpus.health.probe import Probe
from sacorpus.publications import load_all
from sacorpus.sources.candidates import find_candidates
from sacorpus.text.page import process_page

SITES = Path(__file__).resolve().parents[1] / "tests" / "sites"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pubs = {s: p for s, p in load_all().items() if (SITES / s / "expected.json").is_file() and s != "demo"}
    check_s, core_s, find_s, page_s, pages, found = [], [], [], [], 0, 0
    for slug, pub in sorted(pubs.items()):
        with SiteServer.from_directory(SITES / slug) as server:
            probe = Probe(pub, user_agent="bench", timeout=10, max_bytes=1 << 22, base_url=server.base_url)
            for _ in range(args.repeat):
                start = time.perf_counter()
                check = check_publication(pub, probe)
                check_s.append(time.perf_counter() - start)
            if check.article:
                body = probe(check.article).body
                start = time.perf_counter()
                process_page(body, {}, check.article, pub)
                core_s.append(time.perf_counter() - start)
        for file in (SITES / slug).rglob("*.html"):
            html = file.read_text("utf-8")
            url = pub.home.rstrip("/") + "/" + file.relative_to(SITES / slug).as_posix()
            start = time.perf_counter()
            process_page(html.encode(), {}, url, pub)
            page_s.append(time.perf_counter() - start)
            start = time.perf_counter()
            found += len(find_candidates(html, url, pub.owns))
            find_s.append(time.perf_counter() - start)
            pages += 1
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    print(f"publications checked: {len(pubs)} (x{args.repeat})")
    print(
        f"check per publication: median {ms(check_s):.1f} ms (page core alone on its article: {ms(core_s):.1f} ms)"
    )
    print(
        f"candidate detection per page: median {ms(find_s):.2f} ms vs page core {ms(page_s):.1f} ms "
        f"({100 * sum(find_s) / sum(page_s):.1f}% of the core) on {pages} fixture pages; {found} candidates"
    )


if __name__ == "__main__":
    main()
