"""What a publication's article URLs look like, learnt from examples and counter-examples.

Why learnt, not written: a user adding a publication knows its homepage; the shape of its article URLs
(``/news/2024/03/some-slug/``, ``/artikel/12345-slug``) is evidence the site gives away. Articles are
URLs its feeds and sitemaps list, or pages the page core reads as articles; counter-examples are pages
of the same site the page core does not read as articles (sections, tags, authors). The pattern is as
general as the articles allow (a section not among the samples still matches) and is made stricter
only where a counter-example demands it; what is still matched by a counter-example is denied by its
first path segment (``/tag/``) when no article shares it.

Patterns match what :class:`sacorpus.sources.urls.UrlPolicy` matches: the path plus ``?query``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

_DIGITS = re.compile(r"^\d+$")
_ID_RUN = re.compile(r"(?<![0-9])\d{5,}(?![0-9])")
MAX_HYPHENS = 4  # a slug class stricter than this says nothing more
QUERY_TAIL = r"(?:\?.*)?$"


@dataclass
class UrlPatterns:
    """The learnt rules: article patterns, deny patterns, the id pattern, and why."""

    article: list[str] = field(default_factory=list)
    deny: list[str] = field(default_factory=list)
    id_pattern: str | None = None
    notes: list[str] = field(default_factory=list)


def _segments(url: str) -> tuple[list[str], bool]:
    path = urlsplit(url).path
    return [s for s in path.split("/") if s], path.endswith("/") and path != "/"


def _target(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _digit_class(values: list[str]) -> str:
    lengths = {len(v) for v in values}
    if lengths == {4}:
        return r"\d{4}"
    if max(lengths) <= 2:
        return r"\d{1,2}"
    return r"\d+"


def _slug_class(hyphens: int) -> str:
    return r"[^/?]+" if hyphens <= 0 else r"[^/?]*" + r"-[^/?]*" * hyphens


def _hyphens(value: str) -> int:
    return value.count("-") + value.count("_")


def _position(values: list[str], last: bool, hyphens: int) -> str:
    """One path segment's part of the pattern, from the articles' values at that position."""
    if all(_DIGITS.match(v) for v in values):
        return _digit_class(values)
    if not last and len(set(values)) == 1 and not any(c.isdigit() for c in values[0]):
        return re.escape(values[0])  # a shared word: /news/, /artikel/
    return _slug_class(hyphens if last else 0)


def _group_pattern(members: list[list[str]], slash: bool, hyphens: int) -> str:
    depth = len(members[0])
    parts = [_position([m[i] for m in members], i == depth - 1, hyphens) for i in range(depth)]
    return "^/" + "/".join(parts) + ("/?" if slash else "") + QUERY_TAIL


def _matches(pattern: str, urls: list[str]) -> list[str]:
    compiled = re.compile(pattern)
    return [u for u in urls if compiled.search(_target(u))]


def learn_url_patterns(articles: list[str], others: list[str]) -> UrlPatterns:
    """Article patterns matching every URL of ``articles`` and as few of ``others`` as the shapes allow."""
    out = UrlPatterns()
    groups: dict[int, list[list[str]]] = {}
    slashes: dict[int, bool] = {}
    for url in dict.fromkeys(articles):
        segs, slash = _segments(url)
        if segs:
            groups.setdefault(len(segs), []).append(segs)
            slashes[len(segs)] = slashes.get(len(segs), False) or slash
    for depth, members in sorted(groups.items()):
        most = min(min(_hyphens(m[-1]) for m in members), MAX_HYPHENS)
        hyphens = min(most, 1)
        pattern = _group_pattern(members, slashes[depth], hyphens)
        while _matches(pattern, others) and hyphens < most:  # tighten only on evidence
            hyphens += 1
            pattern = _group_pattern(members, slashes[depth], hyphens)
        out.article.append(pattern)
    _deny_counter_examples(out, articles, others)
    out.id_pattern = learn_id_pattern(articles)
    return out


def _deny_counter_examples(out: UrlPatterns, articles: list[str], others: list[str]) -> None:
    """Counter-examples still matched are denied by their first segment when no article has it."""
    article_firsts = Counter(_segments(u)[0][0] for u in articles if _segments(u)[0])
    for pattern in out.article:
        for url in _matches(pattern, others):
            segs, _ = _segments(url)
            if segs and len(segs) > 1 and segs[0] not in article_firsts:
                deny = f"^/{re.escape(segs[0])}/"
                if deny not in out.deny:
                    out.deny.append(deny)
            elif not any(re.search(d, _target(url)) for d in out.deny):
                out.notes.append(f"{_target(url)} looks like an article but is not one (no rule could tell)")


def learn_id_pattern(articles: list[str]) -> str | None:
    """A pattern with a group ``id`` when every article carries a distinct number of 5+ digits in the
    same place (a whole segment, the end of the slug or its start), else None."""
    if len(articles) < 2:
        return None
    candidates = (
        (r"/(?P<id>\d{%d,})(?=[/.?]|$)", r"/(\d{5,})(?=[/.?]|$)"),
        (r"-(?P<id>\d{%d,})(?=[/.?]|$)", r"-(\d{5,})(?=[/.?]|$)"),
        (r"/(?P<id>\d{%d,})-", r"/(\d{5,})-"),
    )
    for template, probe in candidates:
        found = [re.search(probe, urlsplit(u).path) for u in articles]
        if all(found):
            ids = [m.group(1) for m in found if m]
            if len(set(ids)) == len(ids) and not all(_ID_RUN.fullmatch(i) and _is_date(i) for i in ids):
                return template % min(len(i) for i in ids)
    return None


def _is_date(value: str) -> bool:
    """20240315 is a date, not an id."""
    return len(value) == 8 and value[:2] in ("19", "20") and "01" <= value[4:6] <= "12"


__all__ = ["UrlPatterns", "learn_id_pattern", "learn_url_patterns"]
