"""Helpers shared by the publication tests (a uniquely named module: ``from conftest import`` is ambiguous
when several test directories have a conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

from parsel import Selector

SITES_DIR = Path(__file__).resolve().parents[1] / "sites"


def select_texts(html: str, selector: str) -> list[str]:
    """Texts a rule selector finds: CSS, or XPath when it starts with '/' or '('; meta tags give @content."""
    sel = Selector(text=html)
    nodes = sel.xpath(selector) if selector.startswith(("/", "(")) else sel.css(selector)
    out = []
    for node in nodes:
        content = node.attrib.get("content") or node.attrib.get("datetime")
        text = (
            content if content else " ".join(t.strip() for t in node.xpath(".//text()").getall() if t.strip())
        )
        if text:
            out.append(text)
    return out


def clean_title(title: str, patterns: tuple[str, ...]) -> str:
    for pattern in patterns:
        title = re.sub(pattern, "", title)
    return title.strip()


def clean_author(author: str, patterns: tuple[str, ...]) -> str:
    for pattern in patterns:
        author = re.sub(pattern, "", author)
    return author.strip()
