"""extract_article on synthetic SA-style pages: text, structure, anchors, page types, rules."""

from __future__ import annotations

from sacorpus.publications import ElementFilter, RuleSet
from sacorpus.text.extract import extract_article
from sacorpus.text.page import process_page

URL = "https://www.iol.co.za/news/south-africa/severe-storms-gauteng-1234"


def test_iol_fixture_text_and_metadata(fixture_html):
    ex = extract_article(fixture_html("iol_article.html"), URL)
    assert ex.page_type == "article"
    lines = ex.text.split("\n")
    assert lines[0].startswith("The South African Weather Service issued")
    assert any(line.startswith("Motorists were advised") for line in lines)
    # glued sentence repaired, abbreviations intact
    assert "bridges. The warning" in ex.text
    assert "U.S. consulate" in ex.text and "e.g. near" in ex.text
    # hidden and screen-reader text gone
    assert "Subscribe for only" not in ex.text and "Advertisement continues" not in ex.text
    assert ex.title_clean == "Severe storms hit Gauteng, residents urged to stay indoors"
    assert ex.authors == ["Thandi Mokoena", "Pieter van Wyk"]
    assert ex.published_at == "2025-11-28T13:26:06Z"
    assert ex.published_day == "2025-11-28"
    assert ex.modified_at == "2025-11-28T15:00:00Z"
    assert ex.section == "South Africa"
    assert ex.tags == ["weather", "Gauteng"]
    assert ex.canonical_url == "https://www.iol.co.za/news/south-africa/severe-storms-gauteng-1234"
    assert ("IOL", "/news/weather") in ex.anchors
    assert all(text != "Home" for text, _ in ex.anchors)


def test_rules_strip_text_and_filters(fixture_html):
    rules = RuleSet(
        version="iol-2025",
        strip_text=(r"^© \d{4} Independent Online.*$",),
        filters=(ElementFilter("div", "class", r"related-links"),),
    )
    plain = extract_article(fixture_html("iol_article.html"), URL)
    ruled = extract_article(fixture_html("iol_article.html"), URL, rules)
    assert "Independent Online" not in ruled.text
    assert "Another story" not in ruled.text
    assert len(ruled.text) <= len(plain.text)


def test_prune_xpath_rule(make_page):
    html = make_page(
        body="<div class='promo'><p>"
        + "Win a trip to Cape Town with our partner offer today. " * 4
        + "</p></div>"
    )
    assert "Win a trip" in extract_article(html, URL).text
    pruned = extract_article(html, URL, RuleSet(prune_xpaths=("//div[@class='promo']",)))
    assert "Win a trip" not in pruned.text


def test_paragraph_structure_kept(make_page):
    ex = extract_article(make_page(paragraphs=4), URL)
    assert [line.split(":")[0] for line in ex.text.split("\n")] == [f"Paragraph {i}" for i in range(4)]


def test_fallback_title_date_from_feed(make_page):
    ex = extract_article(
        make_page(),
        "https://example.org/story",
        fallback={
            "title": "Feed title of the story",
            "published": "Fri, 28 Nov 2025 13:26:06 +0200",
            "authors": ["By Lerato Dlamini"],
        },
    )
    assert ex.title_clean == "Feed title of the story"
    assert ex.published_at == "2025-11-28T11:26:06Z"
    assert ex.authors == ["Lerato Dlamini"]


def test_gallery_is_labelled_not_dropped(fixture_html):
    ex = extract_article(fixture_html("gallery.html"), "https://www.news24.com/pictures/durban-july-2025")
    assert ex.page_type == "gallery"
    assert ex.title_clean == "IN PICTURES: Durban July 2025"


