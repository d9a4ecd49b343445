"""Fixtures for extraction tests: small synthetic pages modelled on South African news markup."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_html():
    def read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")

    return read


def article_page(
    *,
    head: str = "",
    body: str = "",
    paragraphs: int = 5,
) -> str:
    """A news page with enough body text for trafilatura to treat it as an article."""
    paras = "".join(
        f"<p>Paragraph {i}: the Johannesburg metro council met on Thursday to discuss the budget for water "
        f"infrastructure, and councillors from several parties raised concerns about delays in Soweto.</p>"
        for i in range(paragraphs)
    )
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'>{head}</head><body>"
        f"<nav><a href='/'>Home</a></nav><article>{body}<div class='body'>{paras}</div></article>"
        "<footer>Terms and conditions</footer></body></html>"
    )


@pytest.fixture
def make_page():
    return article_page
