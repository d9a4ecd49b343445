"""More layout pages per rule version: the same layout without what the base page gives for free.

Why: the base page of each version (fixture_specs.py) carries its metadata in <head> and an <h1>, so
an entry that only matters without them proves nothing there. These variants take them away: a page
whose <title> is its only headline proves a title strip; a page re-served without a capture date (or
captured outside its version's range) proves a version's ``layout_classes``; a page without
``article:published_time``, meta author or a date in its URL (as real Arc XP TimesLIVE pages are) shows
that the page core reads the date and byline from the layout's own markup, which is why those
selectors are not in the files. Each variant is its version's spec with some keys replaced.
"""

from __future__ import annotations

from fixture_specs import SPECS, e, story

# (slug, version) -> variants: the keys each replaces in the version's base spec
VARIANTS: dict[tuple[str, str], list[dict]] = {}


def variant(slug: str, version: str, **changes: object) -> None:
    """Register one more page of ``slug``'s ``version`` layout: its base spec with ``changes``."""
    VARIANTS.setdefault((slug, version), []).append(changes)


def no_headline(title: str) -> dict:
    """A page whose <title> is the only headline: no <h1> (a headline set as an image or in a script)."""
    return {"title": "{h}" + title, "h1": ""}


# --- Arc XP titles: the 2017-2025 Arena layout and Arc XP since late 2025 -------------------------------

ARC_TITLES = {  # slug -> the <title> suffixes its rule versions strip (older brand names)
    "timeslive": [],
    "sowetanlive": [],
    "heraldlive": [" | The Herald"],
    "dispatchlive": [" | Daily Dispatch"],
    "businesslive": [" | Business Day", " | BusinessDay"],
}


def arena_byline(slug: str) -> str:
    """The Arena byline as real TimesLIVE pages of May 2025 have it: the date line, then an author block
    (picture link, ``span.name`` link, job title, social links)."""
    _h, author, _w = story(slug)
    return (
        '<div class="article-pub-date ">13 March 2019 - 10:00 </div><div class="article-author">'
        '<div id="author-block"><div class="author-block"><div class="author-image">'
        '<a aria-label="author link" href="/authors/x" class="image"></a></div>'
        f'<span class="name"> <a aria-label="author link" href="/authors/x"> {e(author)} </a> </span>'
        '<span class="title">Senior reporter</span></div></div></div>'
    )


for _slug, _suffixes in ARC_TITLES.items():
    _old = [*_suffixes] or [None]
    for _i, _suffix in enumerate(_old):
        _title = no_headline(_suffix) if _suffix else {}
        variant(
            _slug,
            "2017",
            path=f"/news/{_slug}-arena-layout-{_i}/",
            head="",
            byline=arena_byline(_slug),
            **_title,
        )
        variant(_slug, "arc", path=f"/news/{_slug}-arc-layout-{_i}/", head="", **_title)
    # the layout, not the date: an Arena page fetched live (no capture date, so today's Arc version by
    # date), and an Arc page captured before the Arena version's date range ends
    variant(_slug, "2017", path=f"/news/{_slug}-arena-page-served-live/", head="", captured=None)
    variant(_slug, "arc", path=f"/news/{_slug}-arc-page-captured-early/", head="", captured="2025-05-20")


# --- the layout, not the date: old IOL and News24 pages re-served (no capture date) in their old template

variant("iol", "2012", path="/news/south-africa/potholes-march-1.1315124", captured=None)
variant("news24", "2013", path="/SouthAfrica/News/layout-served-live-20130819", captured=None)


# --- the others: a page without metadata in its <head> --------------------------------------------------

variant("citizen", "2025", path="/news/south-africa/weather/hailstorm-layout-no-meta/", head="")
variant("dailymaverick", "2025", path="/article/small-town-water-layout-no-meta/", head="")
variant(
    "demo",
    "2026",
    path="/news/2026/11/harbour-crane-upgrade-no-meta",
    head="",
    date=f'<time class="published" datetime="{story("demo")[2]}">{story("demo")[2][:10]}</time>',
)
variant("netwerk24", "2024", path="/netwerk24/nuus/uitleg-sonder-meta", head="")
variant("news24", "2024", path="/news24/southafrica/news/joburg-fire-layout-no-meta", head="")
variant("thesouthafrican", "wordpress", path="/news/tsa-layout-no-meta/", head="")
variant("isolezwe", "2025", path="/izindaba/ezakamuva-layout-ngaphandle-kwe-meta", head="")
variant(
    "iol",
    "2024",
    path="/news/south-africa/gauteng/potholes-no-headline",
    **no_headline(" | Independent Online"),
)
variant("mg", "2014", path="/article/limpopo-mine-no-headline-0", **no_headline(" - The M&G Online"))
variant("mg", "2014", path="/article/limpopo-mine-no-headline-1", **no_headline(" | The M&G Online"))
variant("thenewage", "2010", path="/news/article/4513/no-headline", **no_headline(" - TNA"))


def variant_specs(slug: str) -> list[tuple[str, dict]]:
    """(version, spec) of every variant page of ``slug``."""
    return [
        (version, {**SPECS[slug][version], **changes})
        for (s, version), pages in VARIANTS.items()
        if s == slug
        for changes in pages
    ]


__all__ = ["VARIANTS", "variant_specs"]
