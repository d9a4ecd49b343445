"""Blocks inside a story's markup that are not the story: teaser cards, fact boxes, image credits.

Why by the element's role and size, not by a site list: every CMS names these blocks in its own words,
but the words say the same thing ("photo-credit", "infobox"), and the blocks are small beside the
story. A block that holds running text (a paragraph of prose) or the headline is never removed, so a
class name reused for a wrapper costs nothing. Pure lxml; called by
:func:`sacorpus.text.preclean.preclean_tree`.
"""

from __future__ import annotations

import re

from lxml import etree

from sacorpus.text.preclean import remove_element


def _words(el: etree._Element) -> int:
    return len(" ".join(el.itertext()).split())


def remove_teaser_cards(scope: etree._Element) -> int:
    """Drop ``<article>`` cards nested in the story whose text is (almost) all link text.

    CMSs mark "read also" teasers inside a story as small articles that are one big link; their
    headline and blurb are not part of the story, while a nested article with prose of its own
    (an embedded explainer, a quoted post) is kept.
    """
    removed = 0
    for card in list(scope.iter("article")):
        if not any(x.tag == "article" for x in card.iterancestors()):
            continue
        total = _words(card)
        if not total or total > 80:
            continue
        linked = sum(_words(a) for a in card.iter("a") if not any(x.tag == "a" for x in a.iterancestors()))
        if linked >= 0.9 * total:
            remove_element(card)
            removed += 1
    return removed


_FACT_BOX = re.compile(r"(?:^|[\s_-])(?:facts?-?box|info-?box|key-?points)(?:$|[\s_-])", re.I)


#: a box holding this share of the page's paragraph text is the page's body, whatever its class says
BODY_SHARE = 0.6


def remove_fact_boxes(scope: etree._Element) -> int:
    """Drop fact boxes, info boxes and "key points" panels (class names say so).

    They restate or supplement the report in note form (a summary, a glossary, a disclaimer, a
    reading list) and are not part of the running text a reader's copy of the article holds. A box
    that holds the headline (``<h1>``) is a layout wrapper, and a box holding most of the page's prose
    is the body itself (a travel guide in an "infobox" tab): both stay.
    """
    from sacorpus.text.rules import paragraph_chars

    boxes = [
        el
        for el in scope.iterfind(".//*[@class]")
        if el.tag not in ("html", "body", "main", "article")
        and _FACT_BOX.search(el.get("class") or "")
        and el.find(".//h1") is None
    ]
    if not boxes:
        return 0
    total = paragraph_chars(scope)  # only on pages that have a box (a pass over the whole page)
    boxes = [el for el in boxes if not (total and paragraph_chars(el) >= BODY_SHARE * total)]
    chosen = set(boxes)
    removed = 0
    for el in boxes:
        if any(a in chosen for a in el.iterancestors()):
            continue  # inside a box already removed
        remove_element(el)
        removed += 1
    return removed


# "photo-credit", "img_credit", "image-credits-inline", "media-source", "bild-copyright"
_CREDIT = re.compile(
    r"(?:image|photo|img|picture|media|foto|bild)[\s_-]*(?:credit|source|copyright)s?\b", re.I
)
#: a credit is a name or two; a longer block named so is a layout wrapper
CREDIT_MAX_CHARS = 120


def remove_image_credits(scope: etree._Element) -> int:
    """Drop image credits ("Foto: sidm / DW", "Picture: Gallo Images"): small elements whose class or
    id says so. They name a photographer of a picture the text corpus does not hold, and read as stray
    words inside the story. Captions themselves stay: they often carry reporting the text repeats
    nowhere else (measured: removing ``<figcaption>`` loses wanted text on real pages), and credits of
    contributors ("Additional reporting by") are no image credits."""
    found = [
        el
        for el in scope.xpath(".//*[@class or @id]")
        if el.tag not in ("html", "body", "main", "article")
        and _CREDIT.search(" ".join((el.get("class") or "", el.get("id") or "")))
    ]
    removed = 0
    for el in found:
        if el.getparent() is None or len(" ".join(" ".join(el.itertext()).split())) > CREDIT_MAX_CHARS:
            continue
        remove_element(el)
        removed += 1
    return removed


__all__ = ["remove_fact_boxes", "remove_image_credits", "remove_teaser_cards"]
