"""Learning a new publication from its homepage: discovery, URL patterns, page rules, its files.

Pure (no Scrapy): `scrapy newpub` fetches through a crawler and hands the answers in.
"""
