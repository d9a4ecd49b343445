"""The run arguments of a publication crawl (``-a name=value``), checked before the crawl starts.

base_url        fetch every source and article from this host instead (fixture sites, mirrors);
                stored URLs keep the publication's own host
sources         comma list of source kinds to use (see ``SOURCE_KINDS`` in sacorpus.spiders.sources)
since, until    date window (YYYY-MM-DD) for sitemap/feed entries with a date
wayback_from, wayback_to   backfill this date range from the Wayback Machine
wayback_mode    cdx | homepage | both (default SACORPUS_WAYBACK_MODE "auto" = both; a method the
                publication gives no data for - prefixes/domains, homepage - is left out)
wayback_output  json (default) | plain: the CDX answer format asked for
refetch=1       fetch URLs even when the store already has them (still once per run)
comments=1      also read the reader comments of the articles (fetched now or stored before) whose
                threads are due; ``sources=comments`` reads comments alone
"""

from __future__ import annotations

import difflib
from typing import Any

from sacorpus.sources.dates import parse_day
from sacorpus.spiders.sources import SOURCE_KINDS

_TRUE = {"1", "true", "yes", "on"}
WAYBACK_MODES = ("cdx", "homepage", "both", "auto")
WAYBACK_OUTPUTS = ("json", "plain")
#: every run argument; names starting with "_" (scrapyd's ``_job``) pass too
RUN_ARGUMENTS = frozenset(
    {"since", "until", "wayback_from", "wayback_to", "refetch", "sources", "base_url", "comments"}
    | {"wayback_mode", "wayback_output"}
)


def unknown_arguments(kwargs: dict[str, Any], known: frozenset[str]) -> str | None:
    """One line naming the arguments ``known`` does not list (with a likely intended name), or None."""
    unknown = sorted(k for k in kwargs if k not in known and not k.startswith("_"))
    if not unknown:
        return None
    hints = {n: difflib.get_close_matches(n, known, n=1, cutoff=0.7) for n in unknown}
    said = ", ".join(n + (f" (did you mean {h[0]}?)" if h else "") for n, h in hints.items())
    return f"unknown run argument(s) {said}; known: {', '.join(sorted(known))}"


def parse_arguments(kwargs: dict[str, Any], known: frozenset[str] = RUN_ARGUMENTS) -> dict[str, Any]:
    """The run arguments checked: raises ValueError with one line saying what is wrong."""
    problem = unknown_arguments(kwargs, known)
    if problem:
        raise ValueError(problem)
    args: dict[str, Any] = {
        name: parse_day(kwargs.get(name), name) for name in ("since", "until", "wayback_from", "wayback_to")
    }
    for start, end in (("since", "until"), ("wayback_from", "wayback_to")):
        if args[start] and args[end] and args[start] > args[end]:
            raise ValueError(f"{start}={args[start]} is after {end}={args[end]}: the window is empty")
    args["refetch"] = str(kwargs.get("refetch", "")).lower() in _TRUE
    args["comments"] = str(kwargs.get("comments", "")).lower() in _TRUE
    kinds = kwargs.get("sources")
    args["sources"] = tuple(k.strip() for k in kinds.split(",")) if kinds else None
    unknown = set(args["sources"] or ()) - set(SOURCE_KINDS)
    if unknown:
        raise ValueError(f"unknown source kind(s) {sorted(unknown)}; known: {', '.join(SOURCE_KINDS)}")
    mode = kwargs.get("wayback_mode")
    if mode and mode not in WAYBACK_MODES:
        raise ValueError(f"wayback_mode={mode!r}; known: {', '.join(WAYBACK_MODES)}")
    args["wayback_output"] = kwargs.get("wayback_output") or "json"
    if args["wayback_output"] not in WAYBACK_OUTPUTS:
        raise ValueError(f"wayback_output={args['wayback_output']!r}; known: {', '.join(WAYBACK_OUTPUTS)}")
    return args
