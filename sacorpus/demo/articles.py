"""The Demo Gazette's stories and site text, read from ``articles.toml`` (package data).

The content model of the demo site; :mod:`sacorpus.demo.site` renders it into pages, feeds and sitemaps.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import datetime
from importlib import resources

SITE_NAME = "The Demo Gazette"
TITLE_SUFFIX = f" | {SITE_NAME}"
#: The host publications/demo.toml uses; the spider maps it to the running server.
DEMO_HOST = "demo.sacorpus.invalid"

#: Marker sentences placed in hidden elements of the hidden-text page; none may appear in the corpus.
HIDDEN_MARKERS: tuple[str, ...] = (
    "HIDDEN-MARKER-INLINE-STYLE this sentence sits in an element with style display:none.",
    "HIDDEN-MARKER-UPPERCASE-STYLE this sentence sits in an element with style DISPLAY: NONE.",
    "HIDDEN-MARKER-HIDDEN-ATTRIBUTE this sentence sits in an element with the hidden attribute.",
    "HIDDEN-MARKER-SR-ONLY this sentence sits in an element with the class sr-only.",
    "HIDDEN-MARKER-TEMPLATE this sentence sits inside a template element.",
)

#: Site boilerplate that extraction must drop (demo.toml filters / strip_text name these).
NEWSLETTER_TEXT = "Get The Demo Gazette newsletter: the day’s top stories in your inbox every morning."
COPYRIGHT_TEXT = (
    "© 2026 The Demo Gazette. All rights reserved. This story may not be republished without permission."
)
#: Appended to the "boilerplate" variant: a syndication note that the original story does not carry.
SYNDICATION_BOILERPLATE = (
    "This story first appeared in The Demo Gazette’s morning briefing and has been updated for our business readers.",
    "For more news from the Tshwane, Johannesburg and Ekurhuleni metros, follow our live updates page throughout the day.",
)

GALLERY_PATH = "/gallery/2026/11/05/jacaranda-season-in-pictures-12399"
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@dataclass(frozen=True)
class DemoArticle:
    id: int
    section: str
    published: datetime
    slug: str
    headline: str
    author: str
    lang: str
    paragraphs: tuple[str, ...]
    special: str | None = None  # "hidden" | "glued"
    variant_of: int | None = None
    variant_kind: str | None = None

    @property
    def path(self) -> str:
        d = self.published
        return f"/{self.section}/{d:%Y/%m/%d}/{self.slug}-{self.id}"


def load_articles() -> list[DemoArticle]:
    """Read ``articles.toml`` and resolve re-published variants; sorted newest first."""
    raw = tomllib.loads(resources.files("sacorpus.demo").joinpath("articles.toml").read_text("utf-8"))
    entries = raw["article"]
    by_id = {e["id"]: e for e in entries}
    out = []
    for e in entries:
        paragraphs = list(e.get("paragraphs", ()))
        derive = e.get("derive")
        if derive:
            source = list(by_id[derive["from"]]["paragraphs"])
            kind = derive["kind"]
            if kind == "changed_lead":
                paragraphs = [derive["lead"], *source[1:]]
            elif kind == "added_sentence":
                i = derive["paragraph"]
                paragraphs = [*source[:i], source[i] + " " + derive["sentence"], *source[i + 1 :]]
            elif kind == "boilerplate":
                paragraphs = [*source, *SYNDICATION_BOILERPLATE]
            elif kind == "exact_copy":
                paragraphs = source
            else:
                raise ValueError(f"articles.toml: article {e['id']}: unknown derive kind {kind!r}")
        out.append(
            DemoArticle(
                id=e["id"],
                section=e["section"],
                published=datetime.fromisoformat(e["date"]),
                slug=e["slug"],
                headline=e["headline"],
                author=e["author"],
                lang=e.get("lang", "en"),
                paragraphs=tuple(paragraphs),
                special=e.get("special"),
                variant_of=derive["from"] if derive else None,
                variant_kind=derive["kind"] if derive else None,
            )
        )
    return sorted(out, key=lambda a: (a.published, a.id), reverse=True)
