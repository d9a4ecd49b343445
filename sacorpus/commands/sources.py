"""``scrapy sources [SLUG...] [--candidates [--sort count|last_seen|first_seen|host] [--limit N]] [--json]``.

Why: without ``--candidates`` it lists the sources each publication is read from (feeds, sitemaps, news
sitemaps, section pages, Wayback), the first thing to look at when a publication goes quiet. With
``--candidates`` it lists the feeds and sitemaps of *other* sites that crawled pages linked to (recorded
by the crawl, never fetched), with how often and when they were seen: the publications to add next.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from sacorpus.corpus.cli import open_corpus
from sacorpus.publications import PublicationError, load_all, load_publication, publication_slugs
from sacorpus.sources.urls import owner_of
from sacorpus.storage.base import CANDIDATE_SORTS, StorageError

ALL = 1_000_000  # --new-only filters after reading, so it reads every candidate
COLUMNS = ("count", "kind", "first_seen", "last_seen", "url", "known", "publications")


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[SLUG ...] [--candidates [--sort KEY] [--limit N]] [--json]"

    def short_desc(self) -> str:
        return "List each publication's sources, or other sites' feeds and sitemaps seen while crawling"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--candidates", action="store_true", help="other sites' feeds/sitemaps seen")
        parser.add_argument(
            "--sort", choices=sorted(CANDIDATE_SORTS), default="count", help="candidate order"
        )
        parser.add_argument("--limit", type=int, default=100, help="candidates listed (default 100)")
        parser.add_argument("--new-only", action="store_true", help="hide hosts a publication already covers")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if opts.limit < 1:
            raise UsageError("--limit must be at least 1", print_help=False)
        if opts.candidates:
            if args:
                raise UsageError("--candidates lists every publication's sightings", print_help=False)
            self._candidates(opts)
        else:
            self._configured(args, opts)

    def _fail(self, code: int, problem: Exception) -> None:
        self.exitcode = code
        print(f"sources: {problem}")

    def _candidates(self, opts: argparse.Namespace) -> None:
        assert self.settings is not None
        try:
            known = load_all(self.settings.get("SACORPUS_PUBLICATIONS_DIR") or None)
            with open_corpus(self.settings) as store:
                found = store.source_candidates(opts.sort, ALL if opts.new_only else opts.limit)
        except (StorageError, PublicationError) as exc:
            return self._fail(1, exc)
        for c in found:  # a host a publication already covers: its other feeds, not a new publication
            owner = owner_of(str(c["url"]), known.values())
            c["known"] = owner.slug if owner else None
        found = [c for c in found if not (opts.new_only and c["known"])][: opts.limit]
        if not found and not opts.json:
            print("no source candidates recorded yet (a crawl records them)")
            return None
        rows = [[*(str(c[k] or "-") for k in COLUMNS[:-1]), ",".join(c["publications"])] for c in found]
        return _emit(found, [list(COLUMNS), *rows], opts.json)

    def _configured(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        directory = self.settings.get("SACORPUS_PUBLICATIONS_DIR") or None
        rows: list[dict[str, Any]] = []
        try:
            for slug in args or publication_slugs(directory):
                src = load_publication(slug, directory).sources
                kinds = (
                    ("feed", src.feeds),
                    ("sitemap", src.sitemaps),
                    ("news_sitemap", src.news_sitemaps),
                    ("section", src.start_urls),
                    ("wayback", src.wayback.prefixes + src.wayback.domains if src.wayback else ()),
                )
                rows += [{"publication": slug, "kind": k, "url": u} for k, urls in kinds for u in urls]
        except PublicationError as exc:
            return self._fail(2, exc)
        return _emit(rows, [[r["publication"], r["kind"], r["url"]] for r in rows], opts.json)


def _emit(records: list[dict[str, Any]], lines: list[list[str]], as_json: bool) -> None:
    """JSON of the records, or tab-separated lines (for cut, sort and spreadsheets)."""
    if as_json:
        print(json.dumps(records, ensure_ascii=False, indent=2))
        return
    for line in lines:
        print("\t".join(line))
