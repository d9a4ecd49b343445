"""The files ``scrapy newpub`` writes: the commented publication TOML, the spider file, the fixture
skeleton.

Why comments on every key: a generated file is reviewed by a person who did not see the discovery run;
each value says where it came from, and what could not be determined is a comment to fill in.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from sacorpus.newpub.discover import Finding


def toml_string(value: str) -> str:
    """A TOML literal string when the value allows one (regexes read best unescaped), else a basic one."""
    if "'" not in value and "\n" not in value and all(c >= " " or c == "\t" for c in value):
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False)


def toml_list(values: list[str]) -> str:
    if sum(len(v) + 4 for v in values) < 90:
        return "[" + ", ".join(toml_string(v) for v in values) + "]"
    return "[\n" + "".join(f"  {toml_string(v)},\n" for v in values) + "]"


def _source_lines(found: Finding) -> list[str]:
    lines = ["", "[sources]"]
    for key, urls, kind in (
        ("feeds", found.feeds, "feed"),
        ("sitemaps", found.sitemaps, "sitemap"),
        ("news_sitemaps", found.news_sitemaps, "sitemap"),
    ):
        if urls:
            lines += [f"# {u}: {found.notes.get(f'{kind} {u}', 'found')}" for u in urls]
            lines.append(f"{key} = {toml_list(urls)}")
        else:
            lines.append(f"# {key}: none found")
    if found.robots:
        lines += ["# robots.txt declares sitemaps: read on every run", "robots = true"]
    if found.start_urls:
        lines += [
            f"# start_urls: {found.notes.get('start_urls', '')}",
            f"start_urls = {toml_list(found.start_urls)}",
        ]
    return lines


def _url_lines(found: Finding) -> list[str]:
    pat = found.patterns
    if not pat.article:
        return ["", "# [urls]: no article URL pattern could be learnt (no sample read as an article)"]
    lines = ["", "[urls]", f"# {found.notes.get('urls', '')}"]
    lines += [f"allow = {toml_list(pat.article)}", f"article = {toml_list(pat.article)}"]
    if pat.deny:
        lines += ["# pages of the site that look like articles but are not (first path segment)"]
        lines.append(f"deny = {toml_list(pat.deny)}")
    lines += [f"# note: {n}" for n in pat.notes]
    if pat.id_pattern:
        lines += [
            "# every sampled article URL carries a distinct number here",
            f"id_pattern = {toml_string(pat.id_pattern)}",
        ]
    else:
        lines.append("# id_pattern: the sampled article URLs carry no id")
    return lines


def _rule_lines(found: Finding, today: date) -> list[str]:
    lines = ["", "[[rules]]", f'version = "{today.isoformat()}"  # the layout sampled on this day']
    proposed = {p.key for p in found.proposals}
    for p in found.proposals:
        lines += [f"# {p.why}", f"{p.key} = {toml_list([p.selector])}"]
    for key in ("date_selectors", "author_selectors"):
        if key not in proposed and found.samples:
            lines.append(f"# {key}: not needed (the page core reads them on every sample)")
    if found.strip_text:
        lines += [
            f"# lines the page core kept on every one of the {len(found.samples)} samples: the site's, not the story's",
            f"strip_text = {toml_list(found.strip_text)}",
        ]
    return lines


def publication_toml(found: Finding, command: str, today: date | None = None) -> str:
    """The commented publication file for ``found``."""
    today = today or date.today()
    lines = [
        f"# {found.name}: written by `{command}` on {today.isoformat()}.",
        f"# Each value says where it came from; review it, then crawl with `scrapy crawl {found.slug}`.",
        f"name = {toml_string(found.name)}  # {found.notes.get('name', '')}",
        f"home = {toml_string(found.home)}  # the homepage given (after its redirects)",
        f"domains = {toml_list([found.domain])}  # the homepage's host",
    ]
    if found.language != "und":
        lines.append(f"languages = {toml_list([found.language])}  # {found.notes.get('languages', '')}")
    else:
        lines.append('languages = ["und"]  # NOT DETERMINED: give the ISO 639 code (--language)')
    lines.append('# country: not determined (ISO 3166 alpha-2, e.g. "ZA")')
    lines += [f"# could not be determined: {m}" for m in found.missing]
    lines += _source_lines(found) + _url_lines(found) + _rule_lines(found, today)
    return "\n".join(lines) + "\n"


def spider_source(found: Finding) -> str:
    """The spider file: the publication's name and nothing else (everything is in its TOML file)."""
    cls = "".join(part.title() for part in found.slug.split("_")) + "Spider"
    return (
        f'"""{found.name}: everything is in publications/{found.slug}.toml."""\n\n'
        "from __future__ import annotations\n\n"
        "from sacorpus.spiders.base import PublicationSpider\n\n\n"
        f"class {cls}(PublicationSpider):\n"
        f'    name = "{found.slug}"\n'
    )


def expected_json(found: Finding) -> str:
    """The fixture skeleton: what the sampled articles gave, for the fixture pages written after them."""
    articles: dict[str, Any] = {}
    for sample in found.samples[:3]:
        path = urlsplit(sample.url).path
        # the day the page states (its own offset), as the fixture tests compare it
        published = str(sample.field("published_day") or sample.field("published_at") or "")[:10] or None
        articles[path] = {
            "title_clean": sample.field("title_clean") or sample.field("title"),
            "authors": list(sample.field("authors") or []),  # type: ignore[call-overload]
            "published": published,
            "language": found.language,
            "absent": list(found.strip_text),
        }
    return json.dumps({"articles": articles}, indent=2, ensure_ascii=False) + "\n"


__all__ = ["expected_json", "publication_toml", "spider_source", "toml_list", "toml_string"]
