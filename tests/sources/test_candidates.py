"""Source candidates found in a page: other sites' feeds and sitemaps, never the publication's own."""

from __future__ import annotations

from sacorpus.sources.candidates import find_candidates, kind_of_link

PAGE = "https://www.citizen.co.za/news/a-long-story-about-a-clinic/"


def own(host: str) -> bool:
    return host == "citizen.co.za" or host.endswith(".citizen.co.za")


def found(html: str) -> list[tuple[str, str]]:
    return [(c.url, c.kind) for c in find_candidates(html, PAGE, own)]


def test_alternate_feeds_of_other_hosts_are_candidates_and_own_ones_are_not() -> None:
    html = """<html><head>
    <link rel="alternate" type="application/rss+xml" href="https://www.citizen.co.za/feed/">
    <link rel="alternate" type="application/rss+xml" href="/feed/">
    <link rel="alternate" type="application/atom+xml" href="https://ZuluPaper.co.za/atom.xml#top">
    <link rel="alternate" hreflang="af" href="https://maroelamedia.co.za/">
    <link rel="alternate" type="application/json+oembed" href="https://other.example/wp-json/oembed/1.0/x">
    </head><body><p>text</p></body></html>"""
    assert found(html) == [("https://zulupaper.co.za/atom.xml", "feed")]


def test_links_shaped_like_feeds_or_sitemaps_on_other_domains() -> None:
    html = """<html><body>
    <a href="https://www.enca.com/rss.xml">eNCA</a>
    <a href="https://www.moneyweb.co.za/feed/">Moneyweb</a>
    <a href="https://www.moneyweb.co.za/feed/">again</a>
    <a href="https://news.example.org/sitemap_index.xml">map</a>
    <a href="https://news.example.org/news-sitemap.xml.gz">news map</a>
    <a href="https://www.moneyweb.co.za/comments/feed/">comments</a>
    <a href="https://www.moneyweb.co.za/news/feed-the-children-drive-ends/">a story</a>
    <a href="https://www.citizen.co.za/sitemap.xml">own</a>
    <a href="mailto:news@enca.com">mail</a>
    <a href="javascript:void(0)">js</a>
    </body></html>"""
    assert found(html) == [
        ("https://www.enca.com/rss.xml", "feed"),
        ("https://www.moneyweb.co.za/feed/", "feed"),
        ("https://news.example.org/sitemap_index.xml", "sitemap"),
        ("https://news.example.org/news-sitemap.xml.gz", "sitemap"),
    ]


def test_the_page_host_counts_as_own_and_bad_input_gives_nothing() -> None:
    mirror_page = "http://127.0.0.1:8080/news/a-story/"
    html = '<html><body><a href="http://127.0.0.1:8080/feed/">own feed via mirror</a></body></html>'
    assert find_candidates(html, mirror_page, own) == []
    assert find_candidates("", PAGE, own) == [] and find_candidates("no markup", PAGE, own) == []
    assert find_candidates("<html><a href='http://[::1'>x</a></html>", PAGE, own) == []


def test_kind_of_link_by_path() -> None:
    assert kind_of_link("https://a.example/rss") == "feed"
    assert kind_of_link("https://a.example/feeds/posts/default") == "feed"
    assert kind_of_link("https://a.example/section/index.rss") == "feed"
    assert kind_of_link("https://a.example/wp-sitemap-posts-post-1.xml") == "sitemap"
    assert kind_of_link("https://a.example/news/feedback-from-readers/") is None
    assert kind_of_link("https://a.example/about/") is None
