"""When a crawl reads comments: asked for by the run (``comments=1``, ``sources=comments``) or by the
settings for every run (``SACORPUS_COMMENTS_CRAWL``), and only for a publication with a ``[comments]`` table."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scrapy.settings import Settings

from sacorpus import settings as defaults
from sacorpus.spiders.demo import DemoSpider


def reads_comments(*, declared: bool = True, every_run: bool = False, **arguments: str) -> bool:
    spider = DemoSpider(**arguments)
    settings = Settings()
    settings.setmodule(defaults)
    settings.set("SACORPUS_COMMENTS_CRAWL", every_run)
    spider.settings = settings
    if not declared:
        spider.publication = replace(spider.publication, comments=None)
    return bool(spider.sources.get("comments").active)


@pytest.mark.parametrize(
    ("arguments", "every_run", "expected"),
    [
        ({}, False, False),  # not unless asked
        ({"comments": "1"}, False, True),
        ({"sources": "comments"}, False, True),
        ({"sources": "feeds"}, False, False),
        ({}, True, True),  # the settings ask for every run (scheduled crawls)
        ({"sources": "feeds"}, True, False),  # a run naming its sources gets only those
    ],
)
def test_who_asks_for_comments(arguments: dict[str, str], every_run: bool, expected: bool) -> None:
    assert reads_comments(every_run=every_run, **arguments) is expected


def test_a_publication_without_a_comments_table_reads_none() -> None:
    assert not reads_comments(declared=False, comments="1")
    with pytest.raises(ValueError, match="unknown run argument"):
        DemoSpider.parse_arguments({"comment": "1"})
