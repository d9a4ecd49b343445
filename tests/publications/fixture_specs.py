"""Per rule version: the layout page that proves it (see fixture_layouts.py). All text is invented.

slug -> version -> spec. A spec names the page's URL path, the ``captured`` date that selects the
version (None: the current layout, as a live crawl fetches it), the <title>, head markup, byline and
date markup, the story container and the furniture around and inside the story, and ``absent``: the
furniture strings the version's rules must keep out of the text. Class names follow each platform's
public markup (Arc XP ``b-``/``c-`` blocks, WordPress/Newspaper theme ``td-`` blocks, Next.js hashed
module classes on Isolezwe, ...).
"""

from __future__ import annotations

import html

from fixture_stories import STORIES


def e(text: str) -> str:
    return html.escape(text, quote=True)


def story(slug: str) -> tuple[str, str, str]:
    """(headline, author, published) of the publication's first fixture story."""
    _p, headline, author, when, _ps = STORIES[slug][0]
    return headline, author, when


def meta(when: str, author: str | None = None) -> str:
    out = f'<meta property="article:published_time" content="{when}">'
    return out + (f'\n<meta name="author" content="{e(author)}">' if author else "")


def box(cls: str, text: str, tag: str = "div", attr: str = "class") -> str:
    return f'<{tag} {attr}="{cls}"><p>{e(text)}</p></{tag}>'


def line(text: str) -> str:
    return f"<p>{e(text)}</p>"


# --- Arc XP (TimesLIVE, SowetanLIVE, HeraldLIVE, DispatchLIVE, BusinessLIVE since 2021) ----------------


def arc(slug: str, site: str, path: str) -> dict:
    """Arc XP article: lead-art caption and share bar above ``article.b-article-body``, a comment prompt,
    a subscription plea and a right rail of teasers after it; an author bio with social links."""
    _h, author, when = story(slug)
    caption = f"People queue outside the building on Monday morning. Image: {site} archive"
    rail = "Most read this week: the ten stories our readers could not put down."
    social = f"Follow {author} on X and Instagram for more."
    simple = "Latest news: the roads you should avoid this long weekend."
    plea = f"Support independent journalism by subscribing to the {site} Premium newsletter and site."
    comment = "Would you like to comment on this article?"
    teaser = (
        "In other news, the provincial government has announced a new bursary scheme for nursing students."
    )
    return {
        "path": path,
        "captured": None,
        "title": "{h} | " + site,
        "head": meta(when, author),
        "byline": (
            f'<div class="c-stack b-author-bio"><a class="c-link b-author-bio__author-name-link" '
            f'href="/author/x"><h2 class="c-heading b-author-bio__author-name">{e(author)}</h2></a>'
            f'<div class="b-author-bio__social">{line(social)}</div></div>'
        ),
        "date": f'<time class="c-date b-date" datetime="{when}">{when[:10]}</time>',
        "top": (
            f'<figure class="c-media-item"><figcaption class="c-media-item__fig-caption">'
            f'<span class="c-media-item__caption">{e(caption)}</span></figcaption></figure>'
            f'<div class="arena-share-bar">{line("Share this story with a friend on WhatsApp.")}</div>'
        ),
        "container": ('<article class="b-article-body">', "</article>"),
        "p_attr": ' class="c-paragraph"',
        "inside": f'<div class="b-simple-list">{line(simple)}</div>',
        "tail": line(plea),
        "after": (
            f'<div class="no-access-comment">{line(comment)}</div>'
            f'<div class="b-top-table-list"><p>{e(teaser)}</p></div>'
            f'<div class="right-rail__main-right-rail"><p>{e(rail)}</p></div>'
        ),
        "absent": [caption, simple, comment, plea, rail, social, teaser],
    }


