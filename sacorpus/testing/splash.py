"""A loopback server that speaks Splash's ``render.html`` HTTP API, backed by real Chromium.

Why: the Splash renderer (:mod:`sacorpus.rendering.splash`) is an HTTP contract, and Splash itself is
not installable here; this server answers that contract the way Splash's documentation describes it, so
the middleware's requests, authentication and answer mapping are exercised for real, with pages
rendered by a real browser (Playwright driving ``/usr/bin/chromium``). It is a test server: it only
loads loopback addresses, everything else a page asks for is aborted.

Run: ``python -m sacorpus.testing.splash --port 8050 [--auth user:password]``.

* ``GET /render.html?url=...&wait=...`` or ``POST /render.html`` with a JSON object: ``url``
  (required), ``wait`` (seconds, <= 10), ``timeout`` (seconds, <= 90), ``images``, ``headers``
  (POST only), ``http_status_from_error_code``;
* 200 with the rendered HTML; with ``http_status_from_error_code`` the page's own 4xx/5xx status;
* errors as JSON ``{"error", "type", "description"}``: 400 ``BadOption``, 401 without the right Basic
  credentials (when ``--auth`` is given), 502 ``RenderError`` (the page could not be loaded), 504
  ``GlobalTimeoutError``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import ipaddress
import json
import signal
import sys
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

CHROMIUM = "/usr/bin/chromium"
MAX_TIMEOUT = 90.0
MAX_WAIT = 10.0


def _error(status: int, kind: str, description: str) -> web.Response:
    body = {"error": status, "type": kind, "description": description}
    return web.json_response(body, status=status)


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class FakeSplash:
    def __init__(self, browser: Any, auth: str | None) -> None:
        self.browser = browser
        self.auth = "Basic " + base64.b64encode(auth.encode()).decode() if auth else None
        self.calls: list[dict[str, Any]] = []

    async def render_html(self, request: web.Request) -> web.Response:
        if self.auth and request.headers.get("Authorization") != self.auth:
            return web.Response(
                status=401, text="Unauthorized", headers={"WWW-Authenticate": 'Basic realm="Splash"'}
            )
        if request.method == "POST":
            try:
                args = await request.json()
            except ValueError:
                return _error(400, "BadOption", "body is not JSON")
        else:
            args = dict(request.query)
        if not isinstance(args, dict) or not str(args.get("url") or "").startswith(("http://", "https://")):
            return _error(400, "BadOption", "argument 'url' is required and must be an http(s) URL")
        try:
            wait = float(args.get("wait", 0))
            timeout = float(args.get("timeout", 30))
        except (TypeError, ValueError):
            return _error(400, "BadOption", "wait and timeout must be numbers")
        if not (0 <= wait <= MAX_WAIT and 0 < timeout <= MAX_TIMEOUT):
            return _error(400, "BadOption", f"wait <= {MAX_WAIT}, 0 < timeout <= {MAX_TIMEOUT}")
        print(json.dumps({"url": args["url"], "wait": wait, "timeout": timeout}), flush=True)
        try:
            return await asyncio.wait_for(self._render(args, wait, timeout), timeout)
        except TimeoutError:
            return _error(504, "GlobalTimeoutError", f"timeout {timeout} exceeded rendering {args['url']}")

    async def _render(self, args: dict[str, Any], wait: float, timeout: float) -> web.Response:
        headers = {str(k): str(v) for k, v in (args.get("headers") or {}).items() if str(k).lower() != "host"}
        context = await self.browser.new_context(extra_http_headers=headers)
        try:
            page = await context.new_page()
            images = str(args.get("images", 1)) not in ("0", "False", "false")

            async def route(r: Any) -> None:
                if not _loopback(r.request.url) or (not images and r.request.resource_type == "image"):
                    await r.abort()
                else:
                    await r.continue_()

            await page.route("**/*", route)
            try:
                answer = await page.goto(args["url"], timeout=timeout * 1000, wait_until="load")
            except Exception as exc:
                return _error(502, "RenderError", str(exc).splitlines()[0])
            if wait:
                await page.wait_for_timeout(wait * 1000)
            html = await page.content()
            status = answer.status if answer is not None else 200
            from_page = str(args.get("http_status_from_error_code", 0)) in ("1", "True", "true")
            code = status if from_page and status >= 400 else 200
            return web.Response(status=code, text=html, content_type="text/html", charset="utf-8")
        finally:
            await context.close()


async def serve(port: int, auth: str | None, chromium: str) -> None:
    from playwright.async_api import async_playwright

    from sacorpus.rendering import CHROMIUM_ARGS

    args = ["--no-sandbox", *CHROMIUM_ARGS]
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, headless=True, args=args)
        splash = FakeSplash(browser, auth)
        app = web.Application()
        app.router.add_route("GET", "/render.html", splash.render_html)
        app.router.add_route("POST", "/render.html", splash.render_html)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        print(f"listening on 127.0.0.1:{port}", flush=True)
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):  # stop cleanly: the browser must not outlive us
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
            await browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--auth", help="user:password required as HTTP Basic credentials")
    parser.add_argument("--chromium", default=CHROMIUM)
    opts = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(opts.port, opts.auth, opts.chromium))
    return 0


if __name__ == "__main__":
    sys.exit(main())
