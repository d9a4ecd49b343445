"""Wayback pure helpers, and the same helpers against the loopback Wayback replay server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, date, datetime
from urllib.parse import parse_qs, urlsplit

import pytest

from sacorpus.sources.wayback import (
    Capture,
    cdx_url,
    memento_url,
    parse_cdx,
    parse_memento_url,
    timestamp_to_datetime,
)
from sacorpus.sources.wayback_homepage import closest_capture, homepage_links, previous_distinct, walk_back
from sacorpus.sources.wayback_windows import WindowLog, month_windows
from sacorpus.testing.wayback_replay import SyntheticCapture, WaybackReplay, surt_key

PLAIN_PAGE = """za,co,iol)/news/a-1 20130105120000 http://www.iol.co.za/news/a-1 text/html 200 AAAA1111 12345
za,co,iol)/news/b-2 20130106120000 https://www.iol.co.za/news/b-2 text/html 200 BBBB2222 -
za,co,iol)/news/bad 20131345120000 http://www.iol.co.za/news/bad text/html 200 CCCC3333 100
za,co,iol)/news/short 20130106120000 http://www.iol.co.za/news/short text/html
za,co,iol)/news/weird 20130107120000 some/not/even/url text/html 200 DDDD4444 1
za,co,iol)/news/rev 20130108120000 http://www.iol.co.za/news/rev warc/revisit - EEEE5555 0

