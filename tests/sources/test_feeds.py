"""Feed parsing on synthetic documents modelled on real feeds (one feature per document)."""

from __future__ import annotations

import json
import time

from sacorpus.sources import feeds
from sacorpus.sources.feeds import parse_feed

RSS20 = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
<channel>
  <title>Example News</title><link>https://news.example.co.za/</link><language>en-za</language>
  <item>
    <title>Load shedding &amp; the grid</title>
    <link>https://feeds.feedburner.com/~r/example/~3/abc/grid</link>
    <feedburner:origLink>https://news.example.co.za/news/grid-123456</feedburner:origLink>
    <guid isPermaLink="false">grid-123456</guid>
    <pubDate>Tue, 03 Jan 2023 08:15:00 +0200</pubDate>
    <dc:creator>Thandi Mokoena</dc:creator>
    <description>&lt;p&gt;Eskom said &lt;b&gt;stage 4&lt;/b&gt; continues.&lt;/p&gt;</description>
  </item>
  <item>
    <title>Relative link</title>
    <link>/news/relative-654321</link>
    <pubDate>not a date</pubDate>
  </item>
  <item>
    <title>Guid only</title>
    <guid>https://news.example.co.za/news/guid-only-111111</guid>
  </item>
</channel></rss>"""

RDF = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://rdf.example.org/"><title>RDF site</title><link>https://rdf.example.org/</link></channel>
  <item rdf:about="https://rdf.example.org/a"><title>First RDF item</title><link>https://rdf.example.org/a</link>
    <dc:date>2004-02-13T16:35:00+01:00</dc:date><dc:creator>Jane Doe</dc:creator></item>
</rdf:RDF>"""

ATOM10 = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://atom.example.org/blog/" xml:lang="af">
  <title>Atom site</title>
  <link rel="self" href="https://atom.example.org/feed.atom"/>
  <entry>
    <title type="html">Eerste &lt;em&gt;artikel&lt;/em&gt;</title>
    <link rel="alternate" href="2024/eerste"/>
    <link rel="enclosure" href="https://cdn.example.org/a.mp3"/>
    <id>tag:atom.example.org,2024:1</id>
    <published>2024-03-01T10:00:00Z</published>
    <updated>2024-03-02T10:00:00Z</updated>
    <author><name>Piet Pompies</name></author>
    <author><name>Sarie Marais</name></author>
    <summary>Kort opsomming</summary>
  </entry>
  <entry xml:base="https://other.example.org/x/">
    <title>Second</title><link href="y"/><id>urn:2</id><updated>2024-03-03T10:00:00+02:00</updated>
  </entry>
</feed>"""

ATOM03 = b"""<?xml version="1.0" encoding="utf-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
  <title>Old Atom</title><link rel="alternate" type="text/html" href="http://old.example.org/"/>
  <entry><title>Atom 0.3 entry</title><link rel="alternate" type="text/html" href="http://old.example.org/2005/entry"/>
    <id>tag:old.example.org,2005:1</id><issued>2005-07-01T12:00:00Z</issued><modified>2005-07-01T12:00:00Z</modified>
    <author><name>Old Author</name></author></entry>
