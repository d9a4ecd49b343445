"""Stored article records built the way a crawl builds them, for the corpus browser's tests and benchmark.

Why the real analysis: the languages, sentences, tokens, links and quotes come from
``sacorpus.text.analysis`` (the language and tokenize stages' own functions), so the pages are tested
on the shapes a crawl stores, not on hand-written spans. The texts are written here (modelled on South
African news items, no real article text). :func:`generated_records` copies a few analysed articles
under new URLs and dates, so a benchmark can store 100,000 of them in seconds.
"""

from __future__ import annotations

import dataclasses
import html as html_module
import re
from collections.abc import Iterator
from typing import Any

from sacorpus.items import Article
from sacorpus.text.analysis import language_fields, token_fields

_TAG = re.compile(r"<[^>]+>")


def article_record(
    url: str,
    publication: str,
    paragraphs: list[str],
    *,
    title: str,
    published_at: str | None,
    fetched_at: str = "2024-04-01T00:00:00Z",
    dedup_label: str = "unique",
    dedup_evidence: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A stored record of an article whose paragraphs are HTML fragments (``<a href>`` links kept)."""
    html = "<html><body><article>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</article></body></html>"
    text = "\n".join(html_module.unescape(_TAG.sub("", p)) for p in paragraphs)
    languages = language_fields(text)
    tokens, _ = token_fields(text, languages.get("language"), title=title, html=html, base_url=url)
    article = Article(
        url=url,
        publication=publication,
        fetched_at=fetched_at,
        body=html.encode(),
        html=html,
        text=text,
        title=title,
        title_clean=title,
        published_at=published_at,
        dedup_label=dedup_label,
        dedup_evidence=dedup_evidence or [],
    )
    return {**dataclasses.asdict(article), **languages, **tokens}


LAND = [
    "The land reform debate continued in <a href='https://parliament.example/debate'>Parliament</a> "
    "on Tuesday.",
    "“Land reform is urgent,” said the minister. Members asked for the report to be tabled.",
]
WATER = [
    "Water shortages hit Johannesburg as reservoirs ran low.",
    "Residents don't have water at all, the city said. Tankers were sent to the worst-hit suburbs.",
]
AFRIKAANS = ["Die water in die dam is skoon en die boere is baie bly oor die reën wat geval het."]
MIXED = [
    "The choir sang at the opening of the new school hall in Durban on Saturday.",
    "Sibonga kakhulu ngokuza kwenu, kusho uthishanhloli wesikole ezinganeni nabazali.",
]


def browser_corpus() -> list[dict[str, Any]]:
    """Seven articles: a labelled duplicate with its evidence, Afrikaans, a mixed-language article,
    an undated one, and a title and text written to break out of the page if anything is unescaped."""
    first = "https://iol.example/land-reform-1"
    records = [
        article_record(
            first, "iol", LAND, title="Land reform: debate continues", published_at="2024-01-15T08:30:00Z"
        ),
        article_record(
            "https://iol.example/land-reform-2",
            "iol",
            LAND,
            title="Land reform debate (copy)",
            published_at="2024-01-16T09:00:00Z",
            fetched_at="2024-04-01T00:00:02Z",
            dedup_label="duplicate",
            dedup_evidence=[{"url": first, "score": 1.0, "shared": 3, "kind": "exact"}],
        ),
        article_record(
            "https://mg.example/water",
            "mg",
            WATER,
            title="Water shortages",
            published_at="2024-02-20T23:59:59Z",
        ),
        article_record(
            "https://news24.example/water-af",
            "news24",
            AFRIKAANS,
            title="Water",
            published_at="2024-03-01T00:00:00Z",
        ),
        article_record(
            "https://iol.example/choir",
            "iol",
            MIXED,
            title="Choir opens hall",
            published_at="2024-01-15T12:00:00Z",
        ),
        article_record(
            "https://mg.example/undated",
            "mg",
            ["Reform of the land laws."],
            title="Reform",
            published_at=None,
        ),
        article_record(
            "https://mg.example/escape",
            "mg",
            [
                "The &lt;script&gt;document.title='pwned'&lt;/script&gt; budget vote "
                "&lt;img src=x onerror=alert(1)&gt; passed."
            ],
            title="<script>document.title='pwned'</script>Budget vote",
            published_at="2024-02-21T10:00:00Z",
        ),
    ]
    records[-1]["links"] = [{"url": "javascript:alert(1)", "start": 4, "length": 6, "text": "<scri"}]
    return records


def generated_records(
    count: int, publications: tuple[str, ...] = ("iol", "mg", "news24")
) -> Iterator[dict[str, Any]]:
    """``count`` records copied from the browser corpus under new URLs, dates and publications."""
    templates = [r for r in browser_corpus() if r["dedup_label"] == "unique"]
    for i in range(count):
        record = dict(templates[i % len(templates)])
        publication = publications[i % len(publications)]
        day = 1 + i % 28
        record.update(
            url=f"https://{publication}.example/{i}",
            publication=publication,
            published_at=f"2024-{1 + i // 28 % 12:02d}-{day:02d}T10:00:00Z",
            fetched_at=f"2024-12-31T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
        )
        yield record
