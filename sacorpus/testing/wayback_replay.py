"""A loopback Wayback Machine: CDX search and ``id_`` mementos from captures a test defines.

Tests must not reach web.archive.org, but the backfill code must meet the real API's behaviour:
plain and ``output=json`` answers, ``showResumeKey`` paging, ``filter``/``collapse``/``from``/``to``,
``matchType`` prefix/host/domain, a 429 with ``Retry-After`` now and then, and mementos that
redirect to the nearest capture when the timestamp is not exact. The formats follow the recorded
exchanges described in ``../shared/data/wayback_cdx`` (no recorded data is used).

    with WaybackReplay([SyntheticCapture("http://www.iol.co.za/news/a-1", "20130105120000", b"<html>...")],
                       rate_limit_first=1) as replay:
        url = cdx_url("iol.co.za/news/", base=replay.base_url)
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from email.utils import format_datetime
from urllib.parse import parse_qs, quote_plus, unquote_plus, urlsplit

from sacorpus.demo.server import SiteServer

FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")


def surt_key(url: str) -> str:
    """A SURT-style urlkey: ``http://www.iol.co.za/News/a?b=1`` -> ``za,co,iol)/news/a?b=1``."""
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    host = re.sub(r"^www\d*\.", "", host)
    key = ",".join(reversed(host.split("."))) + ")" + (parts.path or "/").lower()
    if parts.query:
        key += "?" + parts.query.lower()
    return key


def _host_key(url: str) -> str:
    return surt_key(url).split(")", 1)[0]


@dataclass
class SyntheticCapture:
    original: str
    timestamp: str  # 14 digits
    body: bytes = b""
    mimetype: str = "text/html"
    status: int = 200
    location: str | None = None  # for 3xx captures: the archived Location
    digest: str | None = None  # default: base32 SHA-1 of body, as the Wayback Machine computes it

    def __post_init__(self) -> None:
        if self.digest is None:
            self.digest = base64.b32encode(hashlib.sha1(self.body).digest()).decode()

    @property
    def urlkey(self) -> str:
        return surt_key(self.original)

    def row(self) -> dict[str, str]:
        return {
            "urlkey": self.urlkey,
            "timestamp": self.timestamp,
            "original": self.original,
            "mimetype": self.mimetype,
            "statuscode": str(self.status),
            "digest": self.digest or "-",
            "length": str(len(self.body)),
        }


@dataclass
class RequestLog:
    path: str
    query: str
    status: int
    at: float = field(default_factory=time.monotonic)


Answer = tuple[int, dict[str, str], bytes]


