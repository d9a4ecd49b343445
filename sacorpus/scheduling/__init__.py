"""``scrapy schedule``: crawls started at each feed's own pace, here or on a scrapyd server.

The decisions (what is due, when next, backoff) are the pure core in :mod:`sacorpus.sources.schedule`;
this package runs them: reading poll states from the store, starting and watching crawls.
"""
