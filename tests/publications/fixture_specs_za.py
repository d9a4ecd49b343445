"""Fixture sites and rule-version layout pages of eNCA, Moneyweb, the Daily Sun, The Witness, the IOL
titles (Cape Times, Cape Argus, The Star, Pretoria News, The Mercury), Maroela Media, Vuk'uzenzele, Food
For Mzansi, and the Mail & Guardian's 2009-2013 layout.

``LAYOUTS_ZA`` extends build_fixture_sites.LAYOUTS (the crawled articles and their sources at the
publications' real source paths); ``za_specs()`` extends fixture_specs.SPECS (one page per rule version,
with the furniture that version's rules remove). Class names follow each publication file's comments:
where the real markup could not be checked offline, the file says so. Every sentence is invented.
"""

from __future__ import annotations

import fixture_specs as fs

IOL_TITLES = {
    "capetimes": ("Cape Times", "capetimes"),
    "capeargus": ("Cape Argus", "capeargus"),
    "thestar": ("The Star", "the-star"),
    "pretorianews": ("Pretoria News", "pretoria-news"),
    "mercury": ("The Mercury", "mercury"),
}

LAYOUTS_ZA: dict[str, dict] = {
    "enca": dict(
        site="eNCA",
        suffix=" | eNCA",
        layout="wp_author",
        sources=[("rss", "rss.xml"), ("sitemap", "sitemap.xml")],
    ),
    "moneyweb": dict(
        site="Moneyweb", suffix=" - Moneyweb", layout="wp_author", sources=[("rss", "feed/index.xml")]
    ),
    "witness": dict(site="The Witness", suffix=" | The Witness", layout="media24", sources=[("rss", "rss")]),
    "dailysun": dict(
        site="Daily Sun",
        suffix=" | Daily Sun",
        layout="media24",
        sources=[("sitemap", "dailysun/sitemap.xml")],
    ),
    "maroelamedia": dict(
        site="Maroela Media",
        suffix=" | Maroela Media",
        layout="wp_author",
        lang="af",
        sources=[("rss", "feed/index.xml")],
    ),
    # the pages declare English whatever their language: the crawl must identify it from the text
    "vukuzenzele": dict(
        site="Vuk'uzenzele",
        suffix=" | Vuk'uzenzele",
        layout="wp_author",
        langs={
            "/abalimi-abasafufusa-bathola-usizo-lukahulumeni": "zu",
            "/bacha-ba-rupelletswa-tsebong-ya-dikhomphutha": "st",
        },
        sources=[("rss", "rss.xml")],
    ),
    "foodformzansi": dict(
        site="Food For Mzansi",
        suffix=" - Food For Mzansi",
        layout="wp_author",
        sources=[("sitemap_index", "sitemap_index.xml"), ("sitemap", "post-sitemap.xml")],
    ),
    **{
        slug: dict(site=name, suffix=" | IOL", layout="iol", sources=[("rss", f"rss/{section}")])
        for slug, (name, section) in IOL_TITLES.items()
    },
}


def _page(
    slug: str, path: str, title: str, *, byline: str, container: str, inside: str, tail: str, **more
) -> dict:
    """A current-layout page (captured None) with the publication's first story and meta date."""
    _h, author, when = fs.story(slug)
    tag = container.split()[0].lstrip("<")
    spec = {
        "path": path,
        "captured": None,
        "title": "{h}" + title,
        "head": fs.meta(when, None),
        "byline": byline.format(author=fs.e(author)),
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": (container, f"</{tag}>"),
        "inside": inside,
        "tail": tail,
    }
    spec.update(more)
    return spec


