"""What the part-of-speech tagger looks at for one token: the word, its affixes and shape, its neighbours.

Why these: with a few tens of thousands of training tokens most test words are rare or unseen, so a
word's suffixes, prefixes, shape (capitals, digits, hyphens) and its word clusters (a coarse and a fine one,
``coarse.fine``, learned from unlabelled news text) carry the evidence; the two previous tags and the neighbouring words decide
between a word's possible tags. Typographic and Treebank quotes (`` '' “ ”) look the same to the
tagger, so the project's tokens and a treebank's plain quotes share their features.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

START = ("-START-", "-START2-")
END = ("-END-", "-END2-")

_QUOTES = frozenset(("``", "''", "“", "”", "„", '"', "«", "»"))
_SINGLE_QUOTES = frozenset(("`", "‘", "’", "'"))
_SHAPE_RUNS = re.compile(r"(.)\1+")


def normalise(token: str) -> str:
    """The form the tagger keys on: quotes unified, digits folded, lower case."""
    if token in _QUOTES:
        return '"'
    if token in _SINGLE_QUOTES:
        return "'"
    if token.startswith(("http://", "https://", "www.")) or ("@" in token and "." in token):
        return "!URL"
    if any(ch.isdigit() for ch in token):
        if all(ch.isdigit() for ch in token):
            return "!YEAR" if len(token) == 4 else "!DIGITS"
        return "!D" + re.sub(r"\d+", "0", token.lower())[:6]
    return token.lower()


def shape(token: str) -> str:
    """Xxxx -> Xx, U.S. -> X.X., 10-year -> d-x: letter classes with runs collapsed."""
    mapped = "".join(
        ("X" if ch.isupper() else "x") if ch.isalpha() else ("d" if ch.isdigit() else ch) for ch in token
    )
    return _SHAPE_RUNS.sub(r"\1", mapped)[:8]


class Context:
    """One sentence as the features read it, computed once per pass: padded words, shapes, clusters,
    how often each word is capitalised in running text and hints (another pass's tags), each padded by
    two on both sides so that a neighbour's value is one index away.
    """

    __slots__ = ("capitals", "clusters", "forms", "hints", "lexicon", "shapes", "words")

    def __init__(
        self,
        tokens: Sequence[str],
        clusters: Mapping[str, str],
        capitals: Mapping[str, str],
        hints: Sequence[str] | None = None,
        lexicon: Mapping[str, str] | None = None,
    ) -> None:
        self.forms = tokens
        self.words = padded(tokens)
        self.shapes = [shape(t) for t in tokens]
        self.clusters = [clusters.get(w) or "?" for w in self.words] if clusters else []
        self.capitals = [capitals.get(w) or "?" for w in self.words[2:-2]] if capitals else []
        self.hints = [*START, *hints, *END] if hints else []
        self.lexicon = [lexicon.get(w) or "?" for w in self.words] if lexicon else []


def features(i: int, ctx: Context, prev: str, prev2: str) -> list[str]:
    """Feature names of token ``i`` of the sentence ``ctx`` given the two previous predicted tags."""
    j = i + 2
    words, form = ctx.words, ctx.forms[i]
    word, low = words[j], form.lower()
    feats = [
        "b",
        "w " + word,
        "s1 " + low[-1:],
        "s2 " + low[-2:],
        "s3 " + low[-3:],
        "s4 " + low[-4:],
        "p1 " + low[:1],
        "p2 " + low[:2],
        "p3 " + low[:3],
        "p4 " + low[:4],
        "sh " + ctx.shapes[i],
        "sh-1 " + (ctx.shapes[i - 1] if i else "^"),
        "sh+1 " + (ctx.shapes[i + 1] if i + 1 < len(ctx.shapes) else "$"),
        "t-1 " + prev,
        "t-2 " + prev2,
        "t-1t-2 " + prev + " " + prev2,
        "t-1w " + prev + " " + word,
        "w-1 " + words[j - 1],
        "w-2 " + words[j - 2],
        "w+1 " + words[j + 1],
        "w+2 " + words[j + 2],
        "w-1w " + words[j - 1] + " " + word,
        "ww+1 " + word + " " + words[j + 1],
        "w-1w+1 " + words[j - 1] + " " + words[j + 1],
        "s3-1 " + words[j - 1][-3:],
        "s3+1 " + words[j + 1][-3:],
        f"len {min(len(form), 8)}",
    ]
    if form[:1].isupper():
        feats.append("cap " + ("first" if i == 0 else "inner"))
    if "-" in form and len(form) > 1:
        feats.append("hyphen")
        feats.append("hs " + low.rsplit("-", 1)[-1][-4:])
        feats.append("hp " + low.split("-", 1)[0])
    _context_features(i, ctx, prev, feats)
    return feats


def _context_features(i: int, ctx: Context, prev: str, feats: list[str]) -> None:
    """What the sentence's tables add: clusters around the word, its capitalisation, the other pass's tags."""
    j, word, form = i + 2, ctx.words[i + 2], ctx.forms[i]
    clusters = ctx.clusters
    if clusters:
        here, left, right = clusters[j], clusters[j - 1], clusters[j + 1]
        for tag, cluster in (("c", here), ("c-1", left), ("c+1", right)):
            if cluster != "?":
                feats.append(f"{tag} {cluster}")
                feats.append(f"{tag}0 {cluster.split('.', 1)[0]}")
        feats += [
            f"cc-1 {left} {here}",
            f"cc+1 {here} {right}",
            f"c-2 {clusters[j - 2]}",
            f"c+2 {clusters[j + 2]}",
            f"t-1c {prev} {here}",
        ]
    if ctx.capitals:
        share = ctx.capitals[i]
        feats += ["k " + share, f"kc {share} {form[:1].isupper()} {i == 0}"]
    lexicon = ctx.lexicon
    if lexicon:
        feats += ["a " + lexicon[j], "a-1 " + lexicon[j - 1], "a+1 " + lexicon[j + 1]]
    hints = ctx.hints
    if hints:
        feats += [
            "h " + hints[j],
            "h+1 " + hints[j + 1],
            "h+2 " + hints[j + 2],
            "h-1 " + hints[j - 1],
            f"h-1h {hints[j - 1]} {hints[j]}",
            f"hh+1 {hints[j]} {hints[j + 1]}",
            f"h+1h+2 {hints[j + 1]} {hints[j + 2]}",
            f"t-1h+1 {prev} {hints[j + 1]}",
            f"wh+1 {word} {hints[j + 1]}",
        ]


def padded(tokens: Sequence[str]) -> list[str]:
    """Normalised words with two sentinels on each side (what :func:`features` indexes)."""
    return [*START, *(normalise(t) for t in tokens), *END]