def arc_2017(slug: str, site: str, old_site: str, path: str, captured: str, when: str) -> dict:
    """The 2017-2021 Tiso Blackstar layout: ``.article-pub-info`` with the byline, related-article
    boxes and a share bar in the story, a comment prompt and a "Subscribe to" line under it."""
    _h, author, _w = story(slug)
    related = "Read also: the council meeting that ended in a walkout last month."
    share = "Share this article on Facebook and Twitter."
    comment = "Would you like to comment on this article?"
    subscribe = f"Subscribe to {old_site} for the news that matters in your region."
    return {
        "path": path,
        "captured": captured,
        "published": when[:10],
        "title": "{h} | " + old_site,
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": (
            f'<div class="article-pub-info"><h3 class="heading--author">By {e(author)}</h3>'
            f'<span class="article-pub-date">{when[:10]}</span></div>'
        ),
        "container": ('<div class="article-widgets"><div class="article-widget-text">', "</div></div>"),
        "inside": (
            f'<div class="article-related">{line(related)}</div><div class="share-bar">{line(share)}</div>'
        ),
        "after": f"{line(comment)}{line(subscribe)}",
        "absent": [related, share, comment, subscribe],
        "authors": [author],
    }


# --- IOL and Isolezwe ------------------------------------------------------------------------------------


def iol_2012() -> dict:
    """IOL's Polopoly layout (about 2010-2015): the story in ``div.aticle_column`` (IOL's own spelling),
    headline block ``.article_headers``, a ``.byline``; beside the story a column of teasers to other
    IOL stories that reads like prose."""
    _h, author, _w = story("iol")
    when = "2012-06-11T09:30:00+02:00"
    teasers = [
        "Pretoria motorists say the pothole on Church Street has now swallowed three tyres this week alone.",
        "The Tshwane council has again postponed its vote on the roads budget, leaving repairs in limbo.",
    ]
    return {
        "path": "/news/south-africa/gauteng/pretoria-residents-march-over-potholes-1.1315123",
        "captured": "2012-06-12",
        "published": when[:10],
        "title": "{h} | IOL News",
        "head": f'<meta property="article:published_time" content="{when}">',
        "h1": '<div class="article_headers"><h1>{h}</h1></div>',
        "byline": f'<div class="byline">By {e(author)}</div>',
        "top_in": '<div class="article_content_wrapper">',
        "container": ('<div class="aticle_column">', "</div>"),
        "after": (
            '<div class="right_column">'
            + "".join(f"<div><p>{e(t)}</p></div>" for t in teasers)
            + "</div></div>"
        ),
        "absent": teasers,
    }


def iol_2019() -> dict:
    """IOL before the 2020 redesign: a ``.byline``, "Related links" with a related-articles box, and an
    "Independent Online" credit line closing the story."""
    _h, author, _w = story("iol")
    when = "2019-06-11T09:30:00+02:00"
    teaser = "Tshwane says pothole repairs will take most of the financial year, officials told councillors."
    return {
        "path": "/news/south-africa/gauteng/pretoria-residents-march-over-potholes-19301234",
        "captured": "2019-06-12",
        "published": when[:10],
        "title": "{h} | IOL News",
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<div class="byline">By {e(author)}</div>',
        "container": ('<div class="article-body">', "</div>"),
        "tail": f'<h4>Related links</h4><div class="related-articles">{line(teaser)}</div>{line("Independent Online")}',
        "absent": ["Related links", "Independent Online", teaser],
    }


def iol_2024() -> dict:
    """IOL's 2024 Next.js layout: ``data-testid`` bylines, ad and newsletter slots, a "more news" section,
    an aside, "Related Topics:" and the app plea."""
    _h, author, when = story("iol")
    ad = "Advertisement: compare medical aid plans and save on your monthly premium today."
    more = "Gauteng motorists face another petrol price increase next month, analysts warn."
    aside = "Tshwane has repaired more than 2,000 potholes since July, the mayor said last week."
    return {
        "path": "/news/south-africa/gauteng/pretoria-potholes-layout-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        "captured": None,
        "title": "{h} | Independent Online",
        "head": meta(when, "Independent Newspapers Online"),
        "byline": f'<p class="article-byline"><span data-testid="author-name">{e(author)}</span></p>',
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": ("<article>", "</article>"),
        "inside": box("advert advert--inline", ad) + f"<aside>{line(aside)}</aside>",
        "tail": (
            f"{line('Get your news on the go, click here')}{line('Related Topics:')}"
            + box("more-news", more, "section", "data-testid")
        ),
        "absent": [ad, "Get your news on the go, click here", "Related Topics:", more, aside],
    }


