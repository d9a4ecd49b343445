"""The demo site (The Demo Gazette) and the SiteServer that serves it and the fixture sites."""

from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from sacorpus.demo.server import Resource, SiteServer
from sacorpus.demo.site import HIDDEN_MARKERS, build_site, expectations, load_articles
from sacorpus.publications import load_publication
from sacorpus.text.page import process_page

ARTICLE_RE = re.compile(r"^/(news|business)/\d{4}/\d{2}/\d{2}/[a-z0-9-]+-\d+$")


def fetch(url: str, headers: dict | None = None, method: str = "GET"):
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    return urllib.request.urlopen(request, timeout=10)


def test_demo_has_at_least_30_articles_in_two_sections(demo_site: dict) -> None:
    articles = [p for p in demo_site if ARTICLE_RE.match(p)]
    assert len(articles) >= 30
    assert {p.split("/")[1] for p in articles} == {"news", "business"}
    assert any(p.startswith("/gallery/") for p in demo_site)


def test_demo_is_deterministic(demo_site: dict) -> None:
    again = build_site()
    assert again.keys() == demo_site.keys()
    assert all(again[k].body == demo_site[k].body for k in demo_site)


def test_hidden_markers_are_in_the_raw_html(demo_site: dict) -> None:
    pages = [r.body.decode() for p, r in demo_site.items() if ARTICLE_RE.match(p)]
    hidden = [h for h in pages if HIDDEN_MARKERS[0] in h]
    assert len(hidden) == 1
    page = hidden[0]
    for marker in HIDDEN_MARKERS:
        assert marker in page
    for construct in (
        'style="display:none"',
        'style="DISPLAY: NONE"',
        "<p hidden>",
        'class="sr-only"',
        "<template>",
    ):
        assert construct in page


def test_glued_paragraph_page(demo_site: dict) -> None:
    glued = [
        r.body.decode()
        for p, r in demo_site.items()
        if ARTICLE_RE.match(p) and re.search(r"\.</p><p>[A-Z“]", r.body.decode())
    ]
    assert len(glued) == 1


def test_variants_and_languages() -> None:
    articles = load_articles()
    kinds = {a.variant_kind for a in articles if a.variant_kind}
    assert kinds == {"changed_lead", "added_sentence", "boilerplate", "exact_copy"}
    by_id = {a.id: a for a in articles}
    for a in articles:
        if a.variant_kind:
            source = by_id[a.variant_of]
            assert a.section != source.section
            assert (a.paragraphs == source.paragraphs) == (a.variant_kind == "exact_copy")
    for lang in ("zu", "af"):
        page = [a for a in articles if a.lang == lang]
        assert len(page) == 1 and len(page[0].paragraphs) >= 4


def test_demo_toml_rules_fit_the_demo_markup(demo_site: dict) -> None:
    """The demo's pages through the crawl's page core, with the demo's rules: headline, author, URL rules."""
    pub = load_publication("demo")
    for path, want in expectations().items():
        page = demo_site[path]
        ex = process_page(page.body, {}, pub.home.rstrip("/") + path, pub).extracted
        assert ex is not None and ex.title_clean == want["title_clean"], path
        assert ex.authors[:1] == want["authors"][:1], path
        assert pub.urls.id_pattern and re.search(pub.urls.id_pattern, path)
        assert any(re.search(p, path) for p in pub.urls.article)
        assert not any(re.search(p, path) for p in pub.urls.deny)
    gallery = next(p for p in demo_site if p.startswith("/gallery/"))
    assert any(re.search(p, gallery) for p in pub.urls.deny)