</feed>"""

JSON_FEED = json.dumps(
    {
        "version": "https://jsonfeed.org/version/1.1",
        "title": "JSON site",
        "home_page_url": "https://json.example.org/",
        "language": "zu",
        "authors": [{"name": "Feed Author"}],
        "items": [
            {
                "id": "1",
                "url": "https://json.example.org/a",
                "title": "Indaba",
                "content_html": "<p>Hello <script>alert(1)</script>world</p>",
                "date_published": "2024-05-06T07:08:09+02:00",
                "authors": [{"name": "Item Author"}],
            },
            {"id": "https://json.example.org/b", "content_text": "no url, guid is a URL"},
            "not an object",
        ],
    }
).encode()


def test_rss20_origlink_dates_authors_summary_and_relative_links():
    result = parse_feed(RSS20, "https://news.example.co.za/rss.xml")
    assert result.kind == "rss20"
    assert result.title == "Example News"
    first, second, third = result.entries
    assert first.url == "https://news.example.co.za/news/grid-123456"  # origLink preferred
    assert first.link == "https://feeds.feedburner.com/~r/example/~3/abc/grid"
    assert first.title == "Load shedding & the grid"
    assert first.published == "2023-01-03T06:15:00Z"
    assert first.published_raw == "Tue, 03 Jan 2023 08:15:00 +0200"
    assert first.authors == ["Thandi Mokoena"]
    assert first.guid == "grid-123456"
    assert first.summary == "Eskom said stage 4 continues."
    assert first.language == "en-za"
    assert second.url == "https://news.example.co.za/news/relative-654321"
    assert second.published is None and second.published_raw == "not a date"
    assert third.url == "https://news.example.co.za/news/guid-only-111111"


def test_rdf():
    result = parse_feed(RDF, "https://rdf.example.org/index.rdf")
    assert result.kind == "rss10"
    (entry,) = result.entries
    assert (entry.url, entry.title, entry.authors) == (
        "https://rdf.example.org/a",
        "First RDF item",
        ["Jane Doe"],
    )
    assert entry.published == "2004-02-13T15:35:00Z"


def test_atom10_xml_base_and_multiple_authors():
    result = parse_feed(ATOM10, "https://atom.example.org/feed.atom")
    assert result.kind == "atom10"
    first, second = result.entries
    assert first.url == "https://atom.example.org/blog/2024/eerste"
    assert first.title == "Eerste artikel"
    assert first.authors == ["Piet Pompies", "Sarie Marais"]
    assert first.published == "2024-03-01T10:00:00Z"
    assert first.updated == "2024-03-02T10:00:00Z"
    assert first.guid == "tag:atom.example.org,2024:1"
    assert first.language == "af"
    assert second.url == "https://other.example.org/x/y"
    assert second.published == "2024-03-03T08:00:00Z"  # falls back to updated


def test_atom03():
    result = parse_feed(ATOM03, "http://old.example.org/atom.xml")
    assert result.kind == "atom03"
    (entry,) = result.entries
    assert entry.url == "http://old.example.org/2005/entry"
    assert entry.published == "2005-07-01T12:00:00Z"
    assert entry.authors == ["Old Author"]


def test_json_feed():
    result = parse_feed(
        JSON_FEED, "https://json.example.org/feed.json", {"Content-Type": "application/feed+json"}
    )
    assert result.kind == "json11"
    assert result.title == "JSON site"
    first, second = result.entries
    assert first.url == "https://json.example.org/a"
    assert first.published == "2024-05-06T05:08:09Z"
    assert first.authors == ["Item Author"]
    assert first.summary == "Hello world"
    assert first.language == "zu"
    assert second.url == "https://json.example.org/b"
    assert second.authors == ["Feed Author"]
    assert result.bozo and "non-object" in result.problem


def test_invalid_json_feed_is_bozo_not_an_error():
    result = parse_feed(b'{"version": "https://jsonfeed.org/version/1", "items": [', "https://x.org/f.json")
    assert result.bozo and result.entries == [] and "invalid JSON" in result.problem


def test_latin1_declared_by_http_header():
    body = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Caf\xe9</title>'
        "<item><title>S\xe3o Paulo na\xefve</title><link>http://l.example.org/1</link></item></channel></rss>"
    ).encode("latin-1")
    result = parse_feed(
        body, "http://l.example.org/rss", {"Content-Type": "application/rss+xml; charset=ISO-8859-1"}
    )
    assert result.title == "Café"
    assert result.entries[0].title == "São Paulo naïve"


def test_latin1_declared_in_xml():
    body = (
        '<?xml version="1.0" encoding="iso-8859-1"?><rss version="2.0"><channel><title>x</title>'
        "<item><title>M\xe3e</title><link>http://l.example.org/2</link></item></channel></rss>"
    ).encode("latin-1")
    assert parse_feed(body, "http://l.example.org/rss").entries[0].title == "Mãe"


def test_bozo_feed_still_yields_entries():
    body = (
        b'<?xml version="1.0"?><rss version="2.0"><channel><title>Broken & co</title>'
        b"<item><title>One</title><link>http://b.example.org/1</link></item>"
        b"<item><title>Two <b>bold</title><link>http://b.example.org/2</link></item>"
    )
    result = parse_feed(body, "http://b.example.org/rss")
    assert result.bozo and result.problem
    assert [e.url for e in result.entries] == ["http://b.example.org/1", "http://b.example.org/2"]


def test_garbage_never_raises():
    for body in (b"", b"\x00\xff\xfe", b"<html><body>not a feed</body></html>", b"{", "ünïcode".encode()):
        result = parse_feed(body, "http://g.example.org/")
        assert result.entries == []


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE rss [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title>
<item><title>Safe item</title><link>http://bomb.example.org/1</link></item></channel></rss>"""


def test_entity_bomb_is_not_expanded():
    start = time.monotonic()
    result = parse_feed(BILLION_LAUGHS, "http://bomb.example.org/rss")
    assert time.monotonic() - start < 5
    assert len(result.title or "") < 1000
    assert [e.url for e in result.entries] == ["http://bomb.example.org/1"]


def test_quadratic_blowup_is_bounded():
    big = "A" * 50_000
    refs = "&a;" * 20_000  # would expand to 1 GB
    body = (
        f'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "{big}">]><rss version="2.0"><channel>'
        f"<title>t</title><item><title>{refs}</title><link>http://q.example.org/1</link></item></channel></rss>"
    ).encode()
    start = time.monotonic()
    result = parse_feed(body, "http://q.example.org/rss")
    assert time.monotonic() - start < 20
    assert all(len(e.title or "") < 10_000_000 for e in result.entries)


def test_body_cap(monkeypatch):
    monkeypatch.setattr(feeds, "MAX_FEED_BYTES", 300)
    items = b"".join(
        b"<item><title>T%d</title><link>http://c.example.org/%d</link></item>" % (i, i) for i in range(50)
    )
    body = b'<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>' + items + b"</channel></rss>"
    result = parse_feed(body, "http://c.example.org/rss")
    assert result.bozo and "truncated" in result.problem
    assert 0 < len(result.entries) < 50


def test_scrapy_style_headers_bytes_keys_and_list_values():
    from scrapy.http import Headers

    body = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
        "<item><title>Caf\xe9</title><link>x/1</link></item></channel></rss>"
    ).encode("latin-1")
    headers = Headers(
        {"Content-Type": "text/xml; charset=iso-8859-1", "Content-Location": "http://h.example.org/a/"}
    )
    (entry,) = parse_feed(body, "http://h.example.org/rss", headers).entries
    assert entry.title == "Café"
    assert entry.url == "http://h.example.org/a/x/1"
