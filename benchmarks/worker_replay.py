"""How often a page worker's result is taken, and whether every taken result is the in-process one.

With ``SACORPUS_PAGE_WORKERS`` a worker answers the publication's line history from a replica and the
crawl's process replays the record (:func:`sacorpus.text.page_work.replay`); a refused record costs
the page a second computation, in the end in the crawl's process. This runs N real pages
(``<data>/extraction``, cycled, one publication, URLs repeating every ``--urls``) in one process, as
the crawl's process sees them: each page against a copy of the history as it stood (a replica told
every commit), its record replayed; beside it the in-process page stage on a history of its own. It
prints the records refused by the replay, the records refused by the rule it replaced in the same
run (the baseline: any question after the page told the same table something), the taken results
that differ from the in-process ones in any field but ``fetched_at``, and whether the two histories
end the same.

    python benchmarks/worker_replay.py [DATA] [--pages 2396] [--urls 50]
"""

from __future__ import annotations

import argparse
import copy
import gzip
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from crawl_cost import page_files  # noqa: E402

from sacorpus.items import Article  # noqa: E402
from sacorpus.text.boilerplate import LineHistory  # noqa: E402
from sacorpus.text.page import PageOptions  # noqa: E402
from sacorpus.text.page_work import Event, RecordingHistory, page_stage, replay  # noqa: E402


def strict_refuses(events: list[Event]) -> bool:
    """The rule before: a question after the page told the same table anything is refused."""
    told: set[str] = set()
    for event in events:
        table = event[0][:-1]
        if event[0].endswith("+"):
            told.add(table)
        elif table in told:
            return True
    return False


def fields(item: Article) -> dict[str, Any]:
    return {**item.__dict__, "fetched_at": None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(REPO.parent / "shared" / "data"))
    parser.add_argument("--pages", type=int, default=2396)
    parser.add_argument("--urls", type=int, default=50, help="distinct URLs the pages cycle through")
    args = parser.parse_args()
    files = page_files(Path(args.data))
    crawl, reference = LineHistory(), LineHistory()
    refused = strict = differ = 0
    options = PageOptions()
    for i in range(args.pages):
        body = gzip.decompress(files[i % len(files)].read_bytes())
        url = f"http://bench.sacorpus.invalid/news/2026/01/01/page-{i % args.urls}"

        def article(body: bytes = body, url: str = url) -> Article:
            return Article(url=url, body=body, headers={"Content-Type": "text/html"}, publication="b")

        worker = article()
        record = RecordingHistory(copy.deepcopy(crawl))
        page_stage(worker, None, None, options, record)
        here = article()
        page_stage(here, None, None, options, reference)
        strict += strict_refuses(record.events)
        if replay(crawl, record.events):
            differ += fields(worker) != fields(here)
        else:
            refused += 1
            page_stage(article(), None, None, options, crawl)
    same = list(crawl._titles.items()) == list(reference._titles.items()) and list(
        crawl._pages.items()
    ) == list(reference._pages.items())
    print(f"{args.pages} pages ({len(files)} distinct real pages, {args.urls} URLs)")
    print(f"records refused: {refused} ({100 * refused / args.pages:.1f}%); the strict rule: {strict}")
    print(f"taken results that differ from the in-process page stage: {differ}")
    print(f"history the same as the in-process one at the end: {same}")
    return 0 if differ == 0 and same else 1


if __name__ == "__main__":
    sys.exit(main())