def enca() -> dict:
    """eNCA (Drupal): the author field, the body field with a "related stories" field inside it, the app
    and channel pleas closing the story."""
    related = "Earlier this year the utility warned that the grid could not take another cold snap."
    return _page(
        "enca",
        "/south-africa/eskom-winter-maintenance-layout-drupal",
        " | eNCA",
        byline='<div class="field field--name-field-author"><div class="field__item">{author}</div></div>',
        container='<div class="field field--name-body field--type-text-with-summary">',
        inside=fs.box("field field--name-field-related-stories", related),
        tail=fs.line("Download the eNCA app for breaking news alerts on your phone.")
        + fs.line("For the latest news, watch eNCA on DStv channel 403."),
        absent=[related, "Download the eNCA app", "For the latest news, watch eNCA"],
    )


def moneyweb() -> dict:
    """Moneyweb (WordPress): the author name link, a "Moneyweb Premium" promo inside the story, the
    newsletter line after it."""
    promo = "Premium members get the full market analysis every morning before the JSE opens."
    return _page(
        "moneyweb",
        "/news/south-africa/rand-inflation-layout-wordpress/",
        " - Moneyweb",
        byline='<span class="article-author-name"><a href="{{base}}/author/x/">{author}</a></span>',
        container='<div class="article-body">',
        inside=fs.box("mw-premium-promo", promo),
        tail=fs.line("Get the best of Moneyweb in your inbox every weekday morning."),
        absent=[promo, "Get the best of Moneyweb in your inbox"],
    )


def media24(slug: str, path: str, site: str, box_cls: str, boxed: str, plea: str) -> dict:
    """A Media24 platform page (News24, The Witness, Daily Sun): ``.article__author`` "By", the story in
    ``.article__body`` with a platform box inside it, the title's plea closing the story."""
    return _page(
        slug,
        path,
        f" | {site}",
        byline='<div class="article__author">By {author}</div>',
        container='<div class="article__body">',
        inside=fs.box(box_cls, boxed),
        tail=fs.line(plea),
        absent=[boxed, plea],
    )


def iol_title(slug: str) -> dict:
    """An IOL title on IOL's 2024 layout (as fixture_specs.iol_2024): data-testid bylines, ad and "more
    news" slots, "Related Topics:" and the app plea."""
    name, section = IOL_TITLES[slug]
    ad = "Advertisement: compare car insurance quotes and save on your monthly premium today."
    more = f"{name}: the council postpones its vote on the new bus routes until next month."
    return _page(
        slug,
        f"/{section}/news/{slug}-layout-2024-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        " | Independent Online",
        byline='<p class="article-byline"><span data-testid="author-name">{author}</span></p>',
        container="<article>",
        inside=fs.box("advert advert--inline", ad),
        tail=fs.line("Get your news on the go, click here")
        + fs.line("Related Topics:")
        + fs.box("more-news", more, "section", "data-testid"),
        head=fs.meta(fs.story(slug)[2], "Independent Newspapers Online"),
        absent=[ad, "Get your news on the go, click here", "Related Topics:", more],
    )


def maroelamedia() -> dict:
    """Maroela Media (WordPress, Newspaper theme): ``.td-post-author-name`` "Deur", a "Lees ook" box in the
    story, the donation plea and the WhatsApp line after it."""
    also = "Lees ook: Boere in die Vrystaat wag steeds op reën ná ’n droë winter."
    return _page(
        "maroelamedia",
        "/nuus/sa-nuus/noordwes-reen-uitleg-wordpress/",
        " | Maroela Media",
        byline='<div class="td-post-author-name">Deur <a href="{{base}}/skrywer/x/">{author}</a></div>',
        container='<div class="td-post-content">',
        inside=fs.box("maroela-lees-ook", also),
        tail=fs.line("Steun Maroela Media: jou bydrae hou ons onafhanklik.")
        + fs.line("Volg Maroela Media op WhatsApp vir die jongste nuus."),
        lang="af",
        absent=[also, "Steun Maroela Media", "Volg Maroela Media op WhatsApp"],
    )


