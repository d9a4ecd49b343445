"""The corpus browser's pages: each reads its parameters, runs one query off the loop, renders.

Downloads (``?format=csv`` or ``tsv``) of the concordance, word list and collocations give every row
the page would show over all its pages, so what a researcher saves is what they saw.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from aiohttp import web

from sacorpus.corpus.collocations import MEASURES
from sacorpus.corpus.kwic import SORT_KEYS
from sacorpus.web import article as view
from sacorpus.web import queries
from sacorpus.web.app import CORPUS, page_context, render
from sacorpus.web.charts import bars, daily_chart
from sacorpus.web.params import choice, flag, number

FORMATS = ("html", "csv", "tsv")
MAX_PAGE = 100_000


def download(name: str, header: Sequence[str], rows: Iterable[Sequence[Any]], fmt: str) -> web.Response:
    """A CSV or TSV attachment (UTF-8; TSV fields have their tabs and newlines made spaces)."""
    out = io.StringIO()
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    else:
        for row in [header, *rows]:
            out.write("\t".join(" ".join(str(v).split()) for v in row) + "\n")
    return web.Response(
        text=out.getvalue(),
        content_type="text/csv" if fmt == "csv" else "text/tab-separated-values",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.{fmt}"'},
    )


async def home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/search")


async def search(request: web.Request) -> web.StreamResponse:
    corpus = request.app[CORPUS]
    context = await page_context(request)
    q = request.query.get("q", "")
    mode = choice(request.query, "mode", queries.SEARCH_MODES, "phrase")
    page = None
    if q:
        page = await corpus.run(
            queries.search,
            corpus.store,
            context["flt"],
            q,
            mode=mode,
            case_sensitive=flag(request.query, "case"),
            page=number(request.query, "page", 1, 1, MAX_PAGE),
            size=corpus.config.page_size,
        )
    return render(request, "search.html", page=page, q=q, mode=mode, modes=queries.SEARCH_MODES, **context)


async def kwic(request: web.Request) -> web.StreamResponse:
    corpus = request.app[CORPUS]
    context = await page_context(request)
    q = request.query.get("q", "")
    sort = choice(request.query, "sort", SORT_KEYS, "none")
    width = number(request.query, "width", 40, 5, 200)
    fmt = choice(request.query, "format", FORMATS, "html")
    page = None
    if q:
        number_ = number(request.query, "page", 1, 1, MAX_PAGE)
        size = corpus.config.page_size
        # in corpus order a page needs only the lines up to its end (and one more: is there a next page?)
        early = sort == "none" and fmt == "html"
        lines, counts, capped = await corpus.run(
            queries.concordance,
            corpus.store,
            context["flt"],
            q,
            width=width,
            case_sensitive=flag(request.query, "case"),
            sort=sort,
            max_lines=min(corpus.config.max_lines, number_ * size + 1) if early else corpus.config.max_lines,
        )
        if fmt != "html":
            rows = ((h.left, h.keyword, h.right, h.url) for h in lines)
            return download("kwic", ("left", "keyword", "right", "url"), rows, fmt)
        page = queries.kwic_page(lines, counts, capped and not early, number_, size)
        if early and capped:
            page.total = None  # stopped at this page: how many lines in all is not known
    return render(request, "kwic.html", page=page, q=q, sort=sort, width=width, sorts=SORT_KEYS, **context)


async def _stored(request: web.Request) -> dict[str, Any]:
    corpus = request.app[CORPUS]
    url = request.query.get("url", "")
    if not url:
        raise queries.QueryError("which article? (give ?url=...)")
    record = await corpus.run(corpus.store.get, url)
    if record is None:
        raise web.HTTPNotFound(text=f"no article with the URL {url} in this corpus")
    return dict(record)


async def article(request: web.Request) -> web.StreamResponse:
    record = view.with_defaults(await _stored(request))
    return render(
        request,
        "article.html",
        a=record,
        paragraphs=view.paragraphs(record),
        sentences=view.sentences(record),
        token_titles=view.token_column_titles(record),
        matches=view.dedup_matches(record),
        web_address=view.web_address,
    )


async def article_raw(request: web.Request) -> web.StreamResponse:
    """The stored HTML as plain text in a sandbox: the browser shows it, never runs or loads it."""
    record = await _stored(request)
    return web.Response(
        text=str(record.get("html") or ""),
        content_type="text/plain",
        charset="utf-8",
        headers={"Content-Security-Policy": "sandbox; default-src 'none'"},
    )


def _slice(rows: list[Any], request: web.Request, size: int) -> tuple[list[Any], int, bool]:
    page = number(request.query, "page", 1, 1, MAX_PAGE)
    start = (page - 1) * size
    return rows[start : start + size], page, start + size < len(rows)


async def wordlist(request: web.Request) -> web.StreamResponse:
    corpus = request.app[CORPUS]
    context = await page_context(request)
    lower = flag(request.query, "lower")
    min_count = number(request.query, "min", 1, 1, 1_000_000)
    fmt = choice(request.query, "format", FORMATS, "html")
    rows, counter, counts = await corpus.run(
        queries.wordlist, corpus.store, context["flt"], lower=lower, min_count=min_count
    )
    if fmt != "html":
        table = ((r.rank, r.word, r.count, f"{r.per_million:.2f}") for r in rows)
        return download("wordlist", ("rank", "word", "count", "per_million"), table, fmt)
    shown, page, more = _slice(rows, request, corpus.config.page_size)
    return render(
        request, "wordlist.html", rows=shown, page=page, more=more, counter=counter, counts=counts, **context
    )


async def collocations(request: web.Request) -> web.StreamResponse:
    corpus = request.app[CORPUS]
    context = await page_context(request)
    node = request.query.get("node", "")
    measure = choice(request.query, "measure", MEASURES, "ll")
    window = number(request.query, "window", 5, 1, 20)
    min_count = number(request.query, "min", 3, 1, 1_000_000)
    fmt = choice(request.query, "format", FORMATS, "html")
    rows: list[Any] = []
    counter = counts = None
    if node:
        rows, counter, counts = await corpus.run(
            queries.collocation_table,
            corpus.store,
            context["flt"],
            node,
            window=window,
            measure=measure,
            min_count=min_count,
        )
    if fmt != "html":
        header = ("rank", "collocate", "cooc", "freq", "expected", "ll", "mi", "t")
        table = (
            (i, c.word, c.o11, c.c1, f"{c.e11:.3f}", f"{c.ll:.3f}", f"{c.mi:.3f}", f"{c.t:.3f}")
            for i, c in enumerate(rows, start=1)
        )
        return download("collocations", header, table, fmt)
    shown, page, more = _slice(rows, request, corpus.config.page_size)
    return render(
        request,
        "collocations.html",
        rows=shown,
        first_rank=(page - 1) * corpus.config.page_size + 1,
        page=page,
        more=more,
        node=node,
        measure=measure,
        measures=MEASURES,
        window=window,
        counter=counter,
        counts=counts,
        **context,
    )


async def stats(request: web.Request) -> web.StreamResponse:
    corpus = request.app[CORPUS]
    context = await page_context(request)
    summary = await corpus.run(queries.corpus_stats, corpus.store, context["flt"])
    return render(
        request,
        "stats.html",
        summary=summary,
        chart=daily_chart(summary.daily),
        languages=bars(summary.languages),
        labels=bars(summary.labels),
        **context,
    )
