"""``scrapy newpub SLUG HOMEPAGE_URL [--language xx] [--dry-run] [--samples N] [--force]``.

Why: adding a publication by hand takes a TOML file whose keys must be looked up, a spider file and a
fixture skeleton. This command learns what it can from the homepage (feeds, sitemaps, sample articles,
URL rules, the selectors the page core needs, furniture, language: :mod:`sacorpus.newpub`) and writes
the files, each value commented with its evidence; what it could not determine is printed and left as a
comment. It fetches through a crawler with the crawl's own downloader middlewares, so the User-Agent,
robots.txt, retries and the address guard (no internal addresses, no other hosts) apply as in a crawl.

With ``SACORPUS_PUBLICATIONS_DIR`` set only the publication file is written, there (the spider loader
makes its spider); otherwise ``publications/SLUG.toml``, ``sacorpus/spiders/SLUG.py`` and
``tests/sites/SLUG/expected.json`` in the project. The file is validated before it is written.
"""

from __future__ import annotations

import argparse
import logging
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.conf import closest_scrapy_cfg

from sacorpus.commands.newpub_fetch import NewpubSpider
from sacorpus.newpub.discover import DiscoveryError, Finding
from sacorpus.newpub.render import expected_json, publication_toml, spider_source
from sacorpus.publications import PublicationError, parse_publication, publication_slugs

logger = logging.getLogger(__name__)
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "SLUG HOMEPAGE_URL [--language xx] [--dry-run] [--samples N] [--force]"

    def short_desc(self) -> str:
        return "Learn a new publication from its homepage and write its files"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--language", help="ISO 639 code of the publication (default: identified)")
        parser.add_argument("--dry-run", action="store_true", help="print the files instead of writing")
        parser.add_argument(
            "--samples", type=int, help="article pages to sample (default: SACORPUS_NEWPUB_SAMPLES, 5)"
        )
        parser.add_argument("--force", action="store_true", help="overwrite files that exist")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 2:
            raise UsageError("give a SLUG and a HOMEPAGE_URL")
        slug, home = args
        assert self.settings is not None and self.crawler_process is not None
        directory = self.settings.get("SACORPUS_PUBLICATIONS_DIR") or None
        if opts.samples is None:
            opts.samples = self.settings.getint("SACORPUS_NEWPUB_SAMPLES")
        self._check_arguments(slug, home, opts, directory)
        holder: dict[str, Any] = {}
        crawler = self.crawler_process.create_crawler(NewpubSpider)
        self.crawler_process.crawl(
            crawler, slug=slug, home=home, samples=opts.samples, language=opts.language, holder=holder
        )
        self.crawler_process.start()
        failed = crawler.stats.get_value("sacorpus/newpub/fetch_failed", 0) if crawler.stats else 0
        if failed:
            print(f"newpub: {failed} fetches failed or were refused (robots.txt, address guard, network)")
        error = holder.get("error")
        if error is not None or "finding" not in holder:
            print(f"newpub: {slug}: {error or 'discovery did not finish'}", file=sys.stderr)
            self.exitcode = 1
            return
        self.exitcode = self._finish(holder["finding"], opts, directory, args)

    def _check_arguments(self, slug: str, home: str, opts: argparse.Namespace, directory: str | None) -> None:
        if not _SLUG.match(slug):
            raise UsageError(f"slug {slug!r}: lower-case letters, digits and _, starting with a letter")
        if not re.match(r"https?://[^/?#]+", home):
            raise UsageError(f"homepage {home!r}: give an absolute http(s) URL", print_help=False)
        if opts.samples < 1:
            raise UsageError("--samples must be at least 1", print_help=False)
        try:
            exists = slug in publication_slugs(directory)
        except PublicationError as exc:
            raise UsageError(str(exc), print_help=False) from None
        if exists and not (opts.force or opts.dry_run):
            raise UsageError(
                f"{slug}: a publication of that name exists (--force to replace it)", print_help=False
            )

    def _finish(
        self, found: Finding, opts: argparse.Namespace, directory: str | None, args: list[str]
    ) -> int:
        command = "scrapy newpub " + " ".join(shlex.quote(a) for a in args)
        if opts.language:
            command += f" --language {opts.language}"
        text = publication_toml(found, command)
        files = self._files(found, text, directory)
        report(found)
        try:
            parse_publication(found.slug, text, str(next(iter(files))))
        except PublicationError as exc:
            print(text)
            print(f"newpub: the learnt file does not validate: {exc}", file=sys.stderr)
            return 1
        if opts.dry_run:
            for path, content in files.items():
                print(f"--- {path} (not written: --dry-run)\n{content}")
            return 0
        existing = [p for p in files if p.exists()]
        if existing and not opts.force:
            print(f"newpub: not overwritten (--force): {', '.join(map(str, existing))}", file=sys.stderr)
            return 1
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path}")
        print(f"next: scrapy crawl {found.slug}")
        return 0 if (found.feeds or found.sitemaps or found.news_sitemaps or found.start_urls) else 1

    def _files(self, found: Finding, text: str, directory: str | None) -> dict[Path, str]:
        if directory:
            return {Path(directory) / f"{found.slug}.toml": text}
        cfg = closest_scrapy_cfg()
        root = Path(cfg).parent if cfg else Path.cwd()
        return {
            root / "publications" / f"{found.slug}.toml": text,
            root / "sacorpus" / "spiders" / f"{found.slug}.py": spider_source(found),
            root / "tests" / "sites" / found.slug / "expected.json": expected_json(found),
        }


def report(found: Finding) -> None:
    """What was found and what was not, for the person who runs the command."""
    out = [f"{found.slug}: {found.name} <{found.home}> language {found.language}"]
    out += [f"  feed     {u}" for u in found.feeds] + [f"  sitemap  {u}" for u in found.sitemaps]
    out += [f"  news sitemap {u}" for u in found.news_sitemaps]
    out += [f"  section  {u}" for u in found.start_urls]
    out += [f"  article URLs {p}" for p in found.patterns.article]
    if found.patterns.id_pattern:
        out.append(f"  id {found.patterns.id_pattern}")
    out += [f"  {p.key} {p.selector}" for p in found.proposals]
    for sample in found.samples:
        out.append(
            f"  sample {sample.url}: {sample.field('title_clean') or '(no title)'} | "
            f"{sample.field('published_at') or '(no date)'}"
        )
    out += [f"  not checked: {r}" for r in found.rejected]
    out += [f"  COULD NOT DETERMINE {m}" for m in found.missing]
    print("\n".join(out))


__all__ = ["Command", "DiscoveryError", "report"]