class WaybackReplay:
    """Serves ``/cdx/search/cdx`` and ``/web/<ts><flag>/<url>`` on 127.0.0.1 with a free port, as a
    route of the project's one loopback :class:`~sacorpus.demo.server.SiteServer`."""

    def __init__(
        self,
        captures: list[SyntheticCapture],
        *,
        rate_limit_first: int = 0,
        retry_after: str = "1",
        max_page: int | None = None,
    ) -> None:
        self.captures = sorted(captures, key=lambda c: (c.urlkey, c.timestamp))
        self.rate_limit_left = rate_limit_first
        self.retry_after = retry_after
        self.max_page = max_page  # server-side page cap even without limit=
        self.log: list[RequestLog] = []
        self._lock = threading.Lock()
        self._site: SiteServer | None = None

    # lifecycle -----------------------------------------------------------------------------------

    def start(self) -> WaybackReplay:
        site = SiteServer({})
        site.add_route("/", self._answer)
        self._site = site.start()
        return self

    def stop(self) -> None:
        if self._site:
            self._site.stop()
            self._site = None

    def __enter__(self) -> WaybackReplay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._site is not None, "start() first"
        return self._site.base_url

    def cdx_requests(self) -> list[RequestLog]:
        return [r for r in self.log if r.path.startswith("/cdx/")]

    # handling ------------------------------------------------------------------------------------

    def _answer(self, raw_path: str, headers: Message) -> Answer:
        answer = self._route(raw_path)
        parts = urlsplit(raw_path)
        with self._lock:
            self.log.append(RequestLog(parts.path, parts.query, answer[0]))
        return answer

    def _route(self, raw_path: str) -> Answer:
        parts = urlsplit(raw_path)
        if parts.path.rstrip("/") == "/cdx/search/cdx":
            with self._lock:
                limited = self.rate_limit_left > 0
                if limited:
                    self.rate_limit_left -= 1
            if limited:
                return 429, {"Retry-After": self.retry_after}, b"Too Many Requests"
            status, body, ctype = self._cdx(parse_qs(parts.query, keep_blank_values=True))
            return status, {"Content-Type": ctype}, body
        m = re.match(r"^/web/(\d{1,14})([a-z]{2}_)?/(.+)$", raw_path)
        if m:
            return self._memento(m.group(1), m.group(2) or "", m.group(3))
        return 404, {"Content-Type": "text/plain"}, b"not found"

    def _select(self, q: dict[str, list[str]]) -> list[dict[str, str]]:
        url = q.get("url", [""])[0]
        match_type = q.get("matchType", ["exact"])[0]
        if url.endswith("*"):
            url, match_type = url[:-1], "prefix"
        if url.startswith("*."):
            url, match_type = url[2:], "domain"
        key = surt_key(url)
        host = _host_key(url)
        start = q.get("from", [""])[0].ljust(14, "0") if q.get("from") else None
        end = q.get("to", [""])[0].ljust(14, "9") if q.get("to") else None
        rows = []
        for cap in self.captures:
            ck = cap.urlkey
            if match_type == "prefix":
                ok = ck.startswith(key.rstrip("/")) if key.endswith(")/") else ck.startswith(key)
            elif match_type == "host":
                ok = ck.split(")", 1)[0] == host
            elif match_type == "domain":
                chost = ck.split(")", 1)[0]
                ok = chost == host or chost.startswith(host + ",")
            else:
                ok = ck == key
            if not ok or (start and cap.timestamp < start) or (end and cap.timestamp > end):
                continue
            rows.append(cap.row())
        for flt in q.get("filter", []):
            negate = flt.startswith("!")
            name, _, pattern = flt.lstrip("!").partition(":")
            regex = re.compile(pattern)
            rows = [r for r in rows if bool(regex.fullmatch(r.get(name, ""))) != negate]
        for spec in q.get("collapse", []):
            name, _, width = spec.partition(":")
            n = int(width) if width.isdigit() else None
            kept, last = [], None
            for r in rows:
                value = r.get(name, "")[:n] if n else r.get(name, "")
                if value != last:
                    kept.append(r)
                last = value
            rows = kept
        return rows

    def _cdx(self, q: dict[str, list[str]]) -> tuple[int, bytes, str]:
        rows = self._select(q)
        offset = 0
        if q.get("resumeKey"):
            m = re.search(r":(\d+)$", unquote_plus(q["resumeKey"][0]))
            if not m:
                return 400, b"bad resumeKey", "text/plain"
            offset = int(m.group(1))
        limit = int(q["limit"][0]) if q.get("limit") and q["limit"][0].lstrip("-").isdigit() else None
        if self.max_page:
            limit = min(limit or self.max_page, self.max_page)
        page = rows[offset : offset + limit] if limit else rows[offset:]
        next_offset = offset + len(page)
        resume = None
        if q.get("showResumeKey", ["false"])[0] == "true" and next_offset < len(rows) and page:
            last = page[-1]
            resume = quote_plus(f"{last['urlkey']} {last['timestamp']}:{next_offset}")
        names = q["fl"][0].split(",") if q.get("fl") else list(FIELDS)
        if q.get("output", [""])[0] == "json":
            out: list[list[str]] = [names] if page or resume else []
            out += [[r.get(n, "-") for n in names] for r in page]
            if resume:
                out += [[], [resume]]
            return 200, json.dumps(out).encode(), "application/json"
        text = "".join(" ".join(r.get(n, "-") for n in names) + "\n" for r in page)
        if resume:
            text += f"\n{resume}\n"
        return 200, text.encode(), "text/plain"

    def _memento(self, ts: str, flag: str, original: str) -> Answer:
        original = re.sub(r"^(https?):/+", r"\1://", original)
        key = surt_key(original)
        matches = [c for c in self.captures if c.urlkey == key]
        if not matches:
            return 404, {"Content-Type": "text/plain"}, b"Wayback: not archived"
        target = ts.ljust(14, "0")
        best = min(matches, key=lambda c: (abs(int(c.timestamp) - int(target)), c.timestamp))
        if best.timestamp != target:
            location = f"{self.base_url}/web/{best.timestamp}{flag}/{best.original}"
            return 302, {"Location": location, "Content-Type": "text/plain"}, b""
        when = datetime.strptime(best.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        headers = {
            "Content-Type": best.mimetype,
            "Memento-Datetime": format_datetime(when, usegmt=True),
            "Link": f'<{best.original}>; rel="original"',
        }
        if best.location:
            headers["Location"] = f"{self.base_url}/web/{best.timestamp}{flag}/{best.location}"
        return best.status, headers, best.body
