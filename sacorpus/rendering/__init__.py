"""JavaScript rendering for the article pages a publication's ``[render]`` table names.

Why only those: a browser costs a hundred times the memory and time of an HTTP fetch, so a run whose
publication declares no rendering installs nothing of this (no download handler, no middleware, no
browser process), and a run that does sends only the matching article requests through the browser.

Two renderers, chosen by ``SACORPUS_RENDERER`` (or by ``SPLASH_URL`` being set):

* ``playwright``: scrapy-playwright's download handler (:mod:`sacorpus.rendering.browser`) driving
  Debian's Chromium (``SACORPUS_CHROMIUM_PATH``), at most ``SACORPUS_RENDER_MAX_PAGES`` pages open in
  one reused browser context, every page closed after use, sub-requests checked by the address guard;
* ``splash``: a Splash service the user runs, called over its HTTP API by
  :mod:`sacorpus.rendering.middleware` (``render.html``).

:func:`configure_rendering` runs when the spider's settings are made (before anything starts), so a
missing browser stops the run with one line instead of failing on the first rendered page.
"""

from __future__ import annotations

import os
from typing import Any

from scrapy.exceptions import UsageError

RENDERERS = ("playwright", "splash")
MIDDLEWARE = "sacorpus.rendering.middleware.RenderMiddleware"
HANDLER = "sacorpus.rendering.browser.GuardedPlaywrightHandler"
MIDDLEWARE_ORDER = 570  # after robots.txt (100), retries (550) and the browser-UA retry (560)

#: Chromium flags: no calls home on a closed network (they fail noisily); no sandbox as root, where
#: Chromium refuses to start with it.
CHROMIUM_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
)


def renderer_name(settings: Any) -> str:
    """The renderer this run uses: ``SACORPUS_RENDERER``, else splash when ``SPLASH_URL`` is set."""
    name = (settings.get("SACORPUS_RENDERER") or "").strip().lower()
    if not name:
        return "splash" if settings.get("SPLASH_URL") else "playwright"
    if name not in RENDERERS:
        raise UsageError(f"SACORPUS_RENDERER={name!r}: use one of {', '.join(RENDERERS)}", print_help=False)
    if name == "splash" and not settings.get("SPLASH_URL"):
        raise UsageError("SACORPUS_RENDERER=splash needs SPLASH_URL (http://host:8050)", print_help=False)
    return name


def configure_rendering(settings: Any, publication: Any) -> None:
    """Install the renderer when ``publication`` has a ``[render]`` table (and rendering is on)."""
    if publication.render is None or not settings.getbool("SACORPUS_RENDER_ENABLED"):
        return
    name = renderer_name(settings)
    middlewares = dict(settings.getdict("DOWNLOADER_MIDDLEWARES"))
    middlewares.setdefault(MIDDLEWARE, MIDDLEWARE_ORDER)
    priority = max(settings.getpriority("DOWNLOADER_MIDDLEWARES") or 0, 30)
    settings.set("DOWNLOADER_MIDDLEWARES", middlewares, priority=priority)
    if name == "playwright":
        _configure_playwright(settings, publication)


def _configure_playwright(settings: Any, publication: Any) -> None:
    """scrapy-playwright's handler for http(s), launching Debian's Chromium, pages bounded."""
    try:
        import scrapy_playwright  # noqa: F401
    except ImportError:
        raise UsageError(
            f"{publication.slug}: its [render] table needs scrapy-playwright: run scripts/setup.sh --render",
            print_help=False,
        ) from None
    path = settings.get("SACORPUS_CHROMIUM_PATH")
    launch = settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    if not launch and not (path and os.access(path, os.X_OK)):
        raise UsageError(
            f"{publication.slug}: its [render] table needs Chromium at {path}: run scripts/setup.sh --render "
            "(apt-get install chromium), set SACORPUS_CHROMIUM_PATH, or use a Splash service (SPLASH_URL)",
            print_help=False,
        )
    args = [*CHROMIUM_ARGS, *(("--no-sandbox",) if os.geteuid() == 0 else ())]
    handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
    handlers.update({"http": HANDLER, "https": HANDLER})
    settings.set("DOWNLOAD_HANDLERS", handlers, priority=30)
    defaults = {
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_LAUNCH_OPTIONS": launch or {"executable_path": path, "headless": True, "args": args},
        "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": settings.getint("SACORPUS_RENDER_MAX_PAGES"),
        "PLAYWRIGHT_MAX_CONTEXTS": 1,
        "PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT": publication.render.timeout * 1000,
    }
    for name, value in defaults.items():
        if (settings.getpriority(name) or 0) < 20:  # a value from settings.py, -s or scrapyd wins
            settings.set(name, value, priority=30)


__all__ = ["CHROMIUM_ARGS", "RENDERERS", "configure_rendering", "renderer_name"]
