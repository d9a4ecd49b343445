"""``scrapy check-publications [SLUG...] [--json] [--base-url URL]``: is each publication still readable?

Why a command: the daily health run of a machine with internet. For each publication it fetches one
feed or sitemap and one article that source lists, runs the crawl's page core with the publication's
rules, and reports whether text, title, authors and date still come out and which rule version applied.
The exit status is non-zero when a publication is broken (no source answers, no article, empty text,
no title), so cron and systemd alert on it. ``--base-url`` (or SACORPUS_SOURCE_BASE) fetches from a
mirror or fixture site, as ``-a base_url=`` does for a crawl.
"""

from __future__ import annotations

import argparse
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from sacorpus.health.checkup import CheckResult, check_publication, report_json, report_line, report_table
from sacorpus.health.probe import Probe
from sacorpus.publications import Publication, PublicationError, load_publication, publication_slugs
from sacorpus.runsettings import user_agent


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[SLUG ...] [--json] [--base-url URL]"

    def short_desc(self) -> str:
        return "Fetch one source and one article per publication and report what still extracts"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
        parser.add_argument("--base-url", help="fetch the publications' URLs from this mirror instead")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        directory = self.settings.get("SACORPUS_PUBLICATIONS_DIR") or None
        try:
            slugs = args or [s for s in publication_slugs(directory) if s != "demo"]
            publications = [load_publication(slug, directory) for slug in slugs]
        except PublicationError as exc:
            self.exitcode = 2
            print(f"check-publications: {exc}")
            return
        base = opts.base_url or self.settings.get("SACORPUS_SOURCE_BASE") or None
        checks: list[CheckResult] = []
        for publication in publications:
            short = self.settings.getint("SACORPUS_HEALTH_SHORT_TEXT_CHARS")
            check = check_publication(publication, self._probe(publication, base), short)
            checks.append(check)
            if not opts.json:
                print(report_line(check), flush=True)
        print(report_json(checks) if opts.json else "\n" + report_table(checks))
        if any(c.status == "broken" for c in checks):
            self.exitcode = 1

    def _probe(self, publication: Publication, base: str | None) -> Probe:
        assert self.settings is not None
        return Probe(
            publication,
            user_agent=user_agent(self.settings),
            timeout=self.settings.getfloat("SACORPUS_CHECK_TIMEOUT"),
            max_bytes=self.settings.getint("SACORPUS_CHECK_MAX_BYTES"),
            base_url=base,
        )