def vukuzenzele() -> dict:
    """Vuk'uzenzele (Drupal): the author field, the PDF-edition box inside the body, the language line
    after it; the page says lang="en" but the story is isiZulu."""
    pdf = "Download the November edition of Vuk'uzenzele as a PDF in your language."
    return _page(
        "vukuzenzele",
        "/abalimi-basemsinga-uhlelo-drupal-layout",
        " | Vuk'uzenzele",
        byline='<div class="field field--name-field-author"><div class="field__item">{author}</div></div>',
        container='<div class="field field--name-body">',
        inside=fs.box("field field--name-field-pdf-edition", pdf),
        tail=fs.line("Read this article in: English | isiZulu | Sesotho | Setswana"),
        lang="zu",
        html_lang="en",
        absent=[pdf, "Read this article in:"],
    )


def foodformzansi() -> dict:
    """Food For Mzansi (WordPress): the author name, an "Also read" box in the story, the newsletter line."""
    also = "A Limpopo co-operative doubled its tomato harvest this season after it built three tunnels."
    return _page(
        "foodformzansi",
        "/backyard-farmer-layout-wordpress/",
        " - Food For Mzansi",
        byline='<div class="ffm-author-name"><span>{author}</span></div>',
        container='<div class="entry-content">',
        inside=fs.box("ffm-also-read", also),
        tail=fs.line("Food For Mzansi brings you the farmers and the stories behind your food."),
        absent=[also, "Food For Mzansi brings you the farmers"],
    )


def mg_2011() -> dict:
    """The Mail & Guardian Online of 2009-2013: the story alone in ``div#content`` (the element calibre's
    2011 M&G recipe keeps), beside a column of "More from the M&G" teasers that reads like prose."""
    _h, author, _w = fs.story("mg")
    when = "2011-05-09T06:00:00+02:00"
    teasers = [
        "Villagers in Sekhukhune say the new smelter has poisoned the river their cattle drink from.",
        "The department of mineral resources has again postponed its decision on the disputed licence.",
    ]
    return {
        "path": "/article/2011-05-09-inside-the-fight-over-a-limpopo-mine",
        "captured": "2011-05-10",
        "published": when[:10],
        "title": "{h} | Mail & Guardian",
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<p class="author">{fs.e(author)}</p>',
        "top_in": '<div id="wrapper">',
        "container": ('<div id="content">', "</div>"),
        "after": '<div class="col_right">'
        + "".join(f"<div><p>{fs.e(t)}</p></div>" for t in teasers)
        + "</div></div>",
        "absent": teasers,
    }


def za_specs() -> dict[str, dict[str, dict]]:
    """slug -> version -> spec, for fixture_specs.SPECS (the M&G entry adds a version to its own)."""
    specs: dict[str, dict[str, dict]] = {
        "enca": {"drupal": enca()},
        "moneyweb": {"wordpress": moneyweb()},
        "witness": {
            "media24": media24(
                "witness",
                "/news/kzn/msunduzi-water-layout-media24-20261103",
                "The Witness",
                "article__related",
                "Also read: what the new tariffs mean for water bills in Pietermaritzburg.",
                "Subscribe to The Witness for the news that matters in the Midlands.",
            )
        },
        "dailysun": {
            "media24": media24(
                "dailysun",
                "/dailysun/news/gogo-soup-kitchen-layout-media24-20261103",
                "Daily Sun",
                "sun-whatsapp-cta",
                "Send us your story on WhatsApp and we will send a reporter to your kasi.",
                "Join the Daily Sun WhatsApp channel for the hottest news.",
            )
        },
        "maroelamedia": {"wordpress": maroelamedia()},
        "vukuzenzele": {"drupal": vukuzenzele()},
        "foodformzansi": {"wordpress": foodformzansi()},
        **{slug: {"2024": iol_title(slug)} for slug in IOL_TITLES},
    }
    return specs


__all__ = ["LAYOUTS_ZA", "mg_2011", "za_specs"]
