"""The page's headline, chosen from the sources that state one.

A page states its headline up to five times: the JSON-LD ``headline``, ``og:title`` (and
``twitter:title``), the ``<h1>`` readers see, and ``<title>``; the last three usually with the site's
branding, which :func:`sacorpus.text.titles.strip_site` removes. They often differ (an SEO variant, a
social variant, a kicker printed above the headline), so the choice is made on agreement between
them, not on one fixed order:

* the JSON-LD headline is the default: on news sites it is most often the exact headline;
* an ``og:title`` that the page also *shows* its readers (the visible ``<h1>``, or an article-header
  ``<h2>`` when the only ``<h1>`` is breadcrumb SEO text repeating JSON-LD) wins over JSON-LD;
* with no JSON-LD headline, a visible ``<h1>`` whose words og:title repeats and extends is the
  headline (og:title being its longer search/social form);
* with no JSON-LD headline, a visible ``<h1>`` about the same story as og:title but worded
  differently is the headline as published, unless og:title, twitter:title and ``<title>`` all
  declare one and the same headline (:func:`_shown_headline`);
* a "Kicker: headline" JSON-LD where ``og:title`` is the headline alone gives the headline, unless
  another source (``<title>``, the ``<h1>``) agrees with JSON-LD that the kicker belongs to it;
* when JSON-LD, og:title and ``<title>`` all state different headlines, the visible ``<h1>`` about
  the same story decides (:func:`_disputed_headline`);
* a generic candidate ("Home", "Article", the site's own name, the page's own section name) never
  beats a real headline;
* the spelling is then chosen by agreement too (:func:`~sacorpus.text.title_spelling.agreed_form`): sources that state the same
  headline with other quotes, dashes or ellipses vote, og:title/twitter:title/``<title>`` as one family.

Why not a plain vote: counted as independent votes, og:title, twitter:title and ``<title>`` (copies of
one SEO field) outvote the headline the page shows, and the fixed-weight votes tried scored below these
agreement checks on both evaluation sets (fundus_dev 144-145 of 166 against 153, trafilatura_eval
669-670 of 845 against 695 headlines right up to spelling).

The title as published (before cleaning) is kept too, and every candidate is recorded so later
steps (the headline-repeat line filter) know all forms of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sacorpus.publications import RuleSet
from sacorpus.text.boilerplate import LineHistory
from sacorpus.text.metareaders import Metas, first_meta, host_of, ld_string, node_text
from sacorpus.text.title_kicker import headline_without_label, labelled_parts
from sacorpus.text.title_kicker import shown_text as _shown_text
from sacorpus.text.title_spelling import agreed_form
from sacorpus.text.titles import (
    clean_spaces,
    headline_outside_branding,
    host_keys,
    is_generic_title,
    norm_key,
    split_segments,
    strip_site,
)

_KICKER_END = re.compile(r"\S:\s+$")
MIN_SHARED_WORDS = 0.2  # word overlap (Jaccard) of a visible headline with a declared one: the same story
MAX_HEADER_H2 = 30  # <h2>s looked at for a displayed headline (bounds the work on long pages)
OG_TITLE_META = ("og:title", "twitter:title", "title", "dc.title", "sailthru.title", "parsely-title")


def _in_breadcrumb(el: Any) -> bool:
    """True for an <h1> that only repeats the title for search engines inside a breadcrumb/nav bar."""
    for node in (el, *el.iterancestors()):
        if node.tag == "nav":
            return True
        marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
        if "breadcrumb" in marks:
            return True
    return False


def _first_h1_element(root: Any, visible_only: bool) -> Any | None:
    """The first article/main <h1> with text (when ``visible_only``, not breadcrumb SEO text)."""
    for xp in ("//article//h1", "//main//h1", "//h1"):
        for h in root.xpath(xp)[:3]:
            if visible_only and _in_breadcrumb(h):
                continue
            text = clean_spaces(_shown_text(h))
            if text and len(text) > 3:
                return h
    return None


def _first_h1(root: Any, visible_only: bool) -> str | None:
    h = _first_h1_element(root, visible_only)
    return None if h is None else clean_spaces(_shown_text(h))


def _header_shows(root: Any, headline: str) -> bool:
    """True when an <h2> outside breadcrumbs repeats ``headline``.

    Some CMSs put the only <h1> in the breadcrumb bar (SEO text, usually the JSON-LD headline) and
    show readers the headline as an <h2> in the article header; that displayed text is the title.
    """
    key = norm_key(headline)
    if not key:
        return False
    for h in root.xpath("//h2")[:MAX_HEADER_H2]:
        # the headline itself or its line under a kicker (<h2><span>Kicker</span><span>Headline</span>)
        parts = [h, *(c for c in h if isinstance(c.tag, str))]
        if any(norm_key(_shown_text(p)) == key for p in parts) and not _in_breadcrumb(h):
            return True
    return False


@dataclass
class _Sources:
    """What the page states as its headline, raw (``None`` where it states nothing)."""

    ld: str | None
    og: str | None
    h1: str | None
    title: str | None
    fallback: str | None
    twitter: str | None = None
    visible: str | None = None  # the first <h1> outside breadcrumbs
    labelled: tuple[str, str] | None = None  # that <h1> as (label, headline) when it prints a kicker apart


def _read_sources(root: Any, metas: Metas, ld: dict[str, Any] | None, fallback: str | None) -> _Sources:
    el = root.find(".//title")
    og = first_meta(metas, OG_TITLE_META)
    visible = _first_h1_element(root, visible_only=True)
    return _Sources(
        ld=clean_spaces(ld_string(ld, "headline") or ld_string(ld, "name")),
        og=clean_spaces(og[1]) if og else None,
        h1=_first_h1(root, visible_only=False),
        title=clean_spaces(node_text(el)) if el is not None else None,
        fallback=clean_spaces(fallback),
        twitter=clean_spaces(next(iter(metas.get("twitter:title") or []), None)),
        visible=None if visible is None else clean_spaces(_shown_text(visible)),
        labelled=labelled_parts(visible),
    )


def _complete_cut_headline(src: _Sources, site_names: list[str], host: str | None) -> None:
    """A JSON-LD headline cut to a length limit ("...") takes the full text another source starts with."""
    if not src.ld or not src.ld.endswith(("...", "…")):
        return
    stem = src.ld.rstrip(".… ")
    for other in (src.h1, src.og, src.title):
        full = strip_site(other, site_names, host) if other else ""
        if len(stem) >= 20 and len(full) > len(stem) and full.startswith(stem):
            src.ld = full
            return


def _og_agrees_with_page(root: Any, ld_clean: str, og_clean: str, src: _Sources, clean: Any) -> bool:
    """True when og:title, not the JSON-LD headline, is what the page shows or what its sources agree on."""
    if ld_clean == og_clean:
        return False
    title_says_ld = bool(src.title) and norm_key(clean(src.title)) == norm_key(ld_clean)
    h1 = src.h1
    visible = src.visible
    visible_clean = clean(visible) if visible else None
    # the visible headline repeats og:title verbatim: that is the one the page shows its readers; with no
    # visible <h1> and only a breadcrumb <h1> repeating JSON-LD (the SEO variant), an article-header <h2>
    # showing og:title is the headline readers see
    if visible_clean == og_clean or (
        visible is None
        and h1 is not None
        and norm_key(h1) == norm_key(ld_clean)
        and _header_shows(root, og_clean)
    ):
        return True
    # "Kicker: headline" in JSON-LD where og:title has just the headline: the kicker is the label printed
    # above the headline, not part of it - unless the visible headline or <title> states it with the kicker
    return (
        len(og_clean) >= 15
        and not title_says_ld
        and ld_clean.endswith(og_clean)
        and bool(_KICKER_END.search(ld_clean[: -len(og_clean)]))
        and visible_clean in (None, og_clean)
    )


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _h1_within_og(
    root: Any, src: _Sources, site_names: list[str], host: str | None, clean: Any
) -> str | None:
    """The visible <h1> when og:title repeats all of its words and adds more (no JSON-LD headline).

    Without structured data, og:title is often the headline extended for search and social cards
    ("Bienenstich-Muffins Rezept", "BestCrypt - Download", a kicker before it); the <h1> the page shows
    agrees with it word for word and is the headline itself. An <h1> that is the site's branding (a
    segment of <title> or og:title beside the headline) or a single word is no such evidence.
    """
    visible = _first_h1(root, visible_only=True)
    if src.ld or not src.og or not visible:
        return None
    if any(headline_outside_branding(visible, other, site_names, host) for other in (src.title, src.og)):
        return None
    headline, og_words = clean(visible), _words(clean(src.og))
    words = _words(headline)
    return headline if 2 <= len(words) < len(og_words) and set(words) <= set(og_words) else None


def _shown_headline(src: _Sources, shown: str | None, clean: Any) -> str | None:
    """The visible ``<h1>`` over ``og:title`` on a page without a JSON-LD headline, when both are about it.

    With no structured headline, the page's own sources are the headline readers see and the SEO/social
    title (og:title, ``<title>``); where they differ in wording ("Wärmepumpe im Altbau - Wann es sich
    lohnt" for "Eignet sich eine Wärmepumpe im Altbau?"), the visible one is the headline as published.
    It is taken only when it shares words with the SEO title (the same story, not a sidebar heading or
    the site's logo), has two words or more, and neither contains the other: an ``<h1>`` that is the SEO
    title plus a kicker or a date line ("Tunesien Große Aufgaben ...") is no better headline.
    """
    if not shown or not src.visible:
        return None
    visible: str = clean(src.visible)
    words, key = set(_words(visible)), norm_key(visible)
    seo = [clean(c) for c in (src.og, src.title) if c]
    if len(words) < 2 or not words & set(_words(" ".join(seo))):
        return None
    if any(norm_key(c) in key or key in norm_key(c) for c in seo):
        return None
    declared = [clean(c) for c in (src.og, src.twitter, src.title) if c]
    if len(declared) == 3 and len({norm_key(c) for c in declared}) == 1:
        return None  # og:title, twitter:title and <title> all set to one headline: the page declares it
    return visible


def _shown_segment(root: Any, cleaned: str, branding: str | None) -> str | None:
    """The one separator segment of a still-branded title that the page shows as a heading.

    Where nothing else tells the site's name (one page of a site, no og:site_name, an unknown host
    spelling), "Alles Neue macht der Mai | Bibliothek 2.0 und mehr" is resolved by the page itself: the
    segment it prints as a heading (``<h1>``-``<h3>``) is the headline, the rest is branding. A logo
    ``<h1>`` (``branding``: the site's name beside the headline in ``<title>``) shows the branding, not
    the headline.
    """
    segments = split_segments(cleaned)
    if not segments:
        return None
    keys = {norm_key(seg): seg for seg in segments if len(_words(seg)) >= 2}
    keys.pop(norm_key(branding or ""), None)
    for h in root.xpath("//h1|//h2|//h3")[:MAX_HEADER_H2]:
        hit = keys.get(norm_key(_shown_text(h)))
        if hit:
            return hit
    return None


def _disputed_headline(src: _Sources, chosen: str, clean: Any) -> str | None:
    """The visible ``<h1>`` when the page's declared headlines all disagree with one another.

    JSON-LD, og:title and ``<title>`` are the page's own statements of its headline; when at least two
    of them are there and no two agree ("Harry and Meghan talk about ...", "What we learned from ...",
    "11 things we learned ..."), no declared form has support, and the headline the page shows its
    readers breaks the tie, when it is about the same story (shares a fifth of its words with one of
    them), has two words or more, and is not merely one of them with words added or cut.
    """
    if not src.visible:
        return None
    visible: str = clean(src.visible)
    declared = [clean(c) for c in (src.ld, src.og, src.title) if c]
    keys = {norm_key(c) for c in declared}
    words, key = set(_words(visible)), norm_key(visible)
    if len(declared) < 2 or len(keys) < len(declared) or len(words) < 2 or key == norm_key(chosen):
        return None
    if any(k in key or key in k for k in keys):
        return None
    overlap = max(len(words & set(_words(c))) / len(words | set(_words(c))) for c in declared)
    return visible if overlap >= MIN_SHARED_WORDS else None


def _title_strings(src: _Sources) -> list[str]:
    """Every headline the page states, and the separator segments of its SEO titles."""
    whole = [c for c in (src.ld, src.og, src.h1, src.title) if c]
    return whole + [seg for c in (src.og, src.title) if c for seg in split_segments(c)]


def _learn_repeats(
    src: _Sources, history: LineHistory | None, url: str | None, site_names: list[str], labels: list[str]
) -> None:
    """Adds to ``site_names`` the ``<title>``/og:title segments, and to ``labels`` the whole candidates,
    that other pages of the publication state too (then counts this page's).

    Repetition is evidence on any site in any language: a segment on every page's ``<title>`` is the
    site's name however it is spelled, and a "headline" many pages share ("Medienmitteilungen", the
    section) is no page's headline.
    """
    if history is None:
        return
    strings = _title_strings(src)
    for text in strings:
        if history.is_repeated_title(text, url):
            (labels if text in (src.ld, src.og, src.h1, src.title) else site_names).append(text)
    history.observe_titles(strings, url)


def _real_headline(
    published: str,
    cleaned: str,
    candidates: Iterable[str],
    site_keys: set[str],
    labels: list[str],
    confirmed: list[str],
) -> tuple[str, str]:
    """(published, cleaned) with a generic choice (a site name, "Article", a section label, a title other
    pages repeat) replaced by the first real headline among the candidates, when there is one;
    ``confirmed``: the headlines the page both shows and declares (see :func:`is_generic_title`)."""

    def generic(text: str) -> bool:
        return is_generic_title(text, site_keys, labels, confirmed)

    if not generic(cleaned):
        return published, cleaned
    cleaned = next((c for c in candidates if not generic(c)), cleaned)
    if not generic(cleaned) and generic(published):
        published = cleaned
    return published, cleaned


def _strip_patterns(title: str, rules: RuleSet) -> str:
    """``title`` without what the publication's ``title_strip`` patterns match."""
    for pattern in rules.title_strip:
        try:
            title = re.sub(pattern, "", title).strip()
        except re.error:
            continue
    return title


def extract_title(
    root: Any,
    metas: Metas,
    ld: dict[str, Any] | None,
    url: str | None,
    site_names: list[str],
    rules: RuleSet,
    fallback_title: str | None,
    candidates_out: list[str] | None = None,
    section: str | None = None,
    history: LineHistory | None = None,
) -> tuple[str | None, str | None]:
    """(title as published, cleaned title); every candidate headline is appended to ``candidates_out``;
    ``history`` (the publication's) tells which title strings its other pages repeat."""
    src = _read_sources(root, metas, ld, fallback_title)
    host = host_of(url)
    labels = [section] if section else []
    site_names = list(site_names)
    _learn_repeats(src, history, url, site_names, labels)
    _complete_cut_headline(src, site_names, host)
    if src.h1 and not src.ld and not src.og:
        # an <h1> that is only the site's logo/name: the headline is in <title> without that branding
        src.h1 = headline_outside_branding(src.h1, src.title, site_names, host) or src.h1
    published = src.ld or src.og or src.h1 or src.title or src.fallback
    if not published:
        return None, None

    # an <h1> that is the site's branding beside the headline in <title>/og:title is no headline to trim to
    branding = any(headline_outside_branding(src.h1, t, site_names, host) for t in (src.title, src.og))
    shown = None if branding else src.h1

    def clean(text: str) -> str:
        return strip_site(text, site_names, host, shown)

    cleaned_candidates = [clean(c) for c in (src.ld, src.og, src.h1, src.title, src.fallback) if c]
    cleaned = cleaned_candidates[0]
    if src.ld and src.og and _og_agrees_with_page(root, clean(src.ld), clean(src.og), src, clean):
        cleaned = clean(src.og)
    elif not src.ld:
        cleaned = (
            _h1_within_og(root, src, site_names, host, clean) or _shown_headline(src, shown, clean) or cleaned
        )
    logo = src.h1 if branding else None
    cleaned = _disputed_headline(src, cleaned, clean) or _shown_segment(root, cleaned, logo) or cleaned
    declared = [clean(c) for c in (src.ld, src.og, src.twitter, src.title) if c]
    unlabelled = headline_without_label(src.labelled, declared)
    cleaned = unlabelled or cleaned
    site_keys = {norm_key(n) for n in site_names if n} | host_keys(host)
    labels += [clean(label) for label in labels]
    shown_form = unlabelled or (clean(src.visible) if src.visible else None)
    confirmed = [shown_form] if shown_form and norm_key(shown_form) in {norm_key(d) for d in declared} else []
    published, cleaned = _real_headline(published, cleaned, cleaned_candidates, site_keys, labels, confirmed)
    seo = [clean(c) for c in (src.og, src.twitter, src.title) if c]
    families = [[clean(src.ld)] if src.ld else [], [shown_form] if shown_form else [], seo]
    cleaned = agreed_form(cleaned, families, shown_form)
    if candidates_out is not None:
        candidates_out.extend(c for c in (src.ld, src.og, src.h1, *cleaned_candidates) if c)
    return published, _strip_patterns(cleaned, rules) or published


__all__ = ["extract_title"]
