"""Pure text functions (no Scrapy): decode, preclean, extract, metadata, langid, tokenize, dedup."""