def isolezwe_iol() -> dict:
    """Isolezwe on the IOL platform (to mid-2024): IOL's title suffix, a ``.byline`` with "Ngu", share
    and related boxes, "Funda kabanzi" above them."""
    _h, author, _w = story("isolezwe")
    when = "2022-09-04T10:00:00+02:00"
    share = "Yabelana ngale ndaba nabangane bakho ku-WhatsApp nakuFacebook."
    return {
        "path": "/isolezwe/news/izindaba-zakudala-1a2b3c4d",
        "captured": "2022-09-05",
        "published": when[:10],
        "lang": "zu",
        "title": "{h} | IOL",
        "h1": "",
        "top": '<h1 class="logo">IOL</h1>',
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<div class="article-author">Ngu {e(author)}</div>',
        "container": ('<div class="article-body">', "</div>"),
        "tail": f"{line('Funda kabanzi')}" + box("sharetools", share),
        "absent": ["Funda kabanzi", share],
    }


def isolezwe_2025() -> dict:
    """Isolezwe's 2025 Next.js site: hashed module classes (``attribution-and-updated_author-text__x``),
    a newsletter box, an article-share strip, an aside, "Bhalisela izindaba zethu"."""
    _h, author, when = story("isolezwe")
    share = "Thumela le ndaba kubangane bakho ngeWhatsApp."
    aside = "Izindaba ezifundwa kakhulu namuhla ezweni lonke."
    return {
        "path": "/izindaba/ezakamuva-layout-2025",
        "captured": None,
        "lang": "zu",
        "title": "{h} | Isolezwe",
        "head": meta(when, author),
        "byline": f'<div class="attribution-and-updated_author-text__tITz2">Ngu {e(author)}</div>',
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="article-body_article-body__x1">', "</div>"),
        "inside": box("article-share_article-social-share__Xx7NE", share)
        + f'<aside class="rail">{line(aside)}</aside>',
        "tail": f"{line('Bhalisela izindaba zethu')}{line('Funda kabanzi')}",
        "absent": [share, aside, "Bhalisela izindaba zethu", "Funda kabanzi"],
    }


# --- Media24 (News24, Netwerk24) --------------------------------------------------------------------------


def news24_2013() -> dict:
    """News24's 2010-2015 layout: the story in ``div.article.col626`` with a "Related links" box
    (``#relatedlinks_box``) inside it and a Twitter/Facebook strip (``.TwitterfacebookLink``) closing it,
    written as a sentence."""
    _h, author, _w = story("news24")
    when = "2013-08-19T06:00:00+02:00"
    related = "Survivors of a 2011 fire in Hillbrow tell a similar story of broken promises."
    share = "Tweet this story or share it with your friends on Facebook right now."
    return {
        "path": "/SouthAfrica/News/Joburg-fire-survivors-still-waiting-for-homes-20130819",
        "captured": "2013-08-20",
        "published": when[:10],
        "title": "{h} | News24",
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<div class="byline">{e(author)}</div>',
        "container": ('<div class="article col626">', "</div>"),
        "inside": box("relatedlinks_box", related, attr="id"),
        "tail": box("TwitterfacebookLink", share),
        "absent": [related, share],
    }


def news24_2019() -> dict:
    """News24 before 2020: ``.article_details .byline``, related links and share blocks with ``_``
    class names, ad slots (``ad_``)."""
    _h, author, _w = story("news24")
    when = "2019-08-19T06:00:00+02:00"
    related = "Survivors of a 2017 fire in Hillbrow tell a similar story of broken promises."
    ad = "Advertisement: switch your car insurance and get the first month free."
    return {
        "path": "/SouthAfrica/News/joburg-fire-survivors-still-waiting-for-homes-20190819",
        "captured": "2019-08-20",
        "published": when[:10],
        "title": "{h} | News24",
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<div class="article_details"><span class="byline">{e(author)}</span></div>',
        "container": ('<article id="article-body">', "</article>"),
        "inside": box("ad_mpu", ad) + f"{line('Related Links')}" + box("related_links", related),
        "absent": [related, ad, "Related Links"],
    }


