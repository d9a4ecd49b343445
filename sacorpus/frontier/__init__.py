"""The crawl frontier: a disk-backed seen-request filter and a scheduler that survives kill -9.

``seen.SeenStore`` is the pure part (an SQLite set of fingerprints with a bounded RAM cache);
``dupefilter.DiskDupeFilter`` and ``scheduler.ResumableScheduler`` are the thin Scrapy adapters.
"""
