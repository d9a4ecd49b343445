"""One loopback static HTTP server for the demo site and for the per-publication test fixture sites.

Why one server: the demo (``scrapy crawl demo`` offline) and every fixture crawl test need the same
behaviour from a "news site" - conditional GET, HEAD, query-string URLs, raw ``.xml.gz`` sitemaps, the
odd 503 or redirect - so it lives in one place and the tests exercise what users run.

Pages are written with the placeholder ``{base}`` wherever an absolute link is needed; the server
replaces it with its own base URL (``http://127.0.0.1:PORT``) or with ``public_base`` when given, so
the same files work on any port. Gzip bodies are decompressed, substituted and recompressed.

Files on disk (:meth:`SiteServer.from_directory`) map to URL paths like this:

* ``a/b/page.html``                     -> ``/a/b/page.html``
* ``a/b/index.xml`` (any ``index.*``)   -> ``/a/b/`` (and ``/a/b/index.xml``)
* ``a/b/index.xml@outputType=xml``      -> ``/a/b/?outputType=xml``: the part after ``@`` is the query
  string (percent-encoded as in a URL, e.g. ``%2F`` for ``/``); the content type comes from the part
  before ``@``. Query strings are compared as sorted, decoded parameter lists.
* ``*.gz`` files are served as raw gzip bytes without ``Content-Encoding`` (as real sitemap.xml.gz are).
* files without an extension are sniffed (XML or HTML); ``expected.json`` at the root is not served.

Requests in absolute form (``GET http://www.iol.co.za/rss HTTP/1.1``, as an HTTP proxy receives them) are
served by their path, so a crawler may also reach the server by using it as its ``proxy`` for the
publication's real host names.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import mimetypes
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.message import Message
from email.utils import parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

logger = logging.getLogger(__name__)

#: a dynamic part of a site: (path?query, request headers) -> (status, headers, body), or None
Route = Callable[[str, Message], "tuple[int, dict[str, str], bytes] | None"]

#: Last-Modified for resources that do not set their own: a fixed date keeps responses deterministic.
DEFAULT_LAST_MODIFIED = "Mon, 02 Nov 2026 06:00:00 GMT"

PLACEHOLDER = b"{base}"

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".xml": "application/xml; charset=utf-8",
    ".rss": "application/rss+xml; charset=utf-8",
    ".atom": "application/atom+xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".gz": "application/x-gzip",
}

#: Files in a fixture directory that describe the site rather than belong to it.
NOT_SERVED = frozenset({"expected.json", "README.md"})


@dataclass(frozen=True)
class Resource:
    """One servable response body. ``headers`` are extra response headers (may override defaults)."""

    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class SpecialResponse:
    """A scripted response for tests: e.g. a 503 with Retry-After, or a redirect.

    ``times``: how many requests get this response before the path falls back to its normal resource
    (None: forever).
    """

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    times: int | None = None


def content_type_for(name: str, body: bytes = b"") -> str:
    """Content type from a file name's extension; extensionless files are sniffed."""
    suffix = Path(name).suffix.lower()
    if suffix in _TYPES:
        return _TYPES[suffix]
    if suffix not in mimetypes.types_map:  # no or unknown extension ("/rss", "/cmlink/1.640"): sniff
        head = body[:200].lstrip().lower()
        if head.startswith((b"<?xml", b"<rss", b"<feed", b"<urlset", b"<sitemapindex")):
            return _TYPES[".xml"]
        if head.startswith((b"<!doctype html", b"<html")):
            return _TYPES[".html"]
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def _is_text(content_type: str) -> bool:
    ct = content_type.split(";")[0].strip().lower()
    return ct.startswith("text/") or ct.endswith(("xml", "json", "javascript"))


def _is_gzip(body: bytes) -> bool:
    return body[:2] == b"\x1f\x8b"


def _query_key(query: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(parse_qsl(query, keep_blank_values=True)))


def _split(path: str) -> tuple[str, str]:
    parts = urlsplit(path)
    return parts.path or "/", parts.query