def news24_2024() -> dict:
    """News24 since 2020: ``.article__author``, related and share blocks, a subscribe banner, an aside, the
    comment disclaimer and "Read more on these topics"."""
    _h, author, when = story("news24")
    related = "Read next: the city's housing list, explained in five charts."
    share = "Share this story: copy the link or send it to a friend."
    return {
        "path": "/news24/southafrica/news/joburg-fire-survivors-layout-20261103",
        "captured": None,
        "title": "{h} | News24",
        "head": meta(when, f"{author} | News24"),
        "byline": f'<div class="article__author">By {e(author)} | News24</div>',
        "date": f'<p class="article__date">{when[:10]}</p>',
        "container": ('<div class="article__body">', "</div>"),
        "inside": box("article__related", related) + box("article__share", share),
        "tail": (
            f"{line('Subscribe to News24 for the stories that matter.')}{line('Read more on these topics')}"
            f"{line('Disclaimer: News24 encourages freedom of speech and the expression of diverse views.')}"
        ),
        "absent": [related, share, "Subscribe to News24", "Read more on these topics", "Disclaimer: News24"],
    }


def netwerk24() -> dict:
    """Netwerk24 (Media24): ``.article__author`` "Deur", related/share/paywall blocks, "Lees ook:"."""
    _h, author, when = story("netwerk24")
    paywall = "Jy het nog twee gratis artikels hierdie maand oor."
    share = "Deel hierdie artikel met jou vriende."
    return {
        "path": "/netwerk24/nuus/uitleg-2024-20261103",
        "captured": None,
        "lang": "af",
        "title": "{h} | Netwerk24",
        "head": meta(when, author),
        "byline": f'<div class="article__author">Deur {e(author)}</div>',
        "date": f'<p class="article__date">{when[:10]}</p>',
        "container": ('<div class="article__body">', "</div>"),
        "inside": f"{line('Lees ook:')}" + box("paywall-notice", paywall) + box("article__share", share),
        "tail": line("Teken in om verder te lees"),
        "absent": ["Lees ook:", paywall, share, "Teken in om verder te lees"],
    }


# --- Mail & Guardian -------------------------------------------------------------------------------------


def mg_2014() -> dict:
    """The M&G Online to 2020: ``.byline a``, related/share/social boxes, "Subscribe to the M&G"."""
    _h, author, _w = story("mg")
    when = "2016-05-09T06:00:00+02:00"
    related = "Related: how another Limpopo village won its land back in court."
    return {
        "path": "/article/2016-05-09-inside-the-fight-over-a-limpopo-mine",
        "captured": "2016-05-10",
        "published": when[:10],
        "title": "{h} | The M&G Online",
        "head": f'<meta property="article:published_time" content="{when}">',
        "byline": f'<p class="author">{e(author)}</p>',
        "container": ('<div class="article-body">', "</div>"),
        "inside": box("related-box", related),
        "tail": line("Subscribe to the M&G for the stories others will not tell you."),
        "absent": [related, "Subscribe to the M&G"],
    }


def mg_2020() -> dict:
    """The Mail & Guardian's WordPress site since 2020: related posts, subscribe plea, independence blurb."""
    _h, author, when = story("mg")
    sub = "Subscribe to the M&G for R30 a month and read without limits."
    blurb = "The Mail & Guardian is a proudly independent, African-owned newspaper."
    promo = "Our journalism costs money: become a member today."
    return {
        "path": "/news/2026-11-03-limpopo-mine-layout-2020/",
        "captured": None,
        "title": "{h} - The Mail & Guardian",
        "head": meta(when, author),
        "byline": f'<div class="article-author"><a href="{{base}}/author/x/">{e(author)}</a></div>',
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="entry-content">', "</div>"),
        "inside": box("mg-subscribe", promo)
        + f'<aside class="pullout">{line("Inside the land lease: the documents.")}</aside>',
        "tail": f"{line(sub)}{line(blurb)}",
        "absent": [
            promo,
            "Inside the land lease",
            "Subscribe to the M&G for R30",
            "The Mail & Guardian is a proudly independent",
        ],
    }


# --- Daily Maverick, The Citizen, GroundUp --------------------------------------------------------------


