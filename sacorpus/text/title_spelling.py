"""The spelling of a chosen headline, by agreement of the sources that state it.

Sources that agree on a headline often differ in typography only (curly or straight quotes, an en dash
or a hyphen, "..." or "…"); this module picks the form most independent sources share, the typographic
original over its ASCII copy. Split from :mod:`sacorpus.text.title_choice`, which chooses *which*
headline; this decides how it is written.
"""

from __future__ import annotations

import re

from sacorpus.text.titles import norm_key

_TYPOGRAPHY = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"'}
    | {
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2026": "...",
        "\u00a0": " ",
    }
)


_APOSTROPHE = re.compile(r"(?<=\w)\u2019(?=\w)")


def _ascii_fold(text: str) -> str:
    """``text`` with typographic quotation marks, dashes and ellipses written the ASCII way.

    SEO fields (og:title, ``<title>``) are often the headline passed through an ASCII filter; the
    typographic form is the original, never the other way round. The apostrophe inside a word is left
    alone: CMSs write it either way in every field, so it is no sign of which form is the copy, and the
    majority of the sources decides it.
    """
    kept = _APOSTROPHE.sub("\x00", text)  # a placeholder no title contains, put back after folding
    return kept.translate(_TYPOGRAPHY).replace("\x00", "\u2019")


def agreed_form(chosen: str, families: list[list[str]], shown: str | None) -> str:
    """The spelling of the chosen headline that most independent sources share; on a tie, the one shown.

    Sources that agree on a headline often differ in typography only: curly or straight quotes, an en
    dash or a hyphen, "..." or "…", a space after a colon. ``og:title``, ``twitter:title`` and
    ``<title>`` are usually copies of one SEO field, so they form one family and vote once (else the
    SEO spelling would always outvote the visible headline); the JSON-LD headline and the visible
    ``<h1>`` vote once each. Tie rule: the chosen source's form stays when it is among the most voted,
    else the visible ``<h1>``'s form (what a reader sees), else the first most voted form.
    """
    key = norm_key(chosen)
    # markup joins text without the space a separator had ("<h1>Kicker:<span>Headline</span>"): forms that
    # differ only in spaces are one form, spelled with the spaces
    spaced: dict[str, str] = {}
    for form in (f for family in families for f in family if f and norm_key(f) == key):
        bare = form.replace(" ", "")
        if form.count(" ") > spaced.get(bare, "").count(" ") or bare not in spaced:
            spaced[bare] = form
    typographic = {_ascii_fold(f): f for f in reversed(spaced.values()) if _ascii_fold(f) != f}
    votes: dict[str, int] = {}
    for family in families:
        # a form that is another's ASCII folding is a copy of it: its votes go to the typographic original
        forms = {spaced[f.replace(" ", "")] for f in family if f and norm_key(f) == key}
        for form in {typographic.get(f, f) for f in forms}:
            votes[form] = votes.get(form, 0) + 1
    if not votes:
        return chosen
    chosen = spaced.get(chosen.replace(" ", ""), chosen)
    chosen = typographic.get(chosen, chosen)
    shown = spaced.get(shown.replace(" ", ""), shown) if shown else None
    top = max(votes.values())
    if votes.get(chosen, 0) == top:
        return chosen
    if shown is not None and votes.get(shown, 0) == top:
        return shown
    return next(form for form, n in votes.items() if n == top)


__all__ = ["agreed_form"]
