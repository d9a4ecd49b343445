"""The publication day as the page states it: UTC timestamps near midnight, <time>s of other content."""

from __future__ import annotations

from sacorpus.text.metadata import extract_metadata
from sacorpus.text.preclean import parse_html


def _meta(head: str, body: str, url: str):
    return extract_metadata(parse_html(f"<html><head>{head}</head><body>{body}</body></html>"), url)


def _ld(date: str) -> str:
    return f'<script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"{date}"}}</script>'


def test_utc_timestamp_after_midnight_keeps_the_newsroom_day_of_its_wall_clock():
    body = '<article><time datetime="2023-11-08 23:30:59">Nov 8</time><p>x</p></article>'
    meta = _meta(_ld("2023-11-09T05:30:59Z"), body, "https://paper.example/news/mayor")
    assert meta.published_at == "2023-11-09T05:30:59Z"  # the instant is kept as stated
    assert meta.published_day == "2023-11-08"
    # a wall clock on the same day, or one no real offset explains, changes nothing
    same = '<article><time datetime="2023-11-09 07:30:59">x</time></article>'
    assert _meta(_ld("2023-11-09T05:30:59Z"), same, "https://paper.example/a").published_day == "2023-11-09"
    odd = '<article><time datetime="2023-11-08 05:31:07">x</time></article>'
    assert _meta(_ld("2023-11-09T05:30:59Z"), odd, "https://paper.example/a").published_day == "2023-11-09"


def test_utc_timestamp_takes_the_neighbouring_day_of_the_url_only_when_an_offset_allows_it():
    url = "https://paper.example/2020/02/24/press-secretary-exits/"
    assert _meta(_ld("2020-02-25T02:25:54Z"), "<p>x</p>", url).published_day == "2020-02-24"
    # 14:00 UTC cannot be the evening before anywhere a newsroom is
    assert _meta(_ld("2020-02-25T14:00:00Z"), "<p>x</p>", url).published_day == "2020-02-25"
    # an explicit offset is the page's own day already
    assert _meta(_ld("2020-02-25T02:25:54+01:00"), "<p>x</p>", url).published_day == "2020-02-25"


def test_time_elements_contradicting_the_url_date_are_other_content():
    url = "https://blog.example/2019/10/22/repairing-old-devices/"
    comments = '<p>x</p><ol class="comments"><li><time datetime="2009-04-11 18:06:36">x</time></li></ol>'
    assert _meta("", comments, url).published_day == "2019-10-22"
    # a <time> that states the URL's day is the article's own, with its time of day
    own = '<time datetime="2019-10-22 09:15:00">x</time>' + comments
    meta = _meta("", own, url)
    assert meta.published_day == "2019-10-22" and meta.published_source == "time"
    # without a date in the URL the <time> is all there is
    assert _meta("", comments, "https://blog.example/repairing").published_day == "2009-04-11"


def test_numeric_day_month_reading_follows_the_dotted_date_the_page_prints():
    url = "https://verein.example/news/trinkwasser"
    # "11/01/2023" read day first is 11 January; the page prints 01.11.2023 (day first): 1 November
    head = '<meta name="date" content="11/01/2023 12:43:42">'
    shown = "<article><p>Trinkwasser ist sicher.</p><p>Erstellt am: 01.11.2023</p></article>"
    assert _meta(head, shown, url).published_day == "2023-11-01"
    # thin spaces and a sentence's full stop after the year
    thin = "<article><p>Von Verband 01.\u200911.\u20092023.</p></article>"
    assert _meta(head, thin, url).published_day == "2023-11-01"
    # the page prints the reading taken (or both, or neither): it stays
    assert _meta(head, "<article><p>Erstellt am: 11.01.2023</p></article>", url).published_day == "2023-01-11"
    both = "<article><p>11.01.2023</p><p>01.11.2023</p></article>"
    assert _meta(head, both, url).published_day == "2023-01-11"
    assert _meta(head, "<article><p>Trinkwasser.</p></article>", url).published_day == "2023-01-11"
    # an ISO date is no ambiguous reading
    assert _meta(_ld("2023-01-11T10:00:00+01:00"), shown, url).published_day == "2023-01-11"