def dailymaverick() -> dict:
    """Daily Maverick: ``.author-info a``, ``dm-ad`` slots, subscribe boxes, asides, the gallery label,
    the newsletter plea and the copyright line."""
    _h, author, when = story("dailymaverick")
    ad = "Advertisement: a weekend in the Winelands for two, book now."
    sub = "Become a Maverick Insider and support our journalism."
    return {
        "path": "/article/2026-11-03-small-town-water-layout-2025/",
        "captured": None,
        "title": "{h} | Daily Maverick",
        "head": meta(when, author),
        "byline": f'<div class="col-span-2 author-info"><a href="{{base}}/author/x/">By {e(author)}</a></div>',
        "date": f'<span class="article_date">{when[:10]}</span>',
        "container": ('<div class="article-content">', "</div>"),
        "inside": (
            box("dm-ad", ad)
            + box("subscribe-box", sub)
            + f'<aside class="pull">{line("Makhanda water timeline, 2015 to now.")}</aside>'
            + line("Gallery")
        ),
        "tail": f"{line('Sign up to our newsletter and get the best of Daily Maverick.')}{line('Daily Maverick © All rights reserved')}",
        "absent": [
            ad,
            sub,
            "Makhanda water timeline",
            "Gallery",
            "Sign up to our newsletter",
            "Daily Maverick ©",
        ],
    }


def citizen() -> dict:
    """The Citizen: ``p.author-name a``, read time, author socials/block, google-ad slots, the newsletter
    CTA, related posts and "Read more on these topics"."""
    _h, author, when = story("citizen")
    ad = "Advertisement: Black Friday deals on appliances, this week only."
    block = "Enkosi Selane is a journalist who covers weather and disasters."
    return {
        "path": "/news/south-africa/weather/hailstorm-layout-2025/",
        "captured": None,
        "title": "{h} | The Citizen",
        "head": meta(when, author),
        "byline": (
            f'<div class="author-info"><p class="author-name">By <a href="{{base}}/author/x/">{e(author)}</a></p>'
            '<div class="author-socials"><p>Follow on X</p></div></div>'
        ),
        "date": (
            '<div class="post-read-info"><p class="single-read-time">3 minute read</p>'
            f'<p class="single-published-date">{when[:10]}</p></div>'
        ),
        "container": ('<div class="single-content">', "</div>"),
        "inside": box("google-ad-d-mpu-incontent", ad, attr="id"),
        "tail": (
            f"{line('The latest news directly in your inbox')}{line('Read more on these topics')}"
            + box("single-author-block-wrapper", block)
        ),
        "absent": [
            ad,
            "3 minute read",
            "The latest news directly in your inbox",
            "Read more on these topics",
            block,
        ],
    }


def groundup() -> dict:
    """GroundUp: a ``.byline``, republish and donate boxes, asides, the CC licence line."""
    _h, author, when = story("groundup")
    donate = "Donate to GroundUp: every rand helps us report."
    return {
        "path": "/article/layout-2024-cape-town/",
        "captured": None,
        "title": "{h} | GroundUp",
        "head": meta(when, author),
        "byline": f'<div class="byline">By <a href="{{base}}/author/x/">{e(author)}</a></div>',
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="article-body">', "</div>"),
        "inside": box("donate-box", donate)
        + f'<aside class="note">{line("Correction: an earlier version misspelt a name.")}</aside>',
        "tail": (
            f"{line('Support independent journalism')}{line('Republish')}"
            f"{line('© 2024 GroundUp. This article is licensed under a Creative Commons Attribution-NoDerivatives 4.0 International License.')}"
        ),
        "absent": [
            donate,
            "Correction: an earlier",
            "Support independent journalism",
            "Republish",
            "Creative Commons",
        ],
    }


# --- WordPress publications -----------------------------------------------------------------------------


def grocotts() -> dict:
    """Grocott's Mail (WordPress/Jetpack): sharedaddy and Jetpack related posts, "Like this:", the
    publisher line."""
    _h, author, when = story("grocotts")
    related = "Related: Makhanda's municipal budget in numbers."
    return {
        "path": "/2026/11/03/grocotts-layout-wordpress/",
        "captured": None,
        "title": "{h} - Grocott's Mail",
        "head": meta(when, author),
        "byline": f'<span class="byline"><span class="author vcard">Words: {e(author)}</span></span>',
        "date": f'<time class="entry-date published" datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="entry-content">', "</div>"),
        "inside": box(
            "td-post-sharing td-post-sharing-bottom", "Spread the word on Facebook, X and WhatsApp."
        ),
        "tail": (
            f"{line('Like this:')}"
            + box("jp-relatedposts", related, attr="id")
            + line("Grocott's Mail is published by Rhodes University's School of Journalism.")
        ),
        "absent": ["Like this:", related, "Grocott's Mail is published by", "Spread the word on Facebook"],
    }


