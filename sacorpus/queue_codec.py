"""Requests in a shared queue as plain, checked data: JSON, never pickle.

Why: scrapy-redis stores requests pickled by default, so anyone who can write to the shared Redis runs
code on every worker that pops the entry. Here a queued request is a JSON object of known fields
(URL, method, headers, body, callback and errback *names*, priority, flags, and meta keys the crawler
itself uses, with JSON values); a worker rebuilds only that, and refuses anything else. With a shared
key (``SACORPUS_REDIS_SIGNING_KEY``) every entry also carries an HMAC-SHA256 signature, so an entry
written by someone without the key is refused even when it is well-formed.

A refused entry raises :class:`QueueEntryRejected`; the scheduler drops it and counts it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from typing import Any

# Scrapy's own meta keys that travel with a queued request; the crawler's own keys start with "sacorpus_".
SCRAPY_META_KEYS = frozenset(
    {
        "depth",
        "download_slot",
        "download_timeout",
        "dont_merge_cookies",
        "dont_obey_robotstxt",
        "dont_redirect",
        "dont_retry",
        "handle_httpstatus_all",
        "handle_httpstatus_list",
        "max_retry_times",
        "publication",
        "redirect_reasons",
        "redirect_times",
        "redirect_ttl",
        "redirect_urls",
        "retry_times",
    }
)
REQUEST_FIELDS = frozenset(
    {
        "url",
        "method",
        "headers",
        "body",
        "callback",
        "errback",
        "priority",
        "dont_filter",
        "meta",
        "cb_kwargs",
        "flags",
        "encoding",
        "cookies",
    }
)
_ALLOWED_CLASSES = frozenset({"scrapy.http.request.Request", "scrapy.Request", "scrapy.http.Request"})
_DEFAULT_HANDLER = re.compile(r"^(parse\w*|\w+_failed)$")
_MAX_DEPTH = 8


class QueueEntryRejected(ValueError):
    """A queued entry that is not a plain request of this crawler (tampered, foreign or unsigned)."""


def _is_plain(value: Any, depth: int = 0) -> bool:
    """JSON-native data only: no objects, however deep."""
    if depth > _MAX_DEPTH:
        return False
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(_is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v, depth + 1) for k, v in value.items())
    return False


def _latin1(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def handler_allowed(name: str | None, spider: Any) -> bool:
    """A callback or errback name a queued request may call: one the spider declares in
    ``queue_callbacks``, else a ``parse*`` or ``*_failed`` method of the spider."""
    if name is None:
        return True
    declared = getattr(spider, "queue_callbacks", None)
    allowed = name in declared if declared is not None else bool(_DEFAULT_HANDLER.match(name))
    return allowed and callable(getattr(spider, name, None))


class RequestCodec:
    """``dumps``/``loads`` for scrapy-redis queues (the ``serializer`` it accepts), JSON and checked.

    ``bind(spider)`` lets :meth:`loads` check callback names against the spider that will run them.
    """

    def __init__(self, key: str | bytes | None = None) -> None:
        self.key = key.encode() if isinstance(key, str) else key
        self.spider: Any = None

    def bind(self, spider: Any) -> RequestCodec:
        self.spider = spider
        return self

    # --- encoding -----------------------------------------------------------------------------------

    def dumps(self, obj: dict[str, Any]) -> bytes:
        """``obj`` is Scrapy's ``Request.to_dict()``; raises QueueEntryRejected for what cannot be queued
        as plain data (the spider would have put an object in meta)."""
        data = self._plain_request(obj)
        payload = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        envelope: dict[str, Any] = {"v": 1, "req": payload}
        if self.key:
            envelope["sig"] = self._sign(payload)
        return json.dumps(envelope, separators=(",", ":")).encode("ascii")

    def _plain_request(self, obj: dict[str, Any]) -> dict[str, Any]:
        cls = obj.get("_class")
        if cls is not None and cls not in _ALLOWED_CLASSES:
            raise QueueEntryRejected(f"request class {cls!r} cannot be queued")
        data: dict[str, Any] = {k: v for k, v in obj.items() if k in REQUEST_FIELDS}
        data["headers"] = {
            _latin1(k): [_latin1(v) for v in (vs if isinstance(vs, (list, tuple)) else [vs])]
            for k, vs in (obj.get("headers") or {}).items()
        }
        body = obj.get("body") or b""
        data["body"] = base64.b64encode(body if isinstance(body, bytes) else str(body).encode()).decode()
        meta = {k: v for k, v in (obj.get("meta") or {}).items() if self.meta_key_allowed(k)}
        data["meta"] = meta
        for name in ("meta", "cb_kwargs", "cookies", "flags"):
            if name in data and not _is_plain(data[name]):
                raise QueueEntryRejected(f"request {name} holds objects; only plain data is queued")
        return data

    @staticmethod
    def meta_key_allowed(key: str) -> bool:
        return key.startswith("sacorpus_") or key in SCRAPY_META_KEYS

    def _sign(self, payload: str) -> str:
        assert self.key is not None
        return hmac.new(self.key, payload.encode("ascii"), hashlib.sha256).hexdigest()

    # --- decoding -----------------------------------------------------------------------------------

    def loads(self, raw: bytes | str) -> dict[str, Any]:
        """The entry as a dict for Scrapy's ``request_from_dict``, or QueueEntryRejected."""
        try:
            envelope = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise QueueEntryRejected("queued entry is not JSON (a pickle or foreign data)") from None
        if (
            not isinstance(envelope, dict)
            or envelope.get("v") != 1
            or not isinstance(envelope.get("req"), str)
        ):
            raise QueueEntryRejected("queued entry is not a sacorpus request")
        payload = envelope["req"]
        if self.key:
            sig = envelope.get("sig")
            if not isinstance(sig, str) or not hmac.compare_digest(sig, self._sign(payload)):
                raise QueueEntryRejected("queued entry has no valid signature")
        try:
            data = json.loads(payload)
        except ValueError:
            raise QueueEntryRejected("queued request is not JSON") from None
        return self._checked(data)

    def _checked(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or not _is_plain(data):
            raise QueueEntryRejected("queued request is not plain data")
        unknown = set(data) - REQUEST_FIELDS
        if unknown:
            raise QueueEntryRejected(f"queued request has unknown fields {sorted(unknown)}")
        url = data.get("url")
        if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
            raise QueueEntryRejected("queued request has no http(s) URL")
        bad_meta = [k for k in data.get("meta") or {} if not self.meta_key_allowed(k)]
        if bad_meta:
            raise QueueEntryRejected(f"queued request has unknown meta keys {sorted(bad_meta)}")
        for name in ("callback", "errback"):
            handler = data.get(name)
            if handler is not None and not isinstance(handler, str):
                raise QueueEntryRejected(f"queued request {name} is not a name")
            if self.spider is not None and not handler_allowed(handler, self.spider):
                raise QueueEntryRejected(f"queued request {name} {handler!r} is not a spider callback")
        headers = data.get("headers") or {}
        if not isinstance(headers, dict) or not all(isinstance(v, list) for v in headers.values()):
            raise QueueEntryRejected("queued request headers are malformed")
        data["headers"] = {
            k.encode("latin-1"): [v.encode("latin-1") for v in vs] for k, vs in headers.items()
        }
        try:
            data["body"] = base64.b64decode(data.get("body") or "", validate=True)
        except (ValueError, TypeError):
            raise QueueEntryRejected("queued request body is malformed") from None
        return data


def keyed_fingerprint(fingerprint: str, key: str | bytes | None) -> str:
    """A seen-set member. With a key it is an HMAC of the fingerprint: someone who can write to Redis but
    has no key cannot add the member of a URL, so cannot keep an article from being fetched."""
    if not key:
        return fingerprint
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, fingerprint.encode(), hashlib.sha256).hexdigest()


__all__ = ["QueueEntryRejected", "RequestCodec", "handler_allowed", "keyed_fingerprint"]
