"""Queued requests are plain checked data: what a tampered entry can and cannot do."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.utils.request import request_from_dict

from sacorpus.queue_codec import QueueEntryRejected, RequestCodec, keyed_fingerprint


class NewsSpider(Spider):
    name = "news"

    def parse_article(self, response: Any) -> None:  # pragma: no cover - never called here
        pass

    def article_failed(self, failure: Any) -> None:  # pragma: no cover
        pass


class _Marker:
    """Unpickling this writes a file: proof that code ran."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {self.path}",))


def _request() -> Request:
    return Request(
        "https://news.example/a/story-123",
        callback=NewsSpider().parse_article,
        errback=NewsSpider().article_failed,
        priority=5,
        headers={"If-None-Match": '"abc"'},
        meta={"sacorpus_source": "sitemap", "sacorpus_seen_key": "news.example/story-123", "depth": 1},
    )


def test_round_trip_keeps_the_request() -> None:
    spider = NewsSpider()
    codec = RequestCodec().bind(spider)
    raw = codec.dumps(_request().to_dict(spider=spider))
    assert b"pickle" not in raw and raw.startswith(b"{")
    back = request_from_dict(codec.loads(raw), spider=spider)
    assert back.url == "https://news.example/a/story-123"
    assert back.callback == spider.parse_article and back.errback == spider.article_failed
    assert back.priority == 5 and back.headers.get("If-None-Match") == b'"abc"'
    assert back.meta["sacorpus_seen_key"] == "news.example/story-123" and back.meta["depth"] == 1


def test_a_pickle_in_the_queue_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = pickle.dumps({"url": "https://news.example/", "meta": _Marker(str(marker))})
    with pytest.raises(QueueEntryRejected, match="not JSON"):
        RequestCodec().bind(NewsSpider()).loads(payload)
    assert not marker.exists()


def _entry(**request: Any) -> bytes:
    base = {"url": "https://news.example/x", "method": "GET", "headers": {}, "body": "", "meta": {}}
    base.update(request)
    return json.dumps({"v": 1, "req": json.dumps(base)}).encode()


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (_entry(callback="closed"), "not a spider callback"),
        (_entry(callback="__init__"), "not a spider callback"),
        (_entry(errback="start"), "not a spider callback"),
        (_entry(_class="os.system"), "unknown fields"),
        (_entry(meta={"proxy": "http://attacker.example:3128"}), "unknown meta keys"),
        (_entry(url="file:///etc/passwd"), r"no http\(s\) URL"),
        (_entry(body="%%%not base64"), "body is malformed"),
        (b'{"v": 2, "req": "{}"}', "not a sacorpus request"),
        (b"\x80\x04\x95", "not JSON"),
    ],
)
def test_foreign_entries_are_refused(entry: bytes, why: str) -> None:
    with pytest.raises(QueueEntryRejected, match=why):
        RequestCodec().bind(NewsSpider()).loads(entry)


def test_objects_in_meta_are_not_queued() -> None:
    spider = NewsSpider()
    request = _request()
    request.meta["sacorpus_object"] = object()
    with pytest.raises(QueueEntryRejected, match="plain data"):
        RequestCodec().dumps(request.to_dict(spider=spider))


def test_signed_queue_refuses_unsigned_and_forged_entries() -> None:
    spider = NewsSpider()
    signed = RequestCodec("shared-secret").bind(spider)
    raw = signed.dumps(_request().to_dict(spider=spider))
    assert signed.loads(raw)["url"] == "https://news.example/a/story-123"
    unsigned = RequestCodec().dumps(_request().to_dict(spider=spider))
    with pytest.raises(QueueEntryRejected, match="signature"):
        signed.loads(unsigned)
    with pytest.raises(QueueEntryRejected, match="signature"):
        RequestCodec("another-key").bind(spider).loads(raw)
    forged = json.loads(raw)
    forged["req"] = forged["req"].replace("story-123", "story-999")
    with pytest.raises(QueueEntryRejected, match="signature"):
        signed.loads(json.dumps(forged).encode())


def test_keyed_fingerprints_cannot_be_guessed_without_the_key() -> None:
    fp = "a" * 40
    assert keyed_fingerprint(fp, None) == fp
    keyed = keyed_fingerprint(fp, "k1")
    assert keyed != fp and keyed == keyed_fingerprint(fp, "k1") and keyed != keyed_fingerprint(fp, "k2")