def ilanga() -> dict:
    """Ilanga (WordPress): the author slot (``.author a[rel=author]``, meta author) names the CMS account
    ("Ilanga D"), the journalist is set in bold above the story; share and related boxes, "Yabelana
    ngalokhu:". The account is the outlet, not a person: the byline must be the journalist."""
    _h, author, when = story("ilanga")
    related = "Okuhlobene: abalimi baseMsinga bathola amanzi."
    return {
        "path": "/2026/11/03/ilanga-layout-wordpress/",
        "captured": None,
        "lang": "zu",
        "title": "{h} - Ilanga News",
        "head": meta(when, "Ilanga D"),
        "byline": '<span class="author vcard"><a rel="author" href="{base}/author/admin/">Ilanga D</a></span>',
        "lead": f"<p><strong>{e(author.upper())}</strong></p>",
        "date": f'<time class="entry-date published" datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="entry-content">', "</div>"),
        "inside": box("entry-share", "Thumela kubangane ku-Facebook naku-WhatsApp."),
        "tail": f"{line('Yabelana ngalokhu:')}" + box("post-related", related),
        "absent": ["Yabelana ngalokhu:", related, "Thumela kubangane", "Ilanga D"],
        "authors": [author.upper()],
    }


def sabc() -> dict:
    """SABC News (WordPress, Newspaper theme): ``.td-post-author-name a``, td-post-sharing, related blocks,
    sabc-ad slots, the external-sites disclaimer."""
    _h, author, when = story("sabc")
    ad = "Advertisement: listen to SAfm every weekday morning."
    related = "Related stories from the SABC News desk today."
    return {
        "path": "/sabcnews/sabc-layout-wordpress/",
        "captured": None,
        "title": "{h} - SABC News - Breaking news, special reports, world, business, sport coverage of all South African current events. Africa's news leader.",
        "head": meta(when, author),
        "byline": f'<div class="td-post-author-name"><a href="{{base}}/sabcnews/author/x/">{e(author)}</a></div>',
        "date": f'<time class="entry-date updated td-module-date" datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="td-post-content">', "</div>"),
        "inside": box("td-post-sharing td-post-sharing-top", "Share this article") + box("sabc-ad", ad),
        "tail": (
            box("td_block_wrap td-block-related-posts", related)
            + line("SABC News is not responsible for the content of external sites.")
        ),
        "absent": ["Share this article", ad, related, "SABC News is not responsible"],
    }


def thesouthafrican() -> dict:
    """The South African (WordPress): ``.author-name a``, ad slots, a WhatsApp CTA, the comment plea and the
    newsletter line."""
    _h, author, when = story("thesouthafrican")
    cta = "Breaking news on your phone: add The South African channel on WhatsApp."
    ad = "Advertisement: fibre internet from R199 a month."
    return {
        "path": "/news/tsa-layout-wordpress/",
        "captured": None,
        "title": "{h} | The South African",
        "head": meta(when, author),
        "byline": f'<div class="author-name"><a href="{{base}}/author/x/">{e(author)}</a></div>',
        "date": f'<time datetime="{when}">{when[:10]}</time>',
        "container": ('<div class="entry-content">', "</div>"),
        "inside": box("ad-slot-inline", ad) + box("whatsapp-cta", cta),
        "tail": (
            line("Let us know by leaving a comment below, or send a WhatsApp to 060 011 0211.")
            + line("Subscribe to The South African website’s newsletters and follow us on social media.")
        ),
        "absent": [
            cta,
            ad,
            "Let us know by leaving a comment below",
            "Subscribe to The South African website",
        ],
    }


