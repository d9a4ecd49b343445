"""The Disqus API host is let through for comment requests of a publication that declares its forum,
and for nothing else (the address guard's scope check, on the real middleware)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.test import get_crawler

from sacorpus.middlewares.address_guard import AddressGuardMiddleware
from sacorpus.spiders.demo import DemoSpider

API = "https://disqus.com/api/3.0"
DETAILS = f"{API}/threads/details.json?forum=demogazette&thread%3Aident=demo-1"


def guard(declares_disqus: bool = True) -> AddressGuardMiddleware:
    crawler = get_crawler(
        DemoSpider, {"SACORPUS_DISQUS_API_BASE": API, "SACORPUS_ADDRESS_GUARD_ENABLED": True}
    )
    spider = DemoSpider()
    spider.settings = crawler.settings
    if not declares_disqus:
        spider.publication = replace(spider.publication, comments=None)
    crawler.spider = spider
    return AddressGuardMiddleware.from_crawler(crawler)


def refused_as_candidate(middleware: AddressGuardMiddleware, request: Request) -> bool:
    """Run the check: True when it refuses the URL as another host's (before any address lookup)."""
    step = middleware.process_request(request)
    try:
        step.send(None)
    except IgnoreRequest:
        return True
    finally:
        step.close()
    return False


def test_comment_requests_of_a_disqus_publication_reach_the_api() -> None:
    middleware = guard()
    request = Request(DETAILS, meta={"sacorpus_comments_api": True})
    assert not middleware.in_scope(DETAILS)  # not one of the publication's hosts ...
    assert middleware.comment_api(request)  # ... but its comment API: on to the address check


@pytest.mark.parametrize(
    ("url", "meta", "declares"),
    [
        (DETAILS, {}, True),  # the same URL, not made by the comment source (a link in a page)
        ("https://disqus.com/by/someone/", {"sacorpus_comments_api": True}, True),  # outside the API base
        (DETAILS, {"sacorpus_comments_api": True}, False),  # a publication without a Disqus forum
    ],
)
def test_anything_else_on_the_api_host_is_a_candidate(url: str, meta: dict, declares: bool) -> None:
    assert refused_as_candidate(guard(declares), Request(url, meta=meta))