def directory_resources(root: str | Path) -> dict[str, Resource]:
    """Read a fixture site from disk into URL path -> :class:`Resource` (see the module docstring)."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"not a directory: {root}")
    out: dict[str, Resource] = {}
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = file.relative_to(root).as_posix()
        if rel in NOT_SERVED:
            continue
        body = file.read_bytes()
        name, _, query = rel.partition("@")
        resource = Resource(body, content_type_for(name, body))
        directory, _, leaf = name.rpartition("/")
        url_dir = f"/{directory}/" if directory else "/"
        paths = [url_dir + leaf]
        if leaf.startswith("index."):
            paths.insert(0, url_dir)
        for p in paths:
            out[f"{p}?{query}" if query else p] = resource
    return out


class SiteServer:
    """A static site on 127.0.0.1 (port 0: a free port) in a daemon thread. Use as a context manager."""

    def __init__(
        self, resources: Mapping[str, Resource], public_base: str | None = None, port: int = 0
    ) -> None:
        self._source = dict(resources)
        self.port = port
        self.public_base = public_base.rstrip("/") if public_base else None
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._special: dict[str, SpecialResponse] = {}
        self._routes: list[tuple[str, Route]] = []  # (path prefix, answer), e.g. the Wayback replay
        self._served: dict[str, tuple[Resource, str]] = {}  # path -> (substituted resource, etag)
        self._by_query: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path?query) of every request, for tests

    @classmethod
    def from_directory(cls, path: str | Path, public_base: str | None = None, port: int = 0) -> SiteServer:
        return cls(directory_resources(path), public_base=public_base, port=port)

    # --- lifecycle ------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("SiteServer is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> SiteServer:
        if self._httpd is not None:
            return self
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), _make_handler(self))
        self._httpd.daemon_threads = True
        self._prepare((self.public_base or self.base_url).encode())
        httpd = self._httpd
        self._thread = threading.Thread(
            target=lambda: httpd.serve_forever(poll_interval=0.05), name="SiteServer", daemon=True
        )
        self._thread.start()
        logger.info("SiteServer serving %d resources at %s", len(self._served), self.base_url)
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- test hooks -----------------------------------------------------------------------------

    def add_response(
        self,
        path: str,
        status: int,
        headers: Mapping[str, str] | None = None,
        body: bytes = b"",
        times: int | None = None,
    ) -> None:
        """Script a special response for ``path`` (exact path, with query string if any)."""
        with self._lock:
            self._special[path] = SpecialResponse(status, dict(headers or {}), body, times)

    def add_route(self, prefix: str, answer: Route) -> None:
        """Answer paths under ``prefix`` with a function (sites that compute their answers, such as the
        Wayback replay); static resources and special responses still come first."""
        with self._lock:
            self._routes.append((prefix, answer))

    def _routed(self, raw_path: str, headers: Message) -> tuple[int, dict[str, str], bytes] | None:
        with self._lock:
            routes = list(self._routes)
        for prefix, answer in routes:
            if raw_path.startswith(prefix):
                found = answer(raw_path, headers)
                if found is not None:
                    return found
        return None

    def add_redirect(self, path: str, location: str, status: int = 301, times: int | None = None) -> None:
        """Redirect ``path`` to ``location`` (``{base}`` in the location is substituted)."""
        location = location.replace("{base}", self.public_base or self.base_url)
        self.add_response(path, status, {"Location": location}, times=times)

    def paths(self) -> list[str]:
        return sorted(self._source)

    def url(self, path: str) -> str:
        return self.base_url + path

    # --- internals ------------------------------------------------------------------------------

    def _prepare(self, base: bytes) -> None:
        self._served.clear()
        self._by_query.clear()
        for path, res in self._source.items():
            body = res.body
            if _is_gzip(body):
                try:
                    raw = gzip.decompress(body)
                except (EOFError, OSError):  # a truncated or broken gzip body is served as it is
                    raw = b""
                if PLACEHOLDER in raw:
                    body = gzip.compress(raw.replace(PLACEHOLDER, base), mtime=0)
            elif _is_text(res.content_type):
                body = body.replace(PLACEHOLDER, base)
            served = Resource(body, res.content_type, dict(res.headers))
            etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'
            self._served[path] = (served, etag)
            p, q = _split(path)
            if q:
                self._by_query[(p, _query_key(q))] = path

    def _lookup(self, raw_path: str) -> tuple[Resource, str] | None:
        if raw_path in self._served:
            return self._served[raw_path]
        path, query = _split(raw_path)
        if query:
            key = self._by_query.get((path, _query_key(query)))
            if key is not None:
                return self._served[key]
        return self._served.get(path)

    def _special_for(self, raw_path: str) -> SpecialResponse | None:
        with self._lock:
            for key in (raw_path, _split(raw_path)[0]):
                special = self._special.get(key)
                if special is None:
                    continue
                if special.times is not None:
                    if special.times <= 0:
                        del self._special[key]
                        continue
                    special.times -= 1
                return special
        return None


class _SiteHandler(BaseHTTPRequestHandler):
    """Answers from a :class:`SiteServer`'s resources (conditional GET, special responses, HEAD)."""

    site: SiteServer  # set per server by _make_handler
    protocol_version = "HTTP/1.1"
    server_version = "sacorpus-SiteServer/1"
    disable_nagle_algorithm = True  # headers and body go out at once (no 40 ms delayed-ACK stall)

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def do_GET(self) -> None:
        self._respond(head=False)

    def _send(self, status: int, headers: Mapping[str, str], body: bytes, head: bool) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)

    def _respond(self, head: bool) -> None:
        raw_path = self.path
        if raw_path.startswith(("http://", "https://")):  # absolute form (proxy-style request)
            parts = urlsplit(raw_path)
            raw_path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.site.requests.append((self.command, raw_path))
        special = self.site._special_for(raw_path)
        if special is not None:
            headers = {"Content-Type": "text/plain; charset=utf-8", **special.headers}
            self._send(special.status, headers, special.body, head)
            return
        found = self.site._lookup(raw_path)
        routed = self.site._routed(raw_path, self.headers) if found is None else None
        if routed is not None:
            self._send(*routed, head)
            return
        if found is None:
            self._send(404, {"Content-Type": "text/plain; charset=utf-8"}, b"not found\n", head)
            return
        res, etag = found
        last_modified = res.headers.get("Last-Modified", DEFAULT_LAST_MODIFIED)
        headers = {
            "Content-Type": res.content_type,
            "ETag": etag,
            "Last-Modified": last_modified,
            **res.headers,
        }
        if self._not_modified(etag, last_modified):
            self._send(304, {"ETag": etag, "Last-Modified": last_modified}, b"", head=True)
            return
        self._send(200, headers, res.body, head)

    def _not_modified(self, etag: str, last_modified: str) -> bool:
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            return inm.strip() == "*" or etag in [t.strip() for t in inm.split(",")]
        ims = self.headers.get("If-Modified-Since")
        if ims:
            try:
                return parsedate_to_datetime(last_modified) <= parsedate_to_datetime(ims)
            except (TypeError, ValueError):
                return False
        return False


def _make_handler(server: SiteServer) -> type[BaseHTTPRequestHandler]:
    return type("Handler", (_SiteHandler,), {"site": server})


if __name__ == "__main__":  # python -m sacorpus.demo.server, as before sacorpus.demo.__main__
    from sacorpus.demo.__main__ import main

    main()
