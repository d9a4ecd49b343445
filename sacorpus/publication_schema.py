"""The publication file format as data: every key, its type, default, meaning and an example.

Why data: ``docs/publications.md`` is generated from this table (``python -m sacorpus.publication_schema
--write``), and the tests check that every key the validation in :mod:`sacorpus.publications` reads is
here, and that a file built from the examples validates: the reference cannot drift from the code.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Key:
    table: str  # "" (top level), "sources", "sources.wayback", "urls", "rules" ([[rules]]), ...
    name: str
    type: str
    default: str
    meaning: str
    example: str  # TOML value as written in a file


_URL = "list of absolute http(s) URLs"
_RX = "list of regexes"
_SEL = "list of CSS selectors (XPath when starting with / ( or ./)"

KEYS: tuple[Key, ...] = (
    Key("", "name", "string", "required", "The publication's name as readers know it.", '"GroundUp"'),
    Key(
        "",
        "home",
        "absolute http(s) URL",
        "required",
        "The homepage; its host maps fixture and mirror fetches and is the robots.txt host.",
        '"https://groundup.org.za/"',
    ),
    Key(
        "",
        "domains",
        "list of host names",
        "required",
        "Hosts (and their subdomains) that are the publication's: only these are fetched and stored.",
        '["groundup.org.za"]',
    ),
    Key(
        "",
        "languages",
        "list of ISO 639 codes",
        "required",
        "Languages it publishes in (two letters where the language has them).",
        '["en", "af"]',
    ),
    Key("", "country", "string", "none", "ISO 3166 alpha-2 country code.", '"ZA"'),
    Key(
        "",
        "mirrors",
        "list of host names",
        "[]",
        "Hosts that only redirect to this publication (fetched, never stored under their own name).",
        '["m.example.co.za"]',
    ),
    Key("", "description", "string", "none", "One line on what the publication is.", '"Community news"'),
    Key(
        "",
        "browser_ua_retry",
        "boolean",
        "false",
        "Retry once with a browser User-Agent after a 403 (never where robots.txt forbids).",
        "true",
    ),
    Key(
        "sources",
        "feeds",
        _URL,
        "[]",
        "RSS, Atom or JSON feeds, polled with conditional GET.",
        '["https://groundup.org.za/sitenews/rss/"]',
    ),
    Key(
        "sources",
        "sitemaps",
        _URL,
        "[]",
        "Sitemaps or sitemap indexes (walked within the run's budget).",
        '["https://groundup.org.za/sitemap.xml"]',
    ),
    Key(
        "sources",
        "news_sitemaps",
        _URL,
        "[]",
        "Google News sitemaps (their titles and dates travel with the article).",
        '["https://example.co.za/news-sitemap.xml"]',
    ),
    Key(
        "sources",
        "robots",
        "boolean",
        "false",
        "Read the sitemaps robots.txt declares (the standard locations when it declares none).",
        "true",
    ),
    Key(
        "sources",
        "start_urls",
        _URL,
        "[]",
        "Homepage and section pages read on every run for links "
        "that match `urls.article` (never remembered as seen).",
        '["https://example.co.za/"]',
    ),
    Key(
        "sources.wayback",
        "prefixes",
        "list of URL prefixes",
        "[]",
        "Wayback CDX URL prefixes to backfill from.",
        '["groundup.org.za/article/"]',
    ),
    Key(
        "sources.wayback",
        "domains",
        "list of host names",
        "[]",
        "Whole domains to query in the CDX index.",
        '["thenewage.co.za"]',
    ),
    Key(
        "sources.wayback",
        "homepage",
        "URL",
        "none",
        "Homepage for the walk back through its captures.",
        '"https://groundup.org.za/"',
    ),
    Key(
        "sources.wayback",
        "from",
        "date (YYYY-MM-DD)",
        "none",
        "Default start of the backfill window.",
        '"2012-01-01"',
    ),
    Key(
        "sources.wayback",
        "to",
        "date (YYYY-MM-DD)",
        "none",
        "Default end of the backfill window.",
        '"2024-12-31"',
    ),
    Key(
        "urls",
        "allow",
        _RX,
        "[] (all)",
        "A URL must match one (searched in path and query) to be fetched as an article.",
        "['^/article/[^/?]+/?$']",
    ),
    Key(
        "urls",
        "deny",
        _RX,
        "[]",
        "URLs never fetched as articles: galleries, videos, tag pages.",
        "['/gallery/', '^/tag/']",
    ),
    Key(
        "urls",
        "article",
        _RX,
        "[]",
        "What an article link looks like on start pages and (with "
        "SACORPUS_FOLLOW_LINKS) on articles; path patterns or whole-URL ones.",
        "['^/article/[^/?]+/?$']",
    ),
    Key(
        "urls",
        "id_pattern",
        "regex with a group (?P<id>...)",
        "none",
        "The article id in the URL: the same slug with another id is labelled a near-duplicate.",
        r"'-(?P<id>\d{5,})(?=[/.?]|$)'",
    ),
    Key(
        "rules",
        "version",
        "string",
        '"rules-N"',
        "Name of the rule set (stored with each article).",
        '"2024"',
    ),
    Key(
        "rules",
        "valid_until",
        "date (YYYY-MM-DD)",
        "none (current layout)",
        "Last day of the layout these rules fit; older captures use the earliest set still valid.",
        '"2019-06-30"',
    ),
    Key(
        "rules",
        "title_strip",
        _RX,
        "[]",
        "Removed from titles (site suffixes the generic step misses).",
        "[' - Site$']",
    ),
    Key(
        "rules",
        "author_selectors",
        _SEL,
        "[]",
        "Where bylines are, when the page core misses them.",
        "['.byline a']",
    ),
    Key("rules", "author_strip", _RX, "[]", "Removed from author strings.", "['^By ']"),
    Key(
        "rules",
        "date_selectors",
        _SEL,
        "[]",
        "Where the published date is (text, @content or @datetime), when the page core misses it.",
        "['span.story-date']",
    ),
    Key("rules", "section_selectors", _SEL, "[]", "Where the section name is.", "['.breadcrumb a']"),
    Key(
        "rules", "prune_xpaths", "list of XPath", "[]", "Handed to trafilatura's prune_xpath.", "['//aside']"
    ),
    Key(
        "rules",
        "filters",
        "list of {tag, attribute, value}",
        "[]",
        "Pre-clean: remove elements whose attribute matches the value regex (tag may be *).",
        '[{ tag = "div", attribute = "class", value = "(newsletter|share)" }]',
    ),
    Key(
        "rules",
        "strip_text",
        "list of lines or regexes",
        "[]",
        "Static text removed when it is a whole line of the extracted text.",
        "['^Support independent journalism.*$']",
    ),
    Key(
        "rules",
        "body_selectors",
        _SEL,
        "[]",
        "The article body container(s), when trafilatura needs help.",
        "['div.article-body']",
    ),
    Key(
        "rules",
        "layout_classes",
        "list of class names",
        "[]",
        "Class names only pages of this layout carry: a page that has one gets this version whatever its "
        "capture date (an old layout still served, a date range drawn too short).",
        "['article-widget-text']",
    ),
    Key("render", "urls", _RX, "[]", "Article URLs rendered in a browser (searched).", "['/live/']"),
    Key("render", "all", "boolean", "false", "Render every article page.", "false"),
    Key("render", "wait_for", "CSS selector", "none", "Element the browser waits for.", '"article .post"'),
    Key("render", "wait", "seconds", "0", "Wait after the page loaded (at most 60).", "1.5"),
    Key("render", "timeout", "seconds", "30", "Longest a render may take (at most 300).", "30"),
    Key(
        "comments",
        "disqus_forum",
        "string",
        "none",
        "Disqus forum (short name) the pages embed.",
        '"mypaper"',
    ),
    Key("comments", "item", "CSS selector", "none", "One on-page comment element.", '"ol.comments li"'),
    Key("comments", "body", "CSS selector", "required with item", "A comment's text.", '".comment-body"'),
    Key("comments", "author", "CSS selector", "none", "A comment's author.", '".comment-author"'),
    Key("comments", "date", "CSS selector", "none", "A comment's date (datetime, else text).", '"time"'),
    Key("comments", "id_attribute", "string", '"id"', "Attribute holding a comment's id.", '"id"'),
    Key(
        "comments",
        "parent_attribute",
        "string",
        "none (the enclosing comment)",
        "Attribute naming the comment a reply answers.",
        '"data-parent"',
    ),
)

_TITLES = {
    "": "Top level",
    "sources": "`[sources]` (at least one source is required)",
    "sources.wayback": "`[sources.wayback]`",
    "urls": "`[urls]`",
    "rules": "`[[rules]]` (dated rule sets; at most one without valid_until)",
    "render": "`[render]` (pages a script builds)",
    "comments": "`[comments]` (readers' comments: a Disqus forum, an on-page section, or both)",
}


def example_toml() -> str:
    """A publication file using every key with its example value (it must validate)."""
    lines: list[str] = []
    for table in _TITLES:
        if table == "rules":
            lines.append("[[rules]]")
        elif table:
            lines.append(f"[{table}]")
        lines += [f"{k.name} = {k.example}" for k in KEYS if k.table == table]
        lines.append("")
    return "\n".join(lines)


def markdown() -> str:
    """``docs/publications.md``."""
    out = [
        "# Publication files",
        "",
        "<!-- generated by `python -m sacorpus.publication_schema --write`; do not edit by hand -->",
        "",
        "A publication is one TOML file, `publications/<slug>.toml` (or in `SACORPUS_PUBLICATIONS_DIR`).",
        "`scrapy newpub SLUG HOMEPAGE_URL` writes a first one from the homepage. Every file is validated",
        "when it loads: an unknown key, a wrong type, a bad regex, selector or date, or a source URL",
        "without an http(s) scheme and host fails with the file and the key named.",
        "",
    ]
    for table, title in _TITLES.items():
        out += [f"## {title}", "", "| key | type | default | meaning | example |", "|---|---|---|---|---|"]
        for k in (k for k in KEYS if k.table == table):
            cells = [f"`{k.name}`", k.type, k.default, k.meaning, f"`{k.example}`"]
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    out += ["## A file with every key", "", "```toml", example_toml().rstrip(), "```", ""]
    return "\n".join(out)


DOC = Path(__file__).resolve().parent.parent / "docs" / "publications.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or write docs/publications.md")
    parser.add_argument("--write", action="store_true", help=f"write {DOC}")
    args = parser.parse_args(argv)
    if args.write:
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(markdown(), encoding="utf-8")
    else:
        sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