def test_video_liveblog_short_pages(make_page):
    video = make_page(head="<meta property='og:type' content='video.other'>", paragraphs=1)
    assert extract_article(video, "https://www.enca.com/videos/clip-1").page_type == "video"
    live = make_page(
        head='<script type="application/ld+json">{"@type":"LiveBlogPosting","headline":"Live: Budget"}</script>'
    )
    assert extract_article(live, "https://www.news24.com/live/budget").page_type == "liveblog"
    short = "<html><body><article><h1>Notice</h1><p>Office closed on Friday.</p></article></body></html>"
    assert extract_article(short, "https://x.co.za/notice").page_type == "short"


def test_empty_and_unparsable():
    assert extract_article("", URL).page_type == "empty"
    assert extract_article("   \n", URL).page_type == "empty"


def test_process_page_runs_whole_path(fixture_html):
    import gzip

    body = gzip.compress(gzip.compress(fixture_html("iol_article.html").encode("utf-8")))
    result = process_page(body, {"Content-Encoding": "gzip"}, URL)
    assert result.decompressed.applied == ["gzip", "gzip"]
    assert result.decoded.encoding == "utf-8"
    assert result.extracted.title_clean.startswith("Severe storms")


def test_furniture_lines_dropped_reporting_kept():
    from sacorpus.text.linefilters import drop_furniture_lines

    furniture = [
        "Water cuts hit Soweto",  # the headline repeated in the body (the title is its own field)
        "READ MORE: Rand Water blames Eskom",
        "ALSO READ | Tshwane taps run dry",
        "FUNDA OLUNYE UDABA LAPHA | Kuboshwe abahlanu",
        "Image: Getty Images",
    ]
    reporting = [
        "Residents of Soweto queued for water on Monday.",
        "05.08.2024, 20:59 Uhr",
        "By Thandi Mokoena",
        "(Sapa)",
        "Additional reporting by Reuters",
        "External content not available",
        "Got a story? Email our news team at news@example.co.za",
        "The council said more tankers would arrive on Tuesday.",
    ]
    text = "\n".join(
        [
            furniture[0],
            reporting[0],
            *furniture[1:],
            *reporting[1:6],
            reporting[5],
            reporting[5],
            *reporting[6:],
        ]
    )
    out = drop_furniture_lines(text, ["Water cuts hit Soweto"]).split("\n")
    assert out == reporting  # a line repeated on the page keeps its first occurrence


def test_lists_and_tables_stay_on_news_reports(make_page):
    ld = '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Budget vote"}</script>'
    body = (
        "<p>The specifications of the new trains were published on Tuesday by the rail agency.</p>"
        "<ul><li>Top speed: 160 km/h</li><li>Seats: 1,200</li></ul>"
        "<table><tr><td>Route</td><td>Trains</td></tr><tr><td>Soweto</td><td>12</td></tr></table>"
    )
    news = extract_article(make_page(head=ld, body=body), URL)
    assert "Top speed: 160 km/h" in news.text and "Seats: 1,200" in news.text and "Soweto" in news.text


def test_a_single_linked_line_stays_a_run_of_them_goes():
    from sacorpus.text.linefilters import drop_link_lines

    anchors = [
        ("Cabinet approves the new water bill", "/a"),
        ("Rand firms against the dollar", "/b"),
        ("Springboks name squad for tour", "/c"),
        ("Eskom warns of stage 2 load-shedding", "/d"),
    ]
    text = "\n".join(
        [
            "The minister said:",
            "Cabinet approves the new water bill",
            "It goes to parliament next.",
            "Rand firms against the dollar",
            "Springboks name squad for tour",
            "Eskom warns of stage 2 load-shedding",
        ]
    )
    assert drop_link_lines(text, anchors).split("\n") == [
        "The minister said:",
        "Cabinet approves the new water bill",
        "It goes to parliament next.",
    ]


def test_long_paragraph_with_email_address_is_kept():
    from sacorpus.text.linefilters import drop_furniture_lines

    para = (
        "The municipality said residents who had not received a tanker by Wednesday could report the "
        "outage to its call centre or write to water@joburg.example.org, and that teams would work through "
        "the night to restore supply to the worst-affected parts of Soweto and Lenasia before the weekend."
    )
    assert drop_furniture_lines(para, []) == para
