"""A year (2013) of synthetic Wayback captures of The New Age (thenewage.co.za), for the replay tests.

The New Age is Wayback-only in sacorpus (publications/thenewage.toml), so its fixture is a capture
set served by :class:`sacorpus.testing.wayback_replay.WaybackReplay` rather than a site directory.
Everything is invented; the markup follows a 2013-era news CMS (title with " | The New Age" suffix,
byline div, article:published_time meta, related/share blocks the rules strip).

Captures: two articles a month, each captured twice (same digest: CDX collapse keeps one), the
homepage on the 1st and 15th of every month (plus an unchanged re-capture the next day that the
walk-back must skip), and noise the backfill must leave alone: a gallery (denied URL), an image,
a 404 capture, and articles from 2012 and 2014 (outside the window).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sacorpus.testing.wayback_replay import SyntheticCapture

HOME = "http://www.thenewage.co.za/"
PLACES = [
    "Polokwane",
    "Mthatha",
    "Kimberley",
    "Upington",
    "Mahikeng",
    "Nelspruit",
    "Bloemfontein",
    "Pietermaritzburg",
    "Rustenburg",
    "George",
    "Welkom",
    "Mossel Bay",
]
TOPICS = [
    "water supply",
    "school transport",
    "clinic staffing",
    "road repairs",
    "housing backlog",
    "electricity tariffs",
    "bus routes",
    "bursary payments",
    "taxi ranks",
    "refuse collection",
    "library hours",
    "sports grounds",
]
PEOPLE = [
    "Thandiwe Mokoena",
    "Pieter van Wyk",
    "Nomsa Dlamini",
    "Sipho Khumalo",
    "Lerato Molefe",
    "Johan Botha",
    "Ayanda Zulu",
    "Kagiso Modise",
]


@dataclass(frozen=True)
class Story:
    id: int
    url: str
    title: str
    author: str
    published: date
    paragraphs: tuple[str, ...]
    captured: tuple[str, ...]  # capture timestamps, earliest first


def _story(month: int, k: int, year: int = 2013) -> Story:
    n = (month - 1) * 2 + k
    place, topic = PLACES[(month + k) % 12], TOPICS[(month * 5 + k) % 12]
    author = PEOPLE[n % len(PEOPLE)]
    day = 4 if k == 0 else 17
    published = date(year, month, day)
    sid = 20000 + year % 100 * 1000 + n
    slug = f"{place.lower().replace(' ', '-')}-residents-demand-answers-on-{topic.replace(' ', '-')}"
    paragraphs = (
        f"Residents of {place} gathered outside the municipal offices on {published:%A} to demand answers "
        f"about {topic}, which they say has been neglected for the better part of {1 + n % 7} years.",
        f"Community spokesperson {PEOPLE[(n + 3) % len(PEOPLE)]} told The New Age that a petition signed "
        f"by {120 + n * 37} households had been handed to the mayor in {published:%B} without any reply.",
        f"The municipality said a report on {topic} would be tabled at the next council sitting and that "
        f"R{2 + n % 9}.{n % 10} million had been set aside in the adjustment budget for {place}.",
        f"Opposition councillors questioned whether the money would reach ward {3 + n % 30}, where "
        f"complaints about {topic} were first raised at a public meeting in {published.year - 1}.",
    )
    first = published + timedelta(days=1)
    captured = (f"{first:%Y%m%d}081500", f"{first + timedelta(days=9):%Y%m%d}130000")
    return Story(
        sid,
        f"http://www.thenewage.co.za/{sid}-{slug}",
        f"{place} residents demand answers on {topic}",
        author,
        published,
        paragraphs,
        captured,
    )


def article_html(story: Story) -> bytes:
    body = "\n".join(f"<p>{p}</p>" for p in story.paragraphs)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{story.title} | The New Age</title>
<meta property="article:published_time" content="{story.published.isoformat()}T07:30:00+02:00">
<meta name="author" content="{story.author}">
</head><body>
<div id="header"><a href="/">The New Age</a> <a href="/news/">News</a></div>
<div class="article">
<h1>{story.title}</h1>
<div class="byline">By {story.author}</div>
<div class="article-date">{story.published:%d %B %Y}</div>
<div class="article-body">
{body}
</div>
<div class="share">Share this article on Facebook and Twitter</div>
<div class="related">Related Articles: <a href="/{story.id - 1}-older-story">An older story</a></div>
</div>
<div id="comments">Comments are closed.</div>
</body></html>""".encode()


def homepage_html(day: date, stories: list[Story]) -> bytes:
    shown = [s for s in stories if s.published <= day and (day - s.published).days <= 20]
    links = "\n".join(f'<li><a href="/{s.url.split("/", 3)[3]}">{s.title}</a></li>' for s in shown)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The New Age | Home</title></head><body>
<div id="header"><a href="/">The New Age</a></div>
<ul class="top-stories">
{links}
</ul>
<div class="gallery"><a href="/gallery/9001-pictures-of-the-week">Pictures of the week</a></div>
<a href="http://www.facebook.com/TheNewAgeSA">Facebook</a>
<p>Edition of {day:%d %B %Y}</p>
</body></html>""".encode()


def stories(year: int = 2013) -> list[Story]:
    return [_story(m, k, year) for m in range(1, 13) for k in (0, 1)]


def build_captures(year: int = 2013) -> tuple[list[SyntheticCapture], list[Story]]:
    """The replay's captures and the stories a backfill of ``year`` must store (each once)."""
    wanted = stories(year)
    caps: list[SyntheticCapture] = []
    for story in wanted:
        html = article_html(story)
        caps += [SyntheticCapture(story.url, ts, html) for ts in story.captured]
    for month in range(1, 13):
        for day in (1, 15):
            when = date(year, month, day)
            page = homepage_html(when, wanted)
            caps.append(SyntheticCapture(HOME, f"{when:%Y%m%d}060000", page))
            caps.append(SyntheticCapture(HOME, f"{when + timedelta(days=1):%Y%m%d}060000", page))  # unchanged
    # noise: outside the window, denied, not HTML, not 200
    for other in (_story(12, 1, year - 1), _story(1, 0, year + 1)):
        caps.append(SyntheticCapture(other.url, other.captured[0], article_html(other)))
    caps.append(
        SyntheticCapture(
            "http://www.thenewage.co.za/gallery/9001-pictures-of-the-week",
            f"{year}0301100000",
            b"<html><body><img src=a.jpg></body></html>",
        )
    )
    caps.append(
        SyntheticCapture(
            "http://www.thenewage.co.za/images/20999-photo.jpg",
            f"{year}0302100000",
            b"\xff\xd8\xff",
            mimetype="image/jpeg",
        )
    )
    caps.append(
        SyntheticCapture(
            "http://www.thenewage.co.za/20998-removed-story", f"{year}0303100000", b"gone", status=404
        )
    )
    return caps, wanted


def homepage_days(year: int = 2013) -> list[date]:
    return [date(year, m, d) for m in range(1, 13) for d in (1, 15)]


def linked_from_homepages(wanted: list[Story], year: int = 2013) -> list[Story]:
    """The stories some homepage capture of ``year`` links to (what the walk-back alone can find)."""
    return [s for s in wanted if any(0 <= (d - s.published).days <= 20 for d in homepage_days(year))]
