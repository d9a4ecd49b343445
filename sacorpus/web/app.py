"""The corpus browser's web application (aiohttp + Jinja2): pages over one open, read-only store.

Why this shape: aiohttp is already the project's HTTP stack (the test servers use it) and Jinja2
escapes every value by default, so a title with ``<script>`` is text. Store calls block, so each page's
work runs in a small thread pool (:data:`SACORPUS_SERVE_WORKERS`) and the event loop keeps answering.
Every route is GET: nothing here writes to the store. Responses forbid scripts, frames and foreign
resources (the pages need none); the raw HTML of an article is served as sandboxed plain text.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jinja2
from aiohttp import web

from sacorpus.corpus.filters import FilterError
from sacorpus.corpus.known import KnownValues, file_values, known_values
from sacorpus.corpus.search import PatternError
from sacorpus.storage.base import ArticleStore, StorageError
from sacorpus.web.params import article_filter, filter_form, with_changes
from sacorpus.web.queries import QueryError

logger = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
STATIC_TYPES = {".css": "text/css", ".svg": "image/svg+xml"}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class ServeConfig:
    """The settings the pages read (from SACORPUS_SERVE_*)."""

    page_size: int = 50
    max_lines: int = 20_000
    workers: int = 4

    @classmethod
    def from_settings(cls, settings: Any) -> ServeConfig:
        return cls(
            page_size=max(1, settings.getint("SACORPUS_SERVE_PAGE_SIZE")),
            max_lines=max(1, settings.getint("SACORPUS_SERVE_MAX_LINES")),
            workers=max(1, settings.getint("SACORPUS_SERVE_WORKERS")),
        )


class Corpus:
    """The open store, the known filter values and the thread pool the pages share."""

    def __init__(self, store: ArticleStore, settings: Any, config: ServeConfig) -> None:
        self.store = store
        self.settings = settings
        self.config = config
        self.pool = ThreadPoolExecutor(config.workers, thread_name_prefix="sacorpus-serve")
        self.files: KnownValues | None = None  # the publication files' values, read once

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store function off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args, **kwargs))

    async def known(self) -> KnownValues:
        """The store's publications and languages now, and those of the publication files."""
        if self.files is None:
            self.files = await self.run(file_values, self.settings)
        known: KnownValues = await self.run(known_values, self.store, self.settings, self.files)
        return known


CORPUS = web.AppKey("corpus", Corpus)
TEMPLATES = web.AppKey("templates", jinja2.Environment)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("sacorpus.web", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["with_changes"] = with_changes
    return env


def render(request: web.Request, name: str, status: int = 200, **context: Any) -> web.Response:
    template = request.app[TEMPLATES].get_template(name)
    html = template.render(request=request, query=request.query, **context)
    return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")


async def page_context(request: web.Request) -> dict[str, Any]:
    """The filter (checked: a bad value raises FilterError) and the filter form's choices."""
    corpus = request.app[CORPUS]
    known = await corpus.known()
    return {"flt": article_filter(request.query, known), "form": filter_form(request.query, known)}


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bad input is a 400 page with one clear message; a store outage a 503; headers on everything."""
    try:
        response = await handler(request)
    except (FilterError, QueryError, PatternError) as exc:
        response = render(request, "error.html", 400, title="Cannot run this query", message=str(exc))
    except StorageError as exc:
        logger.error("corpus browser: %s", exc)
        response = render(request, "error.html", 503, title="The corpus cannot be read", message=str(exc))
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = render(request, "error.html", exc.status, title=exc.reason, message=exc.text or "")
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    return response


async def static(request: web.Request) -> web.Response:
    """The stylesheet, read from the package (works from an installed egg too)."""
    name = request.match_info["name"]
    suffix = name[name.rfind(".") :] if "." in name else ""
    resource = resources.files("sacorpus.web").joinpath("static", name)
    if "/" in name or suffix not in STATIC_TYPES or not resource.is_file():
        raise web.HTTPNotFound(text=f"no static file {name!r}")
    return web.Response(
        body=resource.read_bytes(),
        content_type=STATIC_TYPES[suffix],
        headers={"Cache-Control": "max-age=3600"},
    )


async def on_cleanup(app: web.Application) -> None:
    app[CORPUS].pool.shutdown(wait=False, cancel_futures=True)


def make_app(store: ArticleStore, settings: Any, config: ServeConfig | None = None) -> web.Application:
    """The application over an open store (the caller opens and closes it)."""
    from sacorpus.web import routes

    app = web.Application(middlewares=[guard])
    app[CORPUS] = Corpus(store, settings, config or ServeConfig.from_settings(settings))
    app[TEMPLATES] = environment()
    app.router.add_get("/", routes.home)
    app.router.add_get("/search", routes.search)
    app.router.add_get("/kwic", routes.kwic)
    app.router.add_get("/article", routes.article)
    app.router.add_get("/article/raw", routes.article_raw)
    app.router.add_get("/wordlist", routes.wordlist)
    app.router.add_get("/collocations", routes.collocations)
    app.router.add_get("/stats", routes.stats)
    app.router.add_get("/static/{name}", static)
    app.on_cleanup.append(on_cleanup)
    return app


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve(app: web.Application, host: str, port: int, stop: asyncio.Event | None = None) -> None:
    """Serve until ``stop`` is set or SIGINT/SIGTERM; print the address (the real port when 0)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    shown = f"[{host}]" if ":" in host else host
    print(f"corpus browser at http://{shown}:{bound}/ (Ctrl-C stops it)", flush=True)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