def thenewage() -> dict:
    """The New Age (2010-2018, Wayback only): ``.byline``, a ``.date`` line and no date metadata (a
    "Most read" box carries older dates), related/share/advert blocks, comment ids, "The New Age" credit
    and "Related Articles" lines."""
    _h, author, _when = story("thenewage")
    advert = "Advertisement: subscribe to The New Age and get it delivered."
    comments = "Comments: 3 readers have commented on this story."
    return {
        "path": "/news/article/4512/bloemfontein-library-extends-hours",
        "captured": "2013-05-10",
        "title": "{h} | The New Age",
        "byline": f'<div class="byline">By {e(author)}</div>',
        "date": '<span class="date">09 May 2013</span>',
        "container": ('<div class="article-text">', "</div>"),
        "inside": box("advert-box", advert),
        "after": (
            '<div class="most-read"><h3>Most read</h3>'
            '<p><a href="{base}/news/article/4390/x">Taxi strike ends in Welkom</a> 22 April 2013</p>'
            '<p><a href="{base}/news/article/4421/y">Clinic queues shorten in Kimberley</a> 25 April 2013</p></div>'
        ),
        "tail": f"{line('Related Articles')}" + box("comments", comments, attr="id") + line("The New Age"),
        "absent": [advert, comments, "Related Articles", "The New Age"],
    }


def demo() -> dict:
    """The demo gazette (sacorpus/demo): ``.story-body``, a newsletter box, related links, the copyright line."""
    _h, author, when = story("demo")
    box_ = "Get the Gazette's morning briefing in your inbox."
    return {
        "path": "/news/2026/11/harbour-crane-upgrade",
        "captured": None,
        "title": "{h} | The Demo Gazette",
        "head": meta(when, author),
        "byline": f'<div class="byline"><span class="author-name">By {e(author)}</span></div>',
        "top": '<article class="story"><p class="kicker">Shipping news from the port, every weekday.</p>',
        "container": ('<div class="story-body">', "</div></article>"),
        "tail": '<p class="story-copyright">© 2026 The Demo Gazette. All rights reserved. This story may not be republished without permission.</p>',
        "after": (
            box("newsletter-box", box_)
            + '<aside class="related-links"><h2>Related links</h2><p>Port tariffs rise again next year, says regulator.</p></aside>'
        ),
        "absent": [
            box_,
            "Related links",
            "Port tariffs rise again",
            "© 2026 The Demo Gazette",
            "Shipping news from the port",
        ],
    }


ARC_SITES = {
    "timeslive": ("TimesLIVE", "TimesLIVE", "/news/south-africa/2019-03-13-court-hears-bail-bid/"),
    "sowetanlive": ("SowetanLIVE", "Sowetan LIVE", "/news/south-africa/2019-03-13-sowetan-layout/"),
    "heraldlive": ("HeraldLIVE", "The Herald", "/news/2019-03-13-herald-layout/"),
    "dispatchlive": ("DispatchLIVE", "Daily Dispatch", "/news/2019-03-13-dispatch-layout/"),
    "businesslive": ("BusinessLIVE", "Business Day", "/bd/national/2019-03-13-businessday-layout/"),
}

SPECS: dict[str, dict[str, dict]] = {
    "iol": {"2012": iol_2012(), "2019": iol_2019(), "2024": iol_2024()},
    "isolezwe": {"iol": isolezwe_iol(), "2025": isolezwe_2025()},
    "news24": {"2013": news24_2013(), "2019": news24_2019(), "2024": news24_2024()},
    "netwerk24": {"2024": netwerk24()},
    "mg": {"2014": mg_2014(), "2020": mg_2020()},
    "dailymaverick": {"2025": dailymaverick()},
    "citizen": {"2025": citizen()},
    "groundup": {"2024": groundup()},
    "grocotts": {"wordpress": grocotts()},
    "ilanga": {"wordpress": ilanga()},
    "sabc": {"wordpress": sabc()},
    "thesouthafrican": {"wordpress": thesouthafrican()},
    "thenewage": {"2010": thenewage()},
    "demo": {"2026": demo()},
}
for _slug, (_site, _old, _path) in ARC_SITES.items():
    SPECS[_slug] = {
        "2017": arc_2017(_slug, _site, _old, _path, "2019-03-14", "2019-03-13T10:00:00+02:00"),
        "arc": arc(_slug, _site, f"/news/2026-11-03-{_slug}-arc-layout/"),
    }

# eNCA, Moneyweb, the Daily Sun, The Witness, the IOL titles, Maroela Media, Vuk'uzenzele, Food For Mzansi
# and the M&G's 2009-2013 layout (fixture_specs_za.py uses this module's helpers, so it comes last)
from fixture_specs_za import mg_2011, za_specs  # noqa: E402

SPECS.update(za_specs())
SPECS["mg"]["2011"] = mg_2011()