za%2Cco%2Ciol%29%2Fnews%2Frev+20130108120000%3A
"""


def test_cdx_url_prefix_window_filters_collapse_paging():
    url = cdx_url(
        "iol.co.za/news/", from_=date(2013, 1, 1), to=date(2013, 1, 31), limit=500, resume_key="k%2B1"
    )
    parts = urlsplit(url)
    assert parts.scheme == "https" and parts.netloc == "web.archive.org" and parts.path == "/cdx/search/cdx"
    q = parse_qs(parts.query)
    assert q["url"] == ["iol.co.za/news/"] and q["matchType"] == ["prefix"]
    assert (q["from"], q["to"]) == (["20130101"], ["20130131"])
    assert q["filter"] == ["statuscode:200", "mimetype:text/html"]
    assert q["collapse"] == ["urlkey"] and q["limit"] == ["500"] and q["output"] == ["json"]
    assert q["showResumeKey"] == ["true"] and q["resumeKey"] == ["k%2B1"]


def test_cdx_url_domain_plain_digest():
    q = parse_qs(urlsplit(cdx_url("iol.co.za", match_type="domain", collapse="digest", output="plain")).query)
    assert q["matchType"] == ["domain"] and q["collapse"] == ["digest"] and "output" not in q
    with pytest.raises(ValueError):
        cdx_url("x.org", from_="January")


def test_parse_plain_page_with_resume_key_and_bad_lines():
    page = parse_cdx(PLAIN_PAGE.encode())
    assert page.resume_key == "za%2Cco%2Ciol%29%2Fnews%2Frev+20130108120000%3A"
    assert [c.original for c in page.captures] == [
        "http://www.iol.co.za/news/a-1",
        "https://www.iol.co.za/news/b-2",
        "http://www.iol.co.za/news/rev",
    ]
    first, second, revisit = page.captures
    assert (first.statuscode, first.length, first.digest) == (200, 12345, "AAAA1111")
    assert second.length is None  # zero-length / "-"
    assert revisit.statuscode is None
    assert len(page.problems) == 3
    assert any("bad timestamp" in p for p in page.problems)


def test_parse_json_page():
    rows = [
        ["urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"],
        ["za,co,iol)/", "20130101000000", "http://www.iol.co.za/", "text/html", "200", "D1", "100"],
        ["za,co,iol)/", "2013", "http://www.iol.co.za/", "text/html", "200", "D2", "100"],
        ["za,co,iol)/", "20130101"],
        [],
        ["RESUME"],
    ]
    page = parse_cdx(json.dumps(rows))
    assert page.resume_key == "RESUME"
    assert [c.timestamp for c in page.captures] == ["20130101000000", "20130000000000"]
    assert len(page.problems) == 1


@pytest.mark.parametrize(
    "body", [b"", b"[]", b"[", b"{}", b"<html>blocked</html>", b"\xff\xfe\x00", "[[1,2]]"]
)
def test_parse_cdx_never_raises(body):
    page = parse_cdx(body)
    assert page.captures == [] and page.resume_key is None


def test_timestamps():
    assert timestamp_to_datetime("20130105120000") == datetime(2013, 1, 5, 12, tzinfo=UTC)
    assert timestamp_to_datetime("201301") == datetime(2013, 1, 1, tzinfo=UTC)
    assert timestamp_to_datetime("20130230000000") is None
    assert timestamp_to_datetime("abc") is None


def test_memento_urls_round_trip():
    url = memento_url("20130105120000", "http://www.iol.co.za/news/a-1?x=1")
    assert url == "https://web.archive.org/web/20130105120000id_/http://www.iol.co.za/news/a-1?x=1"
    assert parse_memento_url(url) == ("20130105120000", "http://www.iol.co.za/news/a-1?x=1")
    assert parse_memento_url("https://web.archive.org/web/2013/https:/iol.co.za/") == (
        "2013",
        "https://iol.co.za/",
    )
    assert parse_memento_url("/web/20130105120000im_/iol.co.za/x.jpg") == (
        "20130105120000",
        "http://iol.co.za/x.jpg",
    )
    assert parse_memento_url("https://www.iol.co.za/news/a-1") is None
    assert memento_url(datetime(2013, 1, 5, 12, tzinfo=UTC), "http://a.org/", base="http://127.0.0.1:9/") == (
        "http://127.0.0.1:9/web/20130105120000id_/http://a.org/"
    )


def test_month_windows():
    assert month_windows(date(2012, 12, 15), date(2013, 2, 3)) == [
        (date(2012, 12, 15), date(2012, 12, 31)),
        (date(2013, 1, 1), date(2013, 1, 31)),
        (date(2013, 2, 1), date(2013, 2, 3)),
    ]
    assert len(month_windows(date(2013, 1, 1), date(2013, 12, 31))) == 12
    assert month_windows(date(2013, 2, 1), date(2013, 1, 1)) == []


def test_window_log_round_trip_and_resume():
    windows = month_windows(date(2013, 1, 1), date(2013, 3, 31))
    log = WindowLog()
    log.record_page("iol.co.za/news/", windows[0], "KEY1")
    assert not log.is_done("iol.co.za/news/", windows[0])
    log.record_page("iol.co.za/news/", windows[0], None)
    log.record_page("iol.co.za/news/", windows[1], "KEY2")
    restored = WindowLog.from_dict(json.loads(json.dumps(log.to_dict())))
    assert [w for w in windows if not restored.is_done("iol.co.za/news/", w)] == windows[1:]
    assert restored.resume_key("iol.co.za/news/", windows[1]) == "KEY2"
    assert not any(restored.is_done("other/", w) for w in windows)


def _cap(ts: str, digest: str, status: int | None = 200) -> Capture:
    return Capture("za,co,iol)/", ts, "http://www.iol.co.za/", "text/html", status, digest, 1)


HOME = [
    _cap("20130101060000", "A"),
    _cap("20130101120000", "A"),
    _cap("20130102060000", "B"),
    _cap("20130102120000", "B"),
    _cap("20130103060000", "A"),  # flip-flop back to A
    _cap("20130103090000", "X", status=503),
    _cap("20130104060000", "C"),
]


def test_closest_and_previous_distinct():
    assert closest_capture(HOME, datetime(2013, 1, 3, 10, tzinfo=UTC)).timestamp == "20130103060000"
    assert closest_capture(HOME, "20130105").timestamp == "20130104060000"
    assert closest_capture([], date(2013, 1, 1)) is None
    current = closest_capture(HOME, date(2013, 1, 2))
    assert current.timestamp == "20130102060000"
    assert previous_distinct(HOME, current).timestamp == "20130101120000"
    assert previous_distinct(HOME, HOME[0]) is None


def test_walk_back_visits_each_version_once_and_stops():
    steps = [c.timestamp for c in walk_back(HOME, date(2013, 1, 5))]
    assert steps == ["20130104060000", "20130103060000", "20130102120000"]
    assert [c.digest for c in walk_back(HOME, date(2013, 1, 5), stop=date(2013, 1, 3))] == ["C", "A"]
    assert len(list(walk_back(HOME, date(2013, 1, 5), max_steps=1))) == 1


def test_homepage_links_become_mementos_near_the_capture():
    home = _cap("20130105060000", "H")
    html = b"""<html><body>
      <a href="/news/story-1234567">one</a>
      <a href="http://www.iol.co.za/news/story-1234567#comments">dup</a>
      <a href="/web/20130104000000/http://www.iol.co.za/news/other-7654321">rewritten</a>
      <a href="/video/clip-1111111">video</a><a href="mailto:x@y.z">mail</a><a href="#top">top</a>
      <a href="https://elsewhere.org/x">out</a>
    </body></html>"""
    links = homepage_links(html, home, accept=lambda u: "/news/" in u and "iol.co.za" in u)
    assert links == [
        "https://web.archive.org/web/20130105060000id_/http://www.iol.co.za/news/story-1234567",
        "https://web.archive.org/web/20130105060000id_/http://www.iol.co.za/news/other-7654321",
    ]
    assert len(homepage_links(html, home)) == 4
    assert homepage_links(b"", home) == [] and homepage_links(b"\x00", home) == []


# --- against the loopback replay ------------------------------------------------------------------


def _captures() -> list[SyntheticCapture]:
    caps = [
        SyntheticCapture(
            f"http://www.iol.co.za/news/story-{i}", f"201301{i:02d}120000", f"<p>story {i}</p>".encode()
        )
        for i in range(1, 11)
    ]
    caps.append(SyntheticCapture("http://www.iol.co.za/news/story-1", "20130120120000", b"<p>story 1 v2</p>"))
    caps.append(
        SyntheticCapture("http://www.iol.co.za/news/pic.jpg", "20130103120000", b"jpg", mimetype="image/jpeg")
    )
    caps.append(SyntheticCapture("http://www.iol.co.za/news/gone", "20130104120000", b"", status=404))
    caps.append(SyntheticCapture("http://www.iol.co.za/news/feb", "20130201120000", b"<p>feb</p>"))
    caps.append(SyntheticCapture("http://sport.iol.co.za/x", "20130105120000", b"<p>sport</p>"))
    return caps


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


@pytest.mark.parametrize("output", ["json", "plain"])
def test_replay_paging_with_resume_keys_and_filters(output):
    with WaybackReplay(_captures()) as replay:
        seen, key, pages = [], None, 0
        while True:
            url = cdx_url(
                "iol.co.za/news/", from_=date(2013, 1, 1), to=date(2013, 1, 31), limit=4,
                output=output, resume_key=key, base=replay.base_url,
            )  # fmt: skip
            page = parse_cdx(_get(url))
            assert page.problems == []
            seen += [c.original for c in page.captures]
            pages += 1
            key = page.resume_key
            if not key:
                break
    # collapse=urlkey: story-1 once; filters drop the jpg and the 404; window drops February.
    assert sorted(seen) == sorted(f"http://www.iol.co.za/news/story-{i}" for i in range(1, 11))
    assert pages == 3


def test_replay_domain_match_and_digest_collapse():
    with WaybackReplay(_captures()) as replay:
        page = parse_cdx(_get(cdx_url("iol.co.za", match_type="domain", collapse=None, filters=(), limit=None,
                                      base=replay.base_url)))  # fmt: skip
        assert "http://sport.iol.co.za/x" in {c.original for c in page.captures}
        assert len(page.captures) == 15


def test_replay_rate_limits_once_then_answers():
    with WaybackReplay(_captures(), rate_limit_first=1, retry_after="0") as replay:
        url = cdx_url("iol.co.za/news/", base=replay.base_url)
        with pytest.raises(urllib.error.HTTPError) as info:
            _get(url)
        assert info.value.code == 429 and info.value.headers["Retry-After"] == "0"
        assert len(parse_cdx(_get(url)).captures) == 11  # 10 stories + feb, no window


def test_replay_mementos_exact_and_nearest():
    with WaybackReplay(_captures()) as replay:
        exact = memento_url("20130120120000", "http://www.iol.co.za/news/story-1", base=replay.base_url)
        with urllib.request.urlopen(exact, timeout=10) as response:
            assert response.read() == b"<p>story 1 v2</p>"
            assert response.headers["Memento-Datetime"] == "Sun, 20 Jan 2013 12:00:00 GMT"
        near = memento_url("20130102", "http://www.iol.co.za/news/story-1", base=replay.base_url)
        with urllib.request.urlopen(near, timeout=10) as response:  # follows the 302
            assert response.read() == b"<p>story 1</p>"
            assert parse_memento_url(response.geturl())[0] == "20130101120000"
        with pytest.raises(urllib.error.HTTPError) as info:
            _get(memento_url("2013", "http://nowhere.example.org/", base=replay.base_url))
        assert info.value.code == 404


def test_surt_key():
    assert surt_key("http://www.IOL.co.za/News/A?b=1") == "za,co,iol)/news/a?b=1"
    assert surt_key("iol.co.za") == "za,co,iol)/"


def test_cdx_url_start_end_aliases():
    assert cdx_url("a.org/", start=date(2013, 1, 1), end=date(2013, 1, 31)) == cdx_url(
        "a.org/", from_=date(2013, 1, 1), to=date(2013, 1, 31)
    )
