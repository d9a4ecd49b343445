"""The corpus browser in a real headless Chromium (Debian's /usr/bin/chromium via Playwright).

A reader's path through the pages: search, a concordance, an article, its duplicate's evidence link,
the word list, collocations and the stats charts, with a screenshot of each. The screenshots go to
``$SACORPUS_SCREENSHOTS`` when set, else the test's temporary directory (the path is printed).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from servekit import Served, sqlite_args, start_server

from sacorpus.rendering import CHROMIUM_ARGS
from sacorpus.testing.servers import stop_process

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(browser_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    log = tmp_path_factory.mktemp("serve-chromium") / "serve.log"
    proc, url = start_server(sqlite_args(browser_store), log)
    try:
        yield Served(url, [])
    finally:
        stop_process(proc)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple]:
    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: run scripts/setup.sh --dev (apt chromium)"
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("SACORPUS_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    print(f"corpus browser screenshots in {shots}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", *CHROMIUM_ARGS]
        )
        try:
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            dialogs: list[str] = []
            tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            yield tab, shots, dialogs
        finally:
            browser.close()


def test_a_reader_walks_through_the_corpus(server: Served, page: tuple) -> None:
    tab, shots, dialogs = page
    tab.goto(server.url + "/search")
    tab.fill("input[name=q]", "water")
    tab.select_option("select[name=publication]", ["mg", "news24"])
    tab.click("form.query button[type=submit]")
    hits = tab.locator("ol.hits a.title")
    assert sorted(hits.all_inner_texts()) == ["Water", "Water shortages"]
    tab.screenshot(path=str(shots / "search.png"), full_page=True)

    tab.click("nav.top >> text=KWIC")
    assert tab.locator("select[name=publication] option:checked").all_inner_texts() == ["mg", "news24"]
    tab.select_option("select[name=publication]", [])  # the filter came along; the concordance is corpus-wide
    tab.fill("input[name=q]", "land reform")
    tab.select_option("select[name=sort]", "left")
    tab.click("form.query button[type=submit]")
    keywords = tab.locator("table.kwic td.kw").all_inner_texts()
    assert [k.lower() for k in keywords] == ["land reform"] * 4
    tab.screenshot(path=str(shots / "kwic.png"), full_page=True)

    tab.goto(server.url + "/article?url=" + quote("https://iol.example/land-reform-2", safe=""))
    assert tab.locator("td.label-duplicate").inner_text() == "duplicate"
    tab.click("ul.matches a")
    assert tab.locator("h1").inner_text() == "Land reform: debate continues"
    assert tab.url.endswith(quote("https://iol.example/land-reform-1"))
    tab.click("details.sentences summary")
    assert tab.locator("section.sentence").count() == 3
    tab.screenshot(path=str(shots / "article.png"), full_page=True)

    tab.goto(server.url + "/article?url=" + quote("https://mg.example/escape"))
    assert tab.locator("h1").inner_text() == "<script>document.title='pwned'</script>Budget vote"
    # the script would have set the title to "pwned": it was shown, not run
    assert tab.title() == "<script>document.title='pwned'</script>Budget vote · sacorpus" and dialogs == []
    tab.screenshot(path=str(shots / "escaped.png"), full_page=True)

    for path, shot, ready in (
        ("/wordlist?lower=1", "wordlist.png", "table.numbers tbody tr"),
        ("/collocations?node=land&min=1", "collocations.png", "table.numbers tbody tr"),
        ("/stats", "stats.png", "svg.chart polyline"),
    ):
        tab.goto(server.url + path)
        assert tab.locator(ready).count() > 0, path
        tab.screenshot(path=str(shots / shot), full_page=True)
    box = tab.locator("svg.chart").bounding_box()
    assert box is not None and box["width"] > 400 and box["height"] > 100  # the chart is drawn, not empty
    assert dialogs == []
    assert sorted(p.name for p in shots.iterdir()) == sorted(
        [
            "search.png",
            "kwic.png",
            "article.png",
            "escaped.png",
            "wordlist.png",
            "collocations.png",
            "stats.png",
        ]
    )