def test_server_serves_feeds_and_sitemaps(demo_server: SiteServer) -> None:
    base = demo_server.base_url
    robots = fetch(base + "/robots.txt").read().decode()
    sitemap_url = re.search(r"^Sitemap: (\S+)$", robots, re.M).group(1)
    assert sitemap_url == base + "/sitemap_index.xml"
    index = ET.fromstring(fetch(sitemap_url).read())
    locs = [e.text for e in index.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert any(loc.endswith(".xml.gz") for loc in locs) and any(loc.endswith(".xml") for loc in locs)
    total = 0
    for loc in locs:
        response = fetch(loc)
        body = response.read()
        if loc.endswith(".gz"):
            assert body[:2] == b"\x1f\x8b" and response.headers.get("Content-Encoding") is None
            body = gzip.decompress(body)
        urls = [e.text for e in ET.fromstring(body).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
        assert all(u.startswith(base + "/") for u in urls)
        total += len(urls)
    assert total >= 31  # every article plus the gallery
    rss = ET.fromstring(fetch(base + "/rss.xml").read())
    assert rss.tag == "rss" and rss.get("version") == "2.0" and rss.findall("./channel/item")
    atom = ET.fromstring(fetch(base + "/business/atom.xml").read())
    assert atom.tag == "{http://www.w3.org/2005/Atom}feed"
    assert atom.findall("{http://www.w3.org/2005/Atom}entry")
    news = ET.fromstring(fetch(base + "/news-sitemap.xml").read())
    assert news.findall(".//{http://www.google.com/schemas/sitemap-news/0.9}publication_date")


def test_server_replaces_base_in_pages(demo_server: SiteServer) -> None:
    path = next(p for p in demo_server.paths() if ARTICLE_RE.match(p))
    html = fetch(demo_server.url(path)).read().decode()
    assert "{base}" not in html
    assert f'href="{demo_server.base_url}{path}"' in html


def test_conditional_get_head_and_404(demo_server: SiteServer) -> None:
    url = demo_server.url("/rss.xml")
    first = fetch(url)
    etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    assert etag and modified
    with pytest.raises(urllib.error.HTTPError) as info:
        fetch(url, {"If-None-Match": etag})
    assert info.value.code == 304
    with pytest.raises(urllib.error.HTTPError) as info:
        fetch(url, {"If-Modified-Since": modified})
    assert info.value.code == 304
    assert fetch(url, {"If-None-Match": '"other"'}).status == 200
    head = fetch(url, method="HEAD")
    assert head.status == 200 and head.read() == b"" and int(head.headers["Content-Length"]) > 100
    with pytest.raises(urllib.error.HTTPError) as info:
        fetch(demo_server.url("/no/such/page"))
    assert info.value.code == 404


def test_query_strings_and_special_responses() -> None:
    resources = {
        "/feed/?outputType=xml&page=1": Resource(b"<rss version='2.0'><channel/></rss>", "application/xml"),
        "/plain": Resource(b"plain {base}", "text/plain"),
    }
    with SiteServer(resources) as server:
        assert b"<rss" in fetch(server.url("/feed/?page=1&outputType=xml")).read()
        assert fetch(server.url("/plain?utm_source=x")).read() == f"plain {server.base_url}".encode()
        server.add_response("/plain", 503, {"Retry-After": "2"}, times=1)
        with pytest.raises(urllib.error.HTTPError) as info:
            fetch(server.url("/plain"))
        assert info.value.code == 503 and info.value.headers["Retry-After"] == "2"
        assert fetch(server.url("/plain")).status == 200
        server.add_redirect("/old", "{base}/plain")
        assert fetch(server.url("/old")).read().startswith(b"plain")
        assert ("GET", "/old") in server.requests


def test_public_base_override() -> None:
    with SiteServer(
        {"/a": Resource(b"<a href='{base}/b'>", "text/html")}, public_base="https://www.iol.co.za/"
    ) as s:
        assert fetch(s.url("/a")).read() == b"<a href='https://www.iol.co.za/b'>"


def test_absolute_form_request_is_served_by_path(demo_server: SiteServer) -> None:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", int(demo_server.base_url.rsplit(":", 1)[1]), timeout=10)
    conn.request("GET", "http://demo.sacorpus.invalid/robots.txt")
    response = conn.getresponse()
    assert response.status == 200 and b"Sitemap:" in response.read()
    conn.close()
