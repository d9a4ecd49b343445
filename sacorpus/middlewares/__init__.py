"""Scrapy downloader middlewares for robust fetching (issue 3, "Fetching").

``DOWNLOADER_MIDDLEWARES`` as sacorpus/settings.py declares them (process_request runs low -> high, process_response high -> low)::

    "sacorpus.middlewares.stats.FetchStatsMiddleware": 50,            # outermost: counts final failures
    "sacorpus.middlewares.robots.RobotsTxtMiddleware": 100,           # fixes a Scrapy 2.19 race (see robots.py)
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "sacorpus.middlewares.retry.RetryAfterMiddleware": 550,           # replaces Scrapy's RetryMiddleware
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "sacorpus.middlewares.browser_ua.BrowserUserAgentRetryMiddleware": 560,
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "sacorpus.middlewares.decompression.DecompressionMiddleware": 590, # sniffs codings, passes on faults
    "sacorpus.middlewares.redirects.RedirectLoopMiddleware": 610,     # before Redirect (600)
"""

from __future__ import annotations
