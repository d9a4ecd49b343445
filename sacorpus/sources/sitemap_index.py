"""Walking sitemap indexes: which child sitemaps to fetch next (depth limit, cycle guard, date window).

The one code path for index recursion: the spider's sitemap sources call :func:`next_sitemaps` for
every index they read, so a self-referencing index, endless nesting and months outside the run's
window cost no requests.
"""

from __future__ import annotations

import re
from datetime import date

from sacorpus.sources.dates import iso_date
from sacorpus.sources.sitemaps import SitemapResult

_URL_MONTH = re.compile(r"(?<!\d)((?:19|20)\d\d)[-/_.]?(0[1-9]|1[0-2])(?!\d)")


def next_sitemaps(
    result: SitemapResult,
    depth: int,
    seen: set[str],
    *,
    max_depth: int,
    since: date | None = None,
    until: date | None = None,
) -> tuple[list[str], list[str]]:
    """Child sitemaps of an index to fetch next: ``(urls, reasons_for_skips)``.

    ``depth`` is the depth of the index just parsed (a robots-listed or declared sitemap is depth 0);
    children deeper than ``max_depth`` (SACORPUS_SITEMAP_MAX_DEPTH) are not
    followed (indexes that point at themselves or nest without end exist). ``seen`` (updated here)
    stops cycles across the whole run. With a window, a child is skipped when its lastmod is
    before ``since`` (nothing in it changed since then) or when its URL names a month entirely
    outside the window (``sitemap-2013-05.xml``, ``/sitemap/2013/05.xml``).
    """
    if result.kind != "index":
        return [], []
    if depth + 1 > max_depth:
        return [], [
            f"depth limit {max_depth}: {len(result.sitemaps)} sitemaps not followed"
        ] if result.sitemaps else []
    urls: list[str] = []
    skipped: list[str] = []
    for url in result.sitemaps:
        if url in seen:
            skipped.append(f"already seen: {url}")
            continue
        lastmod = iso_date(result.sitemap_lastmods.get(url))
        if since and lastmod and lastmod < since:
            skipped.append(f"lastmod {lastmod} before {since}: {url}")
            continue
        if (since or until) and _month_outside(url, since, until):
            skipped.append(f"URL month outside window: {url}")
            continue
        seen.add(url)
        urls.append(url)
    return urls, skipped


def _month_outside(url: str, since: date | None, until: date | None) -> bool:
    matches = _URL_MONTH.findall(url)
    if len(matches) != 1:  # none, or ambiguous
        return False
    year, month = int(matches[0][0]), int(matches[0][1])
    first = date(year, month, 1)
    last = date(year + month // 12, month % 12 + 1, 1)
    return bool((since and last <= since) or (until and first > until))
