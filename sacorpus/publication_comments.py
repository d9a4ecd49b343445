"""Where a publication's readers comment: the ``[comments]`` table of its file.

Why data: a publication either embeds Disqus (its forum short name is all a crawl needs to ask the
Disqus API for a page's thread) or prints its comments in the page; both are declared, never guessed,
so the crawler asks the Disqus API only for publications that use it::

    [comments]
    disqus_forum = "timeslive"          # the Disqus forum (short name) its pages embed
    # an on-page section: CSS selectors inside each comment element
    item = "ol.comments li.comment"     # one comment
    body = ".comment-body"              # its text
    author = ".comment-author"          # optional
    date = "time[datetime]"             # optional (the datetime attribute, else the text)
    id_attribute = "id"                 # optional: the attribute holding the comment's id
    parent_attribute = "data-parent"    # optional: the attribute naming the comment it answers
                                        # (without it: the enclosing comment element, for nested lists)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sacorpus.publication_reader import TomlReader, selector_problem


@dataclass(frozen=True)
class CommentRules:
    """How to read a publication's comments (Disqus forum, on-page selectors, or both)."""

    disqus_forum: str | None = None
    item: str | None = None
    body: str | None = None
    author: str | None = None
    date: str | None = None
    id_attribute: str = "id"
    parent_attribute: str | None = None

    @property
    def on_page(self) -> bool:
        return bool(self.item)


def _css(reader: TomlReader, key: str, *, required: bool = False) -> str | None:
    value: str | None = reader.get(key, str, required=required)
    if value is not None:
        problem = selector_problem(value)
        if problem or value.lstrip().startswith(("/", "(")):
            raise reader.fail(key, problem or "must be a CSS selector")
    return value


def read_comments(top: TomlReader) -> CommentRules | None:
    """The ``[comments]`` table, checked: a forum name or an item selector, selectors compile."""
    c = top.sub("comments")
    if c is None:
        return None
    forum = c.get("disqus_forum", str)
    if forum is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", forum):
        raise c.fail("disqus_forum", f"not a Disqus forum short name: {forum!r}")
    item = _css(c, "item")
    rules = CommentRules(
        disqus_forum=forum,
        item=item,
        body=_css(c, "body", required=item is not None),
        author=_css(c, "author"),
        date=_css(c, "date"),
        id_attribute=c.get("id_attribute", str, default="id"),
        parent_attribute=c.get("parent_attribute", str),
    )
    if not (forum or item):
        raise c.fail("item", "a [comments] table needs disqus_forum or an on-page item selector")
    if item is None and (rules.body or rules.author or rules.date or rules.parent_attribute):
        raise c.fail("item", "on-page selectors need the item selector (one comment element)")
    c.finish()
    return rules


__all__ = ["CommentRules", "read_comments"]
